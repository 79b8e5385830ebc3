//go:build !cuda

package gpuimpl

// Devices lists the CUDA devices; without CUDA support there are none.
func Devices() ([]Device, error) { return nil, nil }

// Engine compresses page batches on one GPU.
type Engine struct{}

// Open returns ErrNotAvailable in a build without CUDA support.
func Open(Options) (*Engine, error) { return nil, ErrNotAvailable }

// Compress is unreachable without CUDA support.
func (*Engine) Compress([][PageSize]byte) ([]Output, Timings, error) {
	return nil, Timings{}, ErrNotAvailable
}

// InjectFault does nothing without CUDA support.
func (*Engine) InjectFault(Fault) {}

// Close releases nothing.
func (*Engine) Close() error { return nil }

// NewHostPages returns ErrNotAvailable without CUDA support.
func (*Engine) NewHostPages(int) (*HostPages, error) { return nil, ErrNotAvailable }

// CompressHost is unreachable without CUDA support.
func (*Engine) CompressHost(*HostPages, int) ([]Output, Timings, error) {
	return nil, Timings{}, ErrNotAvailable
}

// Close releases nothing.
func (*HostPages) Close() error { return nil }

// Pending is a batch on its way; without CUDA support there is none.
type Pending struct{}

// StartHost is unreachable without CUDA support.
func (*Engine) StartHost(*HostPages, int) (*Pending, error) { return nil, ErrNotAvailable }

// Wait is unreachable without CUDA support.
func (*Pending) Wait() ([]Output, Timings, error) { return nil, Timings{}, ErrNotAvailable }

// Queues is false without CUDA support.
func (*Engine) Queues(int) bool { return false }

// deviceState is a device's shared context; without CUDA support there is
// none.
type deviceState struct{}

// Pinner page-locks HostPages for several engines; without CUDA support
// there is none.
type Pinner struct{}

// NewPinner returns ErrNotAvailable without CUDA support.
func NewPinner(int) (*Pinner, error) { return nil, ErrNotAvailable }

// NewHostPages returns ErrNotAvailable without CUDA support.
func (*Pinner) NewHostPages(int, []*Engine) (*HostPages, error) { return nil, ErrNotAvailable }

// Close releases nothing.
func (*Pinner) Close() error { return nil }
