package features

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cucumber/godog"
	"github.com/lz4warp/lz4warp"
)

// Steps of decode.feature: the decode backend's selection and the decode
// paths (API-25 to API-27).

func (w *world) registerDecodeSteps(sc *godog.ScenarioContext) {
	sc.Step(`^the decode backend is selected for (-?\d+) compressed pages (into a page-locked buffer on a GPU|into Go memory)$`, w.selectDecodeBackend)
	sc.Step(`^the documentation says GPU decompression is beneficial for "(\d+)\+ pages to decompress"$`, w.documentedDecodeBatch)
	sc.Step(`^the GPU decodes into a page-locked buffer from (\d+) compressed pages, the crossover measured on the H200 host$`, w.gpuDecodesFrom)
	sc.Step(`^the batch is decompressed on every backend$`, w.decompressOnEveryBackend)
	sc.Step(`^every backend gives the same pages and the error naming pages ([\d, ]+)$`, w.everyBackendAlike)
	sc.Step(`^the batch is decompressed into a page buffer without waiting$`, w.decompressIntoBuffer)
	sc.Step(`^the buffer holds every other page decoded to the original, and the error names page (\d+)$`, w.bufferHolds)
	sc.Step(`^the GPU decoded the batch in the page buffer$`, w.gpuDecodedBuffer)
	sc.Step(`^the batch is decompressed into a page buffer$`, w.decompressIntoBufferShared)
	sc.Step(`^the GPU and the CPU shared the batch in the page buffer$`, w.sharedBuffer)
}

func (w *world) selectDecodeBackend(pages int, destination string) error {
	gpuBuffer := destination == "into a page-locked buffer on a GPU"
	w.selection = selection{pages, gpuBuffer}
	w.backend = lz4warp.SelectDecodeBackend(pages, gpuBuffer)
	return nil
}

func (w *world) documentedDecodeBatch(pages int) error {
	w.doc.largeBatch = pages
	return nil
}

// gpuDecodesFrom checks that the GPU decodes into a page-locked buffer
// from pages compressed pages on, not below, and that this is above the
// documented batch: the documentation's threshold is too low.
func (w *world) gpuDecodesFrom(pages int) error {
	if lz4warp.GPUMinDecodeBatch != pages || lz4warp.SelectDecodeBackend(pages, true) != lz4warp.BackendGPU ||
		lz4warp.SelectDecodeBackend(pages-1, true) == lz4warp.BackendGPU {
		return fmt.Errorf("GPUMinDecodeBatch is %d, want %d", lz4warp.GPUMinDecodeBatch, pages)
	}
	if pages <= w.doc.largeBatch {
		return fmt.Errorf("the GPU decodes from %d compressed pages, not above the documented %d", pages, w.doc.largeBatch)
	}
	return nil
}

// decoded is one backend's decode of the batch: its pages and error.
type decoded struct {
	backend lz4warp.Backend
	pages   []lz4warp.Page
	err     error
}

func (w *world) decodeSource() []lz4warp.CompressedPage {
	if w.compressed != nil {
		return w.compressed
	}
	return w.result.Pages
}

func (w *world) decompressOnEveryBackend() error {
	backends := []lz4warp.Backend{lz4warp.BackendScalar, lz4warp.BackendSIMD}
	if w.comp.GPUError() == nil && lz4warp.GPUAvailable() {
		backends = append(backends, lz4warp.BackendGPU)
	}
	src := w.decodeSource()
	w.decodes = nil
	for _, b := range backends {
		d := decoded{backend: b, pages: make([]lz4warp.Page, len(src))}
		d.err = w.comp.DecompressBatchOn(b, src, d.pages)
		w.decodes = append(w.decodes, d)
	}
	w.dst = make([]lz4warp.Page, len(src))
	w.decodeErr = w.comp.DecompressBatch(src, w.dst)
	return nil
}

// failedPages lists the pages a *DecodeError names.
func failedPages(err error) ([]int, error) {
	var de *lz4warp.DecodeError
	if !errors.As(err, &de) {
		return nil, fmt.Errorf("error %v, want a *DecodeError", err)
	}
	var out []int
	for _, p := range de.Pages {
		out = append(out, p.Index)
	}
	return out, nil
}

