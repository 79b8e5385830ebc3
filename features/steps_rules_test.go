package features

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/lz4warp/lz4warp"
)

// Steps about the rules of spec/api.md that need no pages: the PCIe rule,
// backend selection, devices, configuration, result and statistics formulas.

func (w *world) registerRuleSteps(sc *godog.ScenarioContext) {
	// PCIe rule
	sc.Step(`^the documentation's example meets_pcie_rule\((\d+), (\S+), (\S+)\), documented as "GPU offload beneficial"$`, w.documentedPCIeExample)
	sc.Step(`^(-?\d+) pages are weighed on an? (.+) link of (\S+) GB/s and a GPU of (\S+) GB/s$`, w.weigh)
	sc.Step(`^the PCIe rule is (true|false)$`, w.pcieVerdictIs)
	sc.Step(`^the PCIe rule holds, as documented$`, w.pcieHoldsAsDocumented)
	sc.Step(`^the documentation says GPU compression pays for "large batches" of (\d+)\+ pages$`, w.documentedLargeBatches)
	sc.Step(`^the page count varies at (\S+) GB/s PCIe and (\S+) GB/s GPU throughput$`, w.pageCountVaries)
	sc.Step(`^the PCIe rule gives the same verdict, (true|false), for every page count:$`, w.sameVerdictForCounts)
	sc.Step(`^the verdict is (true|false) for (-?\d+) pages$`, w.verdictForPages)
	sc.Step(`^the PCIe rule gives one verdict for every page count from (\d+) to (\d+)$`, w.oneVerdictForRange)
	sc.Step(`^at (\S+) GB/s PCIe the verdict is (true|false) for every one of those page counts$`, w.verdictAtPCIe)
	sc.Step(`^the documented batch size acts only through SelectBackend with a GPU: one page fewer selects (\w+), the documented size selects (\w+)$`, w.documentedSizeInSelectBackend)
	sc.Step(`^a batch result with H2D time (\S+), kernel time (\S+) and D2H time (\S+)$`, w.batchResultWithTimings)
	sc.Step(`^the measured PCIe rule is (true|false)$`, w.measuredRuleIs)
	sc.Step(`^the measured PCIe rule is kernel time > 5 x \(H2D \+ D2H\)$`, w.measuredRuleIsFormula)
	sc.Step(`^its H2D, kernel and D2H times are zero$`, w.transferTimesZero)
	sc.Step(`^its H2D, kernel, D2H and total times are all positive$`, w.transferTimesPositive)

	// Backend selection
	sc.Step(`^the backend is selected for (-?\d+) pages (with|without) a GPU$`, w.selectBackend)
	sc.Step(`^the backend is (scalar|simd|gpu)$`, w.backendIs)
	sc.Step(`^the documentation's example select_backend\((\d+), (true|false)\), documented to output "(\w+)"$`, w.documentedSelectBackend)
	sc.Step(`^the backend is the documented one$`, w.backendIsDocumented)
	sc.Step(`^the backends are named:$`, backendsAreNamed)
	sc.Step(`^the page kinds are named:$`, kindsAreNamed)

	// Devices
	sc.Step(`^the documentation's "Supported GPUs" table:$`, w.documentedGPUTable)
	sc.Step(`^the (\S.*?) with ([\d.]+) MiB of L2 cache and compute capability (\d+)\.(\d+)$`, w.namedGPU)
	sc.Step(`^a GPU with (\d+) bytes of L2 cache$`, w.gpuWithL2)
	sc.Step(`^its optimal batch is (\d+) pages$`, w.optimalBatchIs)
	sc.Step(`^the documentation's table gives the same figure and the same compute capability$`, w.tableAgrees)
	sc.Step(`^the documentation's table gives (\d+) pages$`, w.tableGivesOther)
	sc.Step(`^a GPU would need (\d+) MiB of L2 cache for an optimal batch of (\d+) pages$`, w.l2NeededFor)
	sc.Step(`^(\d+) is (\d+) MiB divided by 1 KiB rather than by the 4 KiB page$`, w.tableFigureIsKiBDivision)
	sc.Step(`^it is (supported|not supported)$`, w.supportIs)
	sc.Step(`^the documentation requires "CUDA-capable GPU with SM (\d+)\.(\d+)\+"$`, w.documentedMinimumSM)
	sc.Step(`^a CUDA device of compute capability (\d+)\.(\d+)$`, w.cudaDevice)
	sc.Step(`^that agrees with the documented minimum$`, w.agreesWithDocumentedMinimum)
	sc.Step(`^a device of compute capability (\d+)\.(\d+) whose backend is not CUDA$`, w.nonCUDADevice)

	// Configuration
	sc.Step(`^the documented GpuBatchConfig:$`, w.documentedConfig)
	sc.Step(`^I take the default configuration$`, w.takeDefaultConfig)
	sc.Step(`^it equals the documented configuration$`, w.configEqualsDocumented)
	sc.Step(`^it is valid$`, w.configIsValid)
	sc.Step(`^a compressor made with it reports the same configuration$`, w.compressorReportsConfig)
	sc.Step(`^the default configuration with (\w+) set to (\S+)$`, w.defaultConfigWith)
	sc.Step(`^(\w+) set to (\S+)$`, w.setField)
	sc.Step(`^validation fails with an error wrapping ErrInvalidConfig that names (\w+) and (\S+)$`, w.validationFails)
	sc.Step(`^its message does not name (\w+)$`, w.messageDoesNotName)
	sc.Step(`^the default configuration with each of these fields set to -1 gives four different messages:$`, distinctMessages)
	sc.Step(`^NewCompressor fails with the same error$`, w.newCompressorFailsSame)
	sc.Step(`^NewGPUBatchCompressor fails with the same error, before looking for a GPU$`, w.newGPUCompressorFailsSame)
	sc.Step(`^NewCompressor accepts it$`, w.newCompressorAccepts)

	// Result and statistics formulas
	sc.Step(`^a batch result with total time (\S+)$`, w.batchResultWithTotal)
	sc.Step(`^(\d+) input bytes give a throughput of (\S+) bytes/s, that is (\S+) GB/s$`, w.throughputIs)
	sc.Step(`^statistics of (\d+) bytes in and (\d+) bytes out over (\S+)$`, w.statisticsOf)
	sc.Step(`^the statistics' compression ratio is ([\d.]+)$`, w.statsRatioIs)
	sc.Step(`^the statistics' throughput is ([\d.]+) GB/s$`, w.statsThroughputIs)
	sc.Step(`^the documentation claims a CPU compression ratio of ([\d.]+) without naming the data$`, w.documentedRatio)
}

