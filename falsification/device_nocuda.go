//go:build !cuda

package falsification

// RunOnDevice needs the cuda build tag; without it, it reports ErrNoDevice.
func RunOnDevice(Experiment) (Outcome, string, error) { return Outcome{}, "", ErrNoDevice }
