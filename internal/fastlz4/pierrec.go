package fastlz4

import "github.com/pierrec/lz4/v4"

// PierrecPageSize is the stored size of page when pierrec/lz4's
// CompressBlock replaces the canonical parse inside lz4warp's page format:
// 8 for a same-filled page (PAGE-3), else pierrec's block length, or 4,096
// when pierrec finds the page incompressible or its block reaches
// RawThreshold (PAGE-5). dst must hold lz4.CompressBlockBound(PageSize)
// bytes. It is the yardstick of RATIO-1.
func PierrecPageSize(c *lz4.Compressor, dst []byte, page *[PageSize]byte) int {
	if IsSameFilled(page) {
		return 8
	}
	n, err := c.CompressBlock(page[:], dst)
	if err != nil || n == 0 || n >= RawThreshold {
		return PageSize
	}
	return n
}