// --- PCIe rule ---

func parseRate(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("bad rate %q: %w", s, err)
	}
	return v, nil
}

func (w *world) documentedPCIeExample(pages int, pcie, gpu string) error {
	var err error
	w.doc.pcieArgs.pages = pages
	if w.doc.pcieArgs.pcie, err = parseRate(pcie); err != nil {
		return err
	}
	w.doc.pcieArgs.gpu, err = parseRate(gpu)
	w.doc.pcieBeneficial = true
	return err
}

func (w *world) weigh(pages int, _ string, pcie, gpu string) error {
	p, err := parseRate(pcie)
	if err != nil {
		return err
	}
	g, err := parseRate(gpu)
	if err != nil {
		return err
	}
	w.weighed = pcieArgs{pages, p, g}
	w.verdict = lz4warp.MeetsPCIeRule(pages, p, g)
	return nil
}

func (w *world) pcieVerdictIs(want string) error {
	if got := strconv.FormatBool(w.verdict); got != want {
		return fmt.Errorf("MeetsPCIeRule(%d, %v, %v) = %s, want %s",
			w.weighed.pages, w.weighed.pcie, w.weighed.gpu, got, want)
	}
	return nil
}

func (w *world) pcieHoldsAsDocumented() error {
	if w.weighed != w.doc.pcieArgs {
		return fmt.Errorf("weighed %+v, but the documented example is %+v", w.weighed, w.doc.pcieArgs)
	}
	if w.verdict != w.doc.pcieBeneficial {
		return fmt.Errorf("MeetsPCIeRule%+v = %v, documented as beneficial", w.weighed, w.verdict)
	}
	return nil
}

