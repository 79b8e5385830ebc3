package gpuimpl

// KernelTarget is the PTX target (GPU-2) whose text a device of compute
// capability major.minor gets: the newest target not newer than the
// device, since PTX for sm_NN JIT-compiles on every newer device; 0 for a
// device older than sm_70, which the kernel does not support.
func KernelTarget(major, minor int) int {
	cc := major*10 + minor
	best := 0
	for _, sm := range kernelTargets {
		if sm <= cc {
			best = sm
		}
	}
	return best
}

// kernelTargets are GPU-2's targets, oldest first.
var kernelTargets = []int{70, 75, 80, 86, 89, 90}

// Fault names a GPU fault that Engine.InjectFault provokes in the next
// Compress call, so that tests on a GPU can check that a fault loses no
// page (RT-9).
type Fault int

const (
	NoFault             Fault = iota
	FaultIllegalAddress       // the page kernel writes its meta words through an unmapped address
	FaultLaunchFailure        // a kernel that executes trap
	FaultOutOfMemory          // a device allocation larger than any device
	FaultInvalidLaunch        // a launch of 2,048 threads per block
)

func (f Fault) String() string {
	switch f {
	case NoFault:
		return "none"
	case FaultIllegalAddress:
		return "illegal-address"
	case FaultLaunchFailure:
		return "launch-failure"
	case FaultOutOfMemory:
		return "out-of-memory"
	case FaultInvalidLaunch:
		return "invalid-launch"
	}
	return "Fault(?)"
}
