package features

import (
	"context"
	"fmt"
	"time"

	"github.com/cucumber/godog"
	"github.com/lz4warp/lz4warp"
)

// world is the state of one scenario.
type world struct {
	ctx context.Context
	doc documented // what the documentation claims, recorded by Given steps

	// PCIe rule and backend selection
	weighed    pcieArgs
	verdict    bool
	pageCounts []int
	selection  selection
	backend    lz4warp.Backend

	device lz4warp.DeviceInfo
	cfg    lz4warp.Config
	err    error

	// batches
	comp           *lz4warp.Compressor
	compressors    []*lz4warp.Compressor
	pages          []lz4warp.Page
	result         *lz4warp.BatchResult
	batchTimes     []time.Duration
	lastBatch      []lz4warp.CompressedPage
	again          []lz4warp.CompressedPage // a second compression of w.pages
	checkedRef     bool                     // every payload was compared with reference.EncodePage
	stats          lz4warp.Stats
	haveStats      bool // stats set by a step rather than read from w.comp
	compressed     []lz4warp.CompressedPage
	corrupted      map[int]bool
	dst            []lz4warp.Page
	decodeErr      error
	bufferGPUPages uint64 // the pages of the last DecompressBuffer batch the GPUs decoded
	hashInput      uint32
	gpuStatus      string
	gpuRequestErr  error
	decodes        []decoded // the batch decoded on each backend
}

type pcieArgs struct {
	pages     int
	pcie, gpu float64
}

type selection struct {
	pages int
	gpu   bool
}

type docGPU struct {
	cc    [2]int
	batch int
}

// documented holds the documentation's claims that a scenario compares
// with what the API gives.
type documented struct {
	pcieArgs       pcieArgs
	pcieBeneficial bool
	largeBatch     int
	selection      selection
	backend        string
	gpus           map[string]docGPU
	minSM          [2]int
	config         lz4warp.Config
	ratio          float64
	kernel         docKernel
	genericInsn    string
}

type docKernel struct {
	warps, threadsPerWarp, pagesPerWarp, warpKiB, blockKiB int
}

func (w *world) closeLater(c *lz4warp.Compressor) { w.compressors = append(w.compressors, c) }

func initializeScenario(sc *godog.ScenarioContext) {
	w := &world{}
	sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
		w.ctx = ctx
		return ctx, nil
	})
	sc.StepContext().Before(func(ctx context.Context, _ *godog.Step) (context.Context, error) {
		w.ctx = ctx
		return ctx, nil
	})
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		var closeErr error
		for _, c := range w.compressors {
			if cerr := c.Close(); cerr != nil && closeErr == nil {
				closeErr = fmt.Errorf("Close: %w", cerr)
			}
		}
		return ctx, closeErr
	})
	w.registerRuleSteps(sc)
	w.registerPageSteps(sc)
	w.registerKernelSteps(sc)
	w.registerDecodeSteps(sc)
}