func (w *world) documentedLargeBatches(pages int) error {
	w.doc.largeBatch = pages
	return nil
}

func (w *world) pageCountVaries(pcie, gpu string) error {
	var err error
	if w.weighed.pcie, err = parseRate(pcie); err != nil {
		return err
	}
	w.weighed.gpu, err = parseRate(gpu)
	return err
}

func (w *world) sameVerdictForCounts(want string, table *godog.Table) error {
	w.pageCounts = nil
	for _, row := range table.Rows[1:] {
		n, err := strconv.Atoi(row.Cells[0].Value)
		if err != nil {
			return err
		}
		w.pageCounts = append(w.pageCounts, n)
		if got := lz4warp.MeetsPCIeRule(n, w.weighed.pcie, w.weighed.gpu); strconv.FormatBool(got) != want {
			return fmt.Errorf("MeetsPCIeRule(%d, %v, %v) = %v, want %s for every page count",
				n, w.weighed.pcie, w.weighed.gpu, got, want)
		}
	}
	if len(w.pageCounts) < 2 {
		return errors.New("need at least two page counts")
	}
	return nil
}

func (w *world) oneVerdictForRange(from, to int) error {
	first := lz4warp.MeetsPCIeRule(from, w.weighed.pcie, w.weighed.gpu)
	differ := 0
	for n := from + 1; n <= to; n++ {
		if lz4warp.MeetsPCIeRule(n, w.weighed.pcie, w.weighed.gpu) != first {
			differ++
		}
	}
	if differ > 0 {
		return fmt.Errorf("at %v GB/s PCIe and %v GB/s GPU, %d of the page counts %d to %d give another verdict than %d pages (%v)",
			w.weighed.pcie, w.weighed.gpu, differ, from+1, to, from, first)
	}
	return nil
}

func (w *world) verdictForPages(want string, pages int) error {
	if got := lz4warp.MeetsPCIeRule(pages, w.weighed.pcie, w.weighed.gpu); strconv.FormatBool(got) != want {
		return fmt.Errorf("MeetsPCIeRule(%d, %v, %v) = %v, want %s", pages, w.weighed.pcie, w.weighed.gpu, got, want)
	}
	return nil
}

func (w *world) verdictAtPCIe(pcie, want string) error {
	p, err := parseRate(pcie)
	if err != nil {
		return err
	}
	for _, n := range w.pageCounts {
		if got := lz4warp.MeetsPCIeRule(n, p, w.weighed.gpu); strconv.FormatBool(got) != want {
			return fmt.Errorf("MeetsPCIeRule(%d, %v, %v) = %v, want %s", n, p, w.weighed.gpu, got, want)
		}
	}
	return nil
}

func (w *world) documentedSizeInSelectBackend(fewer, documented string) error {
	n := w.doc.largeBatch
	if n == 0 {
		return errors.New("no documented batch size")
	}
	if got := lz4warp.SelectBackend(n-1, true).String(); got != fewer {
		return fmt.Errorf("SelectBackend(%d, true) = %s, want %s", n-1, got, fewer)
	}
	if got := lz4warp.SelectBackend(n, true).String(); got != documented {
		return fmt.Errorf("SelectBackend(%d, true) = %s, want %s", n, got, documented)
	}
	return nil
}

func (w *world) batchResultWithTimings(h2d, kernel, d2h string) error {
	var ds [3]time.Duration
	for i, s := range []string{h2d, kernel, d2h} {
		d, err := time.ParseDuration(s)
		if err != nil {
			return err
		}
		ds[i] = d
	}
	w.result = &lz4warp.BatchResult{H2DTime: ds[0], KernelTime: ds[1], D2HTime: ds[2], TotalTime: ds[0] + ds[1] + ds[2]}
	return nil
}

