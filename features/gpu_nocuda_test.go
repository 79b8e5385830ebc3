//go:build !cuda

package features

// gpuScenarios reports whether the @gpu scenarios run, and why not: they
// need a build with -tags cuda.
func gpuScenarios() (bool, string) {
	return false, "built without -tags cuda (build with -tags cuda on a machine with a supported CUDA GPU to run it)"
}
