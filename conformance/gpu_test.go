package conformance

import (
	"github.com/lz4warp/lz4warp/internal/gputest"
	"testing"

	"github.com/lz4warp/lz4warp"
	"pgregory.net/rapid"
)

// Checks API-16, PARSE-8, GPU-7, RT-11: on a machine with a GPU, batches of
// every page shape that SelectBackend sends to the GPU (1,000 pages and
// more, over several ring slots and a partial last chunk) come back with
// the reference's bytes, decodable by the reference and by pierrec/lz4.
func TestGPUBackendConformance(t *testing.T) {
	gputest.Require(t)
	if !lz4warp.GPUAvailable() {
		t.Fatal("a cuda build on a machine without a supported GPU")
	}
	cfg := lz4warp.DefaultConfig()
	cfg.BatchSize = 512 // several chunks per batch
	c, err := lz4warp.NewGPUBatchCompressor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	compress := compressorFunc(c, lz4warp.BackendGPU)
	rapid.Check(t, func(t *rapid.T) {
		checkBatch(t, compress, Batch(lz4warp.GPUMinBatch, lz4warp.GPUMinBatch+1200).Draw(t, "specs"))
	})
}