func (w *world) measuredRuleIs(want string) error {
	if w.result == nil {
		return errors.New("no batch result")
	}
	if got := w.result.PCIeRuleSatisfied(); strconv.FormatBool(got) != want {
		return fmt.Errorf("PCIeRuleSatisfied() with H2D %v, kernel %v, D2H %v = %v, want %s",
			w.result.H2DTime, w.result.KernelTime, w.result.D2HTime, got, want)
	}
	return nil
}

func (w *world) measuredRuleIsFormula() error {
	r := w.result
	want := r.KernelTime > 5*(r.H2DTime+r.D2HTime)
	godog.Logf(w.ctx, "H2D %v, kernel %v, D2H %v, total %v: PCIe rule satisfied = %v",
		r.H2DTime, r.KernelTime, r.D2HTime, r.TotalTime, r.PCIeRuleSatisfied())
	if got := r.PCIeRuleSatisfied(); got != want {
		return fmt.Errorf("PCIeRuleSatisfied() = %v, want %v", got, want)
	}
	return nil
}

func (w *world) transferTimesZero() error {
	r := w.result
	if r.H2DTime != 0 || r.KernelTime != 0 || r.D2HTime != 0 {
		return fmt.Errorf("H2D %v, kernel %v, D2H %v; want all zero", r.H2DTime, r.KernelTime, r.D2HTime)
	}
	return nil
}

func (w *world) transferTimesPositive() error {
	r := w.result
	// Stages of different ring slots may overlap, so their sums are not
	// bounded by the total; each must have been measured.
	if r.H2DTime <= 0 || r.KernelTime <= 0 || r.D2HTime <= 0 || r.TotalTime <= 0 {
		return fmt.Errorf("H2D %v, kernel %v, D2H %v, total %v; want all positive", r.H2DTime, r.KernelTime, r.D2HTime, r.TotalTime)
	}
	return nil
}

// --- Backend selection ---

func (w *world) selectBackend(pages int, with string) error {
	w.selection = selection{pages, with == "with"}
	w.backend = lz4warp.SelectBackend(pages, with == "with")
	return nil
}

func (w *world) backendIs(want string) error {
	if got := w.backend.String(); got != want {
		return fmt.Errorf("SelectBackend(%d, %v) = %s, want %s", w.selection.pages, w.selection.gpu, got, want)
	}
	return nil
}

func (w *world) documentedSelectBackend(pages int, gpu, output string) error {
	w.doc.selection = selection{pages, gpu == "true"}
	w.doc.backend = strings.ToLower(output)
	return nil
}

func (w *world) backendIsDocumented() error {
	if w.selection != w.doc.selection {
		return fmt.Errorf("selected for %+v, but the documented example is %+v", w.selection, w.doc.selection)
	}
	if got := w.backend.String(); got != w.doc.backend {
		return fmt.Errorf("SelectBackend(%d, %v) = %s, documented %s", w.selection.pages, w.selection.gpu, got, w.doc.backend)
	}
	return nil
}

func backendsAreNamed(table *godog.Table) error {
	byName := map[string]lz4warp.Backend{
		"BackendScalar": lz4warp.BackendScalar, "BackendSIMD": lz4warp.BackendSIMD, "BackendGPU": lz4warp.BackendGPU,
	}
	for _, row := range table.Rows[1:] {
		b, ok := byName[row.Cells[0].Value]
		if !ok {
			return fmt.Errorf("unknown backend %q", row.Cells[0].Value)
		}
		if got := b.String(); got != row.Cells[1].Value {
			return fmt.Errorf("%s.String() = %q, want %q", row.Cells[0].Value, got, row.Cells[1].Value)
		}
	}
	return nil
}

