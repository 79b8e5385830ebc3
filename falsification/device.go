package falsification

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/lz4warp/lz4warp/internal/cudart"
)

// resultName is the CUDA name of a driver call's result (CUDA_SUCCESS for
// nil).
func resultName(err error) string {
	if err == nil {
		return success
	}
	var ce *cudart.Error
	if errors.As(err, &ce) {
		return ce.Code.Name()
	}
	return err.Error()
}

// DeviceInfo names device 0, its compute capability (e.g. 90) and the
// driver's API version (e.g. 13000).
func DeviceInfo() (name string, sm int, driverAPI int, err error) {
	info, err := cudart.Device(0)
	if err != nil {
		return "", 0, 0, err
	}
	return info.Name, 10*info.Major + info.Minor, cudart.DriverVersion(), nil
}

// RunOnDevice launches the experiment's kernel on device 0 in a context of
// its own, created for this run and destroyed after it. It fills every
// field of the Outcome except Sanitizer; jitLog is the driver's error log
// when the JIT fails. A kernel fault is an outcome, not an error; err
// reports a failure of the harness itself (no device, no memory).
//
// After a fault the driver may refuse every later context in the process,
// so callers run one experiment per process (FALS-4).
func RunOnDevice(e Experiment) (o Outcome, jitLog string, err error) {
	_, sm, _, err := DeviceInfo()
	if err != nil {
		return o, "", err
	}
	ctx, err := cudart.NewContext(0)
	if err != nil {
		return o, "", err
	}
	defer ctx.Close()

	o.Launch, o.Sync, o.Output = "-", "-", "-"
	mod, err := ctx.LoadPTX(e.PTX(TargetSM(sm)))
	o.JIT = resultName(err)
	if err != nil {
		var ce *cudart.Error
		if errors.As(err, &ce) {
			return o, ce.Log, nil
		}
		return o, "", err
	}
	fn, err := mod.Function(KernelName)
	if err != nil {
		return o, "", err
	}
	dst, err := ctx.Alloc(4 * Words)
	if err != nil {
		return o, "", err
	}
	buf := make([]byte, 4*Words)
	for i := range Words {
		binary.LittleEndian.PutUint32(buf[4*i:], Poison)
	}
	if err := ctx.CopyHtoD(dst, buf); err != nil {
		return o, "", fmt.Errorf("falsification: poisoning the output: %w", err)
	}
	stream, err := ctx.NewStream()
	if err != nil {
		return o, "", err
	}
	grid, block := cudart.Dim{X: e.Config.Blocks()}, cudart.Dim{X: e.Config.Threads()}
	o.Launch = resultName(stream.Launch(fn, grid, block, 0, uint64(dst), e.Bias))
	o.Sync = resultName(ctx.Synchronize())
	if ctx.CopyDtoH(buf, dst) != nil {
		o.Output = "unreadable" // the copy fails with the launch's sticky error
		return o, "", nil
	}
	got := make([]uint32, Words)
	for i := range got {
		got[i] = binary.LittleEndian.Uint32(buf[4*i:])
	}
	o.Output = e.CompareOutput(got)
	return o, "", nil
}
