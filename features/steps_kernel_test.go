package features

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cucumber/godog"
	"github.com/lz4warp/lz4warp"
	"github.com/lz4warp/lz4warp/gpuimpl"
	"github.com/lz4warp/lz4warp/reference"
	"github.com/pierrec/lz4/v4"
)

// Steps about the canonical parse and the kernel's text (package reference
// and gpuimpl.KernelPTX, both public).

// kernelTargets are the architectures the kernel is generated for, as spec/gpu.md lists them.
var kernelTargets = []int{70, 75, 80, 86, 89, 90}

var sharedDeclRE = regexp.MustCompile(`(?m)^\s*\.shared\s+(?:\.align\s+\d+\s+)?\.b8\s+\w+\[(\d+)\];`)

func (w *world) registerKernelSteps(sc *godog.ScenarioContext) {
	sc.Step(`^the 4 bytes ([0-9a-f]{2}(?: [0-9a-f]{2}){3})$`, w.fourBytes)
	sc.Step(`^their canonical hash is (\d+)$`, w.canonicalHashIs)
	sc.Step(`^the hash table has (\d+) entries of (\d+) bits, (\d+) bytes$`, hashTableSize)
	sc.Step(`^one warp's shared memory is (\d+) bytes: the table, then the (\d+)-byte page$`, warpSharedMemory)
	sc.Step(`^the documented kernel layout: (\d+) warps of (\d+) threads per block, one page per warp, (\d+) KiB of shared memory per warp, (\d+) KiB per block$`, w.documentedKernelLayout)
	sc.Step(`^the kernel is launched with (\d+) threads per block and compresses (\d+) pages per block$`, w.kernelLaunchShape)
	sc.Step(`^every target's kernel declares exactly (\d+) bytes of static shared memory$`, w.kernelSharedMemory)
	sc.Step(`^a batch of (\d+) pages takes (\d+) blocks$`, blocksFor)
	sc.Step(`^the documentation says the kernel uses "(cvta\.\w+\.u64) for generic addressing"$`, w.documentedGenericAddressing)
	sc.Step(`^no target's kernel converts a shared address to a generic one$`, w.noGenericShared)
	sc.Step(`^every target's kernel addresses shared memory with \.shared instructions$`, sharedInstructions)
	sc.Step(`^the stored bytes are no more than pierrec/lz4's CompressBlock stores for the same pages, an incompressible page counting 4096$`, w.noWorseThanPierrec)
}

func (w *world) fourBytes(hexBytes string) error {
	b, err := hex.DecodeString(strings.ReplaceAll(hexBytes, " ", ""))
	if err != nil {
		return err
	}
	w.hashInput = binary.LittleEndian.Uint32(b)
	return nil
}

func (w *world) canonicalHashIs(want uint32) error {
	if got := reference.Hash(w.hashInput); got != want {
		return fmt.Errorf("Hash(%#08x) = %d, want %d", w.hashInput, got, want)
	}
	return nil
}

func hashTableSize(entries, bits, size int) error {
	if reference.HashTableLen != entries {
		return fmt.Errorf("reference.HashTableLen = %d, want %d", reference.HashTableLen, entries)
	}
	if entries*bits/8 != size {
		return fmt.Errorf("%d entries of %d bits are %d bytes, not %d", entries, bits, entries*bits/8, size)
	}
	// Every hash indexes the table: the top bits of the largest product.
	if h := reference.Hash(0xffffffff); int(h) >= entries {
		return fmt.Errorf("Hash(0xffffffff) = %d is outside a table of %d entries", h, entries)
	}
	if gpuimpl.SharedPerWarp-lz4warp.PageSize != size {
		return fmt.Errorf("the kernel's table takes %d bytes of a warp's slice, want %d", gpuimpl.SharedPerWarp-lz4warp.PageSize, size)
	}
	return nil
}

func warpSharedMemory(perWarp, page int) error {
	if gpuimpl.SharedPerWarp != perWarp {
		return fmt.Errorf("gpuimpl.SharedPerWarp = %d, want %d", gpuimpl.SharedPerWarp, perWarp)
	}
	if page != lz4warp.PageSize || perWarp-page != reference.HashTableLen*4 {
		return fmt.Errorf("%d bytes are not a table of %d 32-bit entries and a %d-byte page", perWarp, reference.HashTableLen, page)
	}
	return nil
}

func (w *world) documentedKernelLayout(warps, threads, warpKiB, blockKiB int) error {
	w.doc.kernel = docKernel{warps: warps, threadsPerWarp: threads, pagesPerWarp: 1, warpKiB: warpKiB, blockKiB: blockKiB}
	if warps*warpKiB != blockKiB {
		return fmt.Errorf("the documented layout is inconsistent: %d warps of %d KiB are not %d KiB", warps, warpKiB, blockKiB)
	}
	return nil
}