func kindsAreNamed(table *godog.Table) error {
	byName := map[string]lz4warp.PageKind{"KindSame": lz4warp.KindSame, "KindLZ4": lz4warp.KindLZ4, "KindRaw": lz4warp.KindRaw}
	for _, row := range table.Rows[1:] {
		k, ok := byName[row.Cells[0].Value]
		if !ok {
			return fmt.Errorf("unknown kind %q", row.Cells[0].Value)
		}
		if got := strconv.Itoa(int(k)); got != row.Cells[1].Value {
			return fmt.Errorf("%s = %s, want code %s", row.Cells[0].Value, got, row.Cells[1].Value)
		}
		if got := k.String(); got != row.Cells[2].Value {
			return fmt.Errorf("%s.String() = %q, want %q", row.Cells[0].Value, got, row.Cells[2].Value)
		}
	}
	return nil
}

// --- Devices ---

var (
	thousandsRE = regexp.MustCompile(`^([\d,]+) pages$`)
	smRE        = regexp.MustCompile(`^(\d+)\.(\d+)$`)
)

func (w *world) documentedGPUTable(table *godog.Table) error {
	w.doc.gpus = map[string]docGPU{}
	for _, row := range table.Rows[1:] {
		name, sm, batch := row.Cells[0].Value, row.Cells[2].Value, row.Cells[3].Value
		g := smRE.FindStringSubmatch(sm)
		b := thousandsRE.FindStringSubmatch(batch)
		if g == nil || b == nil {
			return fmt.Errorf("bad table row %q %q %q", name, sm, batch)
		}
		major, _ := strconv.Atoi(g[1])
		minor, _ := strconv.Atoi(g[2])
		pages, _ := strconv.Atoi(strings.ReplaceAll(b[1], ",", ""))
		w.doc.gpus[name] = docGPU{cc: [2]int{major, minor}, batch: pages}
	}
	return nil
}

func (w *world) namedGPU(name, mib string, major, minor int) error {
	m, err := strconv.ParseFloat(mib, 64)
	if err != nil {
		return err
	}
	l2 := m * (1 << 20)
	if l2 != math.Trunc(l2) {
		return fmt.Errorf("%s MiB is not a whole number of bytes", mib)
	}
	w.device = lz4warp.DeviceInfo{
		Name: name, L2CacheSize: uint64(l2), ComputeCapability: [2]int{major, minor}, Backend: lz4warp.GPUBackendCUDA,
	}
	return nil
}

func (w *world) gpuWithL2(l2 uint64) error {
	w.device = lz4warp.DeviceInfo{Name: "GPU", L2CacheSize: l2, ComputeCapability: [2]int{9, 0}}
	return nil
}

func (w *world) optimalBatchIs(want int) error {
	if got := w.device.OptimalBatchSize(); got != want {
		return fmt.Errorf("%s with L2 %d bytes: OptimalBatchSize() = %d, want %d", w.device.Name, w.device.L2CacheSize, got, want)
	}
	return nil
}

func (w *world) documentedRow() (docGPU, error) {
	row, ok := w.doc.gpus[w.device.Name]
	if !ok {
		return row, fmt.Errorf("the documentation's table has no row for %q", w.device.Name)
	}
	return row, nil
}

func (w *world) tableAgrees() error {
	row, err := w.documentedRow()
	if err != nil {
		return err
	}
	if got := w.device.OptimalBatchSize(); got != row.batch {
		return fmt.Errorf("%s: rule gives %d, the documentation's table %d", w.device.Name, got, row.batch)
	}
	if w.device.ComputeCapability != row.cc {
		return fmt.Errorf("%s: compute capability %v, the documentation's table %v", w.device.Name, w.device.ComputeCapability, row.cc)
	}
	return nil
}

