package features

import "github.com/lz4warp/lz4warp"

// gpuScenarios reports whether the @gpu scenarios run: in a cuda build, when
// a supported CUDA GPU is present. They then open it with
// lz4warp.NewGPUBatchCompressor, and a failure to open it fails them.
func gpuScenarios() (bool, string) {
	devs, err := lz4warp.Devices()
	if err != nil {
		return false, "no CUDA device could be listed: " + err.Error()
	}
	for _, d := range devs {
		if d.IsSupported() {
			return true, d.Name
		}
	}
	return false, "no CUDA device of compute capability 7.0 or newer on this machine"
}