func parseList(list string) []int {
	var out []int
	for _, s := range strings.Split(list, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func (w *world) everyBackendAlike(list string) error {
	want := parseList(list)
	got, err := failedPages(w.decodeErr)
	if err != nil {
		return fmt.Errorf("DecompressBatch: %w", err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("DecompressBatch names pages %v, want %v", got, want)
	}
	failed := map[int]bool{}
	for _, i := range want {
		failed[i] = true
	}
	for i := range w.dst {
		if !failed[i] && w.dst[i] != w.pages[i] {
			return fmt.Errorf("DecompressBatch: page %d differs from the original", i)
		}
	}
	for _, d := range w.decodes {
		if d.err == nil || d.err.Error() != w.decodeErr.Error() {
			return fmt.Errorf("%v: %v, DecompressBatch %v", d.backend, d.err, w.decodeErr)
		}
		for i := range d.pages {
			if !failed[i] && d.pages[i] != w.pages[i] {
				return fmt.Errorf("%v: page %d differs from the original", d.backend, i)
			}
		}
	}
	return nil
}

// decompressIntoBuffer decodes the batch with DecompressBufferAsync and
// Wait, decompressIntoBufferShared with DecompressBuffer; each keeps the
// pages and how many of them the GPUs decoded.
func (w *world) decompressIntoBuffer() error {
	return w.intoBuffer(func(buf *lz4warp.PageBuffer, src []lz4warp.CompressedPage) (error, error) {
		p, err := w.comp.DecompressBufferAsync(buf, src)
		if err != nil {
			return nil, err
		}
		return p.Wait(), nil
	})
}

func (w *world) decompressIntoBufferShared() error {
	return w.intoBuffer(func(buf *lz4warp.PageBuffer, src []lz4warp.CompressedPage) (error, error) {
		return w.comp.DecompressBuffer(buf, src), nil
	})
}

// intoBuffer decodes the batch into a new PageBuffer with decode, which
// returns the batch's error and an error that fails the step.
func (w *world) intoBuffer(decode func(*lz4warp.PageBuffer, []lz4warp.CompressedPage) (error, error)) error {
	src := w.decodeSource()
	buf, err := w.comp.NewPageBuffer(len(src))
	if err != nil {
		return err
	}
	before := devicesDecoded(w.comp)
	if w.decodeErr, err = decode(buf, src); err != nil {
		buf.Close()
		return err
	}
	w.bufferGPUPages = devicesDecoded(w.comp) - before
	w.dst = append([]lz4warp.Page(nil), buf.Pages()[:len(src)]...)
	return buf.Close()
}

// sharedBuffer checks that the GPUs decoded part of the batch, not all of
// it, and not none: the CPU decoded the rest (API-29).
func (w *world) sharedBuffer() error {
	if n := uint64(len(w.dst)); w.bufferGPUPages == 0 || w.bufferGPUPages >= n {
		return fmt.Errorf("the GPUs decoded %d of the batch's %d pages, want a share", w.bufferGPUPages, n)
	}
	return nil
}

func (w *world) bufferHolds(page int) error {
	got, err := failedPages(w.decodeErr)
	if err != nil {
		return err
	}
	if len(got) != 1 || got[0] != page {
		return fmt.Errorf("the error names pages %v, want %d", got, page)
	}
	for i := range w.dst {
		if i != page && w.dst[i] != w.pages[i] {
			return fmt.Errorf("page %d differs from the original", i)
		}
	}
	return nil
}

// devicesDecoded is the pages c's GPUs have decoded.
func devicesDecoded(c *lz4warp.Compressor) uint64 {
	n := uint64(0)
	for _, d := range c.Stats().Devices {
		n += d.PagesDecoded
	}
	return n
}

func (w *world) gpuDecodedBuffer() error {
	if w.bufferGPUPages != uint64(len(w.dst)) {
		return fmt.Errorf("the GPUs decoded %d of the batch's %d pages in the page buffer, want all", w.bufferGPUPages, len(w.dst))
	}
	return nil
}