func (w *world) tableGivesOther(pages int) error {
	row, err := w.documentedRow()
	if err != nil {
		return err
	}
	if row.batch != pages {
		return fmt.Errorf("the documentation's table gives %d for %s, not %d", row.batch, w.device.Name, pages)
	}
	if got := w.device.OptimalBatchSize(); got == row.batch {
		return fmt.Errorf("the rule now gives the table's %d for %s: the documented contradiction of the RTX 3090 row is gone, update the spec", got, w.device.Name)
	}
	return nil
}

func (w *world) l2NeededFor(mib uint64, pages int) error {
	row, err := w.documentedRow()
	if err != nil {
		return err
	}
	if row.batch != pages {
		return fmt.Errorf("the table's figure is %d, not %d", row.batch, pages)
	}
	d := lz4warp.DeviceInfo{L2CacheSize: mib << 20, ComputeCapability: w.device.ComputeCapability}
	if got := d.OptimalBatchSize(); got != pages {
		return fmt.Errorf("OptimalBatchSize() with %d MiB of L2 = %d, want %d", mib, got, pages)
	}
	return nil
}

func (w *world) tableFigureIsKiBDivision(pages int, mib uint64) error {
	row, err := w.documentedRow()
	if err != nil {
		return err
	}
	if w.device.L2CacheSize != mib<<20 {
		return fmt.Errorf("%s has %d bytes of L2, not %d MiB", w.device.Name, w.device.L2CacheSize, mib)
	}
	if got := int(w.device.L2CacheSize / 1024); got != row.batch || got != pages {
		return fmt.Errorf("L2 / 1 KiB = %d, table %d, stated %d", got, row.batch, pages)
	}
	if got := int(w.device.L2CacheSize / lz4warp.PageSize); got == row.batch {
		return fmt.Errorf("L2 / 4 KiB = %d equals the table's figure", got)
	}
	return nil
}

func (w *world) supportIs(want string) error {
	if got := w.device.IsSupported(); got != (want == "supported") {
		return fmt.Errorf("%s (compute capability %d.%d): IsSupported() = %v, want %s",
			w.device.Name, w.device.ComputeCapability[0], w.device.ComputeCapability[1], got, want)
	}
	return nil
}

func (w *world) documentedMinimumSM(major, minor int) error {
	w.doc.minSM = [2]int{major, minor}
	return nil
}

func (w *world) cudaDevice(major, minor int) error {
	w.device = lz4warp.DeviceInfo{Name: "device", ComputeCapability: [2]int{major, minor}, Backend: lz4warp.GPUBackendCUDA}
	return nil
}

func (w *world) agreesWithDocumentedMinimum() error {
	cc, minSM := w.device.ComputeCapability, w.doc.minSM
	atLeast := cc[0] > minSM[0] || (cc[0] == minSM[0] && cc[1] >= minSM[1])
	if w.device.IsSupported() != atLeast {
		return fmt.Errorf("IsSupported() = %v for %v, but the documented minimum SM %d.%d says %v",
			w.device.IsSupported(), cc, minSM[0], minSM[1], atLeast)
	}
	return nil
}

func (w *world) nonCUDADevice(major, minor int) error {
	w.device = lz4warp.DeviceInfo{Name: "non-CUDA device", ComputeCapability: [2]int{major, minor}, Backend: lz4warp.GPUBackendCUDA + 1}
	return nil
}

// --- Configuration ---

func (w *world) documentedConfig(table *godog.Table) error {
	var c lz4warp.Config
	seen := map[string]bool{}
	for _, row := range table.Rows {
		key, val := row.Cells[0].Value, row.Cells[1].Value
		seen[key] = true
		var err error
		switch key {
		case "device_index":
			c.DeviceIndex, err = strconv.Atoi(val)
		case "algorithm":
			if val != "Lz4" {
				err = fmt.Errorf("unknown documented algorithm %q", val)
			}
			c.Algorithm = lz4warp.AlgorithmLZ4
		case "batch_size":
			c.BatchSize, err = strconv.Atoi(val)
		case "async_dma":
			c.AsyncDMA, err = strconv.ParseBool(val)
		case "ring_buffer_slots":
			c.RingBufferSlots, err = strconv.Atoi(val)
		default:
			err = fmt.Errorf("unknown documented field %q", key)
		}
		if err != nil {
			return err
		}
	}
	if len(seen) != 5 {
		return fmt.Errorf("the documented configuration has %d fields, want 5", len(seen))
	}
	w.doc.config = c
	return nil
}