func (w *world) kernelLaunchShape(threads, pages int) error {
	d := w.doc.kernel
	if gpuimpl.ThreadsPerBlock != threads || threads != d.warps*d.threadsPerWarp {
		return fmt.Errorf("gpuimpl.ThreadsPerBlock = %d; stated %d; documented %d warps of %d threads",
			gpuimpl.ThreadsPerBlock, threads, d.warps, d.threadsPerWarp)
	}
	if gpuimpl.PagesPerBlock != pages || pages != d.warps*d.pagesPerWarp {
		return fmt.Errorf("gpuimpl.PagesPerBlock = %d; stated %d; documented %d", gpuimpl.PagesPerBlock, pages, d.warps*d.pagesPerWarp)
	}
	if gpuimpl.SharedPerWarp != d.warpKiB*1024 || gpuimpl.SharedPerBlock != d.blockKiB*1024 {
		return fmt.Errorf("shared memory %d per warp, %d per block; documented %d KiB, %d KiB",
			gpuimpl.SharedPerWarp, gpuimpl.SharedPerBlock, d.warpKiB, d.blockKiB)
	}
	return nil
}

func (w *world) kernelSharedMemory(want int) error {
	if want != w.doc.kernel.blockKiB*1024 {
		return fmt.Errorf("%d bytes is not the documented %d KiB", want, w.doc.kernel.blockKiB)
	}
	for _, sm := range kernelTargets {
		text := gpuimpl.KernelPTX(sm)
		// Each entry point (the page kernel and its stream variant) on its own.
		entries := strings.Split(text, ".visible .entry ")[1:]
		if len(entries) == 0 {
			return fmt.Errorf("sm_%d: no entry point", sm)
		}
		for _, entry := range entries {
			total := 0
			decls := sharedDeclRE.FindAllStringSubmatch(entry, -1)
			for _, d := range decls {
				n, _ := strconv.Atoi(d[1])
				total += n
			}
			if len(decls) == 0 || total != want {
				name, _, _ := strings.Cut(entry, "(")
				return fmt.Errorf("sm_%d %s: %d .shared declarations of %d bytes in all, want %d", sm, name, len(decls), total, want)
			}
		}
		if strings.Contains(text, ".extern .shared") {
			return fmt.Errorf("sm_%d declares dynamic shared memory", sm)
		}
	}
	return nil
}

func blocksFor(pages, want int) error {
	if got := gpuimpl.Blocks(pages); got != want {
		return fmt.Errorf("gpuimpl.Blocks(%d) = %d, want %d", pages, got, want)
	}
	return nil
}

func (w *world) documentedGenericAddressing(insn string) error {
	w.doc.genericInsn = insn
	return nil
}

func (w *world) noGenericShared() error {
	if w.doc.genericInsn == "" {
		return fmt.Errorf("no documented instruction")
	}
	for _, sm := range kernelTargets {
		for _, line := range strings.Split(gpuimpl.KernelPTX(sm), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if strings.Contains(code, w.doc.genericInsn) || strings.Contains(code, "cvta.shared") || strings.Contains(code, "cvta.to.shared") {
				return fmt.Errorf("sm_%d converts between shared and generic addresses: %s", sm, strings.TrimSpace(line))
			}
		}
	}
	return nil
}

func sharedInstructions() error {
	for _, sm := range kernelTargets {
		text := gpuimpl.KernelPTX(sm)
		for _, op := range []string{"ld.shared.", "st.shared."} {
			if !strings.Contains(text, op) {
				return fmt.Errorf("sm_%d has no %s instruction", sm, op)
			}
		}
	}
	return nil
}

func (w *world) noWorseThanPierrec() error {
	ours, theirs := 0, 0
	var c lz4.Compressor
	dst := make([]byte, lz4.CompressBlockBound(lz4warp.PageSize))
	for i, p := range w.result.Pages {
		ours += len(p.Data)
		n, err := c.CompressBlock(w.pages[i][:], dst)
		if err != nil {
			return fmt.Errorf("pierrec/lz4 CompressBlock on page %d: %w", i, err)
		}
		if n == 0 || n >= lz4warp.PageSize {
			n = lz4warp.PageSize
		}
		theirs += n
	}
	godog.Logf(w.ctx, "%d pages: lz4warp stores %d bytes (ratio %.3f), pierrec/lz4 %d bytes (ratio %.3f)",
		len(w.pages), ours, float64(len(w.pages)*lz4warp.PageSize)/float64(ours),
		theirs, float64(len(w.pages)*lz4warp.PageSize)/float64(theirs))
	if ours > theirs {
		return fmt.Errorf("lz4warp stores %d bytes, pierrec/lz4 %d", ours, theirs)
	}
	return nil
}
