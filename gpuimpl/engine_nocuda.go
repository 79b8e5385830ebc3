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

// Decompress is unreachable without CUDA support.
func (*Engine) Decompress([]Output, [][PageSize]byte, []uint32) (Timings, error) {
	return Timings{}, ErrNotAvailable
}

// DecompressHost is unreachable without CUDA support.
func (*Engine) DecompressHost([]Output, *HostPages, []uint32) (Timings, error) {
	return Timings{}, ErrNotAvailable
}

// DecompressDevice is unreachable without CUDA support.
func (*Engine) DecompressDevice([]Output, []uint32) (Timings, error) {
	return Timings{}, ErrNotAvailable
}

// DecodePending is a decode batch on its way; without CUDA support there
// is none.
type DecodePending struct{}

// StartDecompressHost is unreachable without CUDA support.
func (*Engine) StartDecompressHost([]Output, *HostPages) (*DecodePending, error) {
	return nil, ErrNotAvailable
}

// Wait is unreachable without CUDA support.
func (*DecodePending) Wait([]uint32) (Timings, error) { return Timings{}, ErrNotAvailable }