func (w *world) takeDefaultConfig() error {
	w.cfg = lz4warp.DefaultConfig()
	return nil
}

func (w *world) configEqualsDocumented() error {
	if !reflect.DeepEqual(w.cfg, w.doc.config) {
		return fmt.Errorf("DefaultConfig() = %+v, documented %+v", w.cfg, w.doc.config)
	}
	return nil
}

func (w *world) configIsValid() error {
	if err := w.cfg.Validate(); err != nil {
		return fmt.Errorf("Validate(%+v) = %v, want nil", w.cfg, err)
	}
	return nil
}

func (w *world) compressorReportsConfig() error {
	c, err := lz4warp.NewCompressor(w.cfg)
	if err != nil {
		return err
	}
	w.closeLater(c)
	if got := c.Config(); !reflect.DeepEqual(got, w.cfg) {
		return fmt.Errorf("Config() = %+v, want %+v", got, w.cfg)
	}
	return nil
}

func (w *world) defaultConfigWith(field, value string) error {
	w.cfg = lz4warp.DefaultConfig()
	return w.setField(field, value)
}

func (w *world) setField(field, value string) error {
	var err error
	switch field {
	case "DeviceIndex":
		w.cfg.DeviceIndex, err = strconv.Atoi(value)
	case "Algorithm":
		var n int
		n, err = strconv.Atoi(value)
		w.cfg.Algorithm = lz4warp.Algorithm(n)
	case "BatchSize":
		w.cfg.BatchSize, err = strconv.Atoi(value)
	case "RingBufferSlots":
		w.cfg.RingBufferSlots, err = strconv.Atoi(value)
	case "AsyncDMA":
		w.cfg.AsyncDMA, err = strconv.ParseBool(value)
	case "CPUWorkers":
		w.cfg.CPUWorkers, err = strconv.Atoi(value)
	default:
		err = fmt.Errorf("unknown Config field %q", field)
	}
	return err
}

func (w *world) validationFails(field, value string) error {
	err := w.cfg.Validate()
	if err == nil {
		return fmt.Errorf("Validate(%+v) = nil, want an error", w.cfg)
	}
	if !errors.Is(err, lz4warp.ErrInvalidConfig) {
		return fmt.Errorf("Validate error %q does not wrap ErrInvalidConfig", err)
	}
	msg := strings.TrimPrefix(err.Error(), lz4warp.ErrInvalidConfig.Error())
	if !regexp.MustCompile(`\b`+field+`\b`).MatchString(msg) || !regexp.MustCompile(`(^|[^\d-])`+regexp.QuoteMeta(value)+`($|\D)`).MatchString(msg) {
		return fmt.Errorf("Validate error %q does not name %s and %s", err, field, value)
	}
	w.err = err
	return nil
}

func (w *world) messageDoesNotName(field string) error {
	if strings.Contains(w.err.Error(), field) {
		return fmt.Errorf("Validate error %q names %s", w.err, field)
	}
	return nil
}

func distinctMessages(table *godog.Table) error {
	seen := map[string]string{}
	for _, row := range table.Rows[1:] {
		w := &world{cfg: lz4warp.DefaultConfig()}
		field := row.Cells[0].Value
		if err := w.setField(field, "-1"); err != nil {
			return err
		}
		err := w.cfg.Validate()
		if err == nil {
			return fmt.Errorf("%s = -1 is valid", field)
		}
		if other, dup := seen[err.Error()]; dup {
			return fmt.Errorf("%s and %s give the same message %q", other, field, err)
		}
		seen[err.Error()] = field
	}
	if len(seen) != 4 {
		return fmt.Errorf("%d messages, want 4", len(seen))
	}
	return nil
}

