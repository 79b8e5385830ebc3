package lz4warp

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Checks PAGE-1.
func TestPageSize(t *testing.T) {
	var p Page
	assert.Equal(t, 4096, PageSize)
	assert.Len(t, p, 4096)
}

// Checks PAGE-2: the numeric codes are shared with the reference and the
// kernel, and 0 is no kind.
func TestPageKindCodes(t *testing.T) {
	assert.EqualValues(t, 1, KindSame)
	assert.EqualValues(t, 2, KindLZ4)
	assert.EqualValues(t, 3, KindRaw)
	assert.EqualValues(t, reference.KindSame, KindSame)
	assert.EqualValues(t, reference.KindLZ4, KindLZ4)
	assert.EqualValues(t, reference.KindRaw, KindRaw)
	var unset CompressedPage
	assert.NotContains(t, []PageKind{KindSame, KindLZ4, KindRaw}, unset.Kind)
}

// Checks API-13.
func TestNames(t *testing.T) {
	assert.Equal(t, "scalar", BackendScalar.String())
	assert.Equal(t, "simd", BackendSIMD.String())
	assert.Equal(t, "gpu", BackendGPU.String())
	assert.Equal(t, "Backend(7)", Backend(7).String())
	assert.Equal(t, "same", KindSame.String())
	assert.Equal(t, "lz4", KindLZ4.String())
	assert.Equal(t, "raw", KindRaw.String())
	assert.Equal(t, "Kind(0)", PageKind(0).String())
	assert.Equal(t, "lz4", AlgorithmLZ4.String())
	assert.Equal(t, "Algorithm(3)", Algorithm(3).String())
	assert.Equal(t, "Backend(-1)", fmt.Sprintf("%v", Backend(-1)))
	assert.NotPanics(t, func() { _ = Backend(-1).String() + PageKind(255).String() + GPUBackend(9).String() })
}

// Checks API-12: the error types users inspect.
func TestDecodeErrorShape(t *testing.T) {
	cause := fmt.Errorf("%w: boom", reference.ErrCorrupt)
	e := &DecodeError{Pages: []*PageError{{Index: 2, Err: cause}, {Index: 9, Err: reference.ErrBadKind}}}
	var err error = e
	assert.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorIs(t, err, reference.ErrCorrupt, "the page's own cause is reachable")
	assert.ErrorIs(t, err, reference.ErrBadKind)
	var pe *PageError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, 2, pe.Index)
	assert.Contains(t, err.Error(), "page 2")
	assert.Contains(t, err.Error(), "page 9")
	assert.Contains(t, err.Error(), "2 corrupt page")
	assert.ErrorIs(t, pe, ErrCorrupt)
	assert.Contains(t, pe.Error(), "page 2")

	// Long lists are cut after three pages but say how many remain.
	many := &DecodeError{}
	for i := range 10 {
		many.Pages = append(many.Pages, &PageError{Index: i * 3, Err: reference.ErrCorrupt})
	}
	msg := many.Error()
	assert.Contains(t, msg, "10 corrupt page")
	assert.Contains(t, msg, "page 6")
	assert.NotContains(t, msg, "page 9:")
	assert.Contains(t, msg, "and 7 more")
	assert.Equal(t, 3, strings.Count(msg, "; page "))
}