func (w *world) newCompressorFailsSame() error {
	c, err := lz4warp.NewCompressor(w.cfg)
	if c != nil {
		w.closeLater(c)
	}
	if err == nil || err.Error() != w.err.Error() || !errors.Is(err, lz4warp.ErrInvalidConfig) {
		return fmt.Errorf("NewCompressor(%+v) error = %v, want %v", w.cfg, err, w.err)
	}
	return nil
}

func (w *world) newGPUCompressorFailsSame() error {
	c, err := lz4warp.NewGPUBatchCompressor(w.cfg)
	if c != nil {
		w.closeLater(c)
	}
	if err == nil || err.Error() != w.err.Error() || !errors.Is(err, lz4warp.ErrInvalidConfig) {
		return fmt.Errorf("NewGPUBatchCompressor(%+v) error = %v, want %v", w.cfg, err, w.err)
	}
	if errors.Is(err, lz4warp.ErrGPUNotAvailable) {
		return fmt.Errorf("NewGPUBatchCompressor looked for a GPU before validating: %v", err)
	}
	return nil
}

func (w *world) newCompressorAccepts() error {
	c, err := lz4warp.NewCompressor(w.cfg)
	if err != nil {
		return fmt.Errorf("NewCompressor(%+v) = %v", w.cfg, err)
	}
	w.closeLater(c)
	return nil
}

// --- Result and statistics formulas ---

func (w *world) batchResultWithTotal(total string) error {
	d, err := time.ParseDuration(total)
	if err != nil {
		return err
	}
	w.result = &lz4warp.BatchResult{TotalTime: d}
	return nil
}

// near compares got with a figure written in a feature: to the decimals
// written, or to 1 part in 10⁹ for a whole number.
func near(got float64, written string) error {
	want, err := strconv.ParseFloat(written, 64)
	if err != nil {
		return err
	}
	tol := 1e-9 * math.Max(1, math.Abs(want))
	if i := strings.IndexByte(written, '.'); i >= 0 {
		tol = math.Max(tol, 0.5*math.Pow(10, -float64(len(written)-i-1)))
	}
	if math.Abs(got-want) > tol {
		return fmt.Errorf("got %v, want %s", got, written)
	}
	return nil
}

func (w *world) throughputIs(bytes int, rate, gbps string) error {
	got := w.result.ThroughputBytesPerSec(bytes)
	if err := near(got, rate); err != nil {
		return fmt.Errorf("ThroughputBytesPerSec(%d) over %v: %w", bytes, w.result.TotalTime, err)
	}
	if err := near(got/1e9, gbps); err != nil {
		return fmt.Errorf("throughput in GB/s: %w", err)
	}
	return nil
}

func (w *world) statisticsOf(in, out uint64, total string) error {
	d, err := time.ParseDuration(total)
	if err != nil {
		return err
	}
	w.stats = lz4warp.Stats{TotalBytesIn: in, TotalBytesOut: out, TotalTime: d}
	w.haveStats = true
	return nil
}

func (w *world) currentStats() lz4warp.Stats {
	if w.comp != nil && !w.haveStats {
		return w.comp.Stats()
	}
	return w.stats
}

func (w *world) statsRatioIs(want string) error {
	s := w.currentStats()
	if err := near(s.CompressionRatio(), want); err != nil {
		return fmt.Errorf("Stats{in %d, out %d}.CompressionRatio(): %w", s.TotalBytesIn, s.TotalBytesOut, err)
	}
	return nil
}

func (w *world) statsThroughputIs(want string) error {
	s := w.currentStats()
	if err := near(s.ThroughputGBps(), want); err != nil {
		return fmt.Errorf("Stats{in %d, time %v}.ThroughputGBps(): %w", s.TotalBytesIn, s.TotalTime, err)
	}
	return nil
}

func (w *world) documentedRatio(ratio float64) error {
	w.doc.ratio = ratio
	return nil
}
