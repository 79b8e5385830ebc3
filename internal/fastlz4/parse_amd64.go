//go:build amd64 && gc && !purego

package fastlz4

import "unsafe"

// encodeLoopAsm is encodeLoop in assembly (parse_amd64.s).
//
//go:noescape
func encodeLoopAsm(st *loopState, link *uint16, dst, src *byte, lim *loopLimits)

// useLoopAsm switches encodeLoop off, for tests: CompressBlock's Go loop
// then takes every step.
var useLoopAsm = true

// haveLoopAsm says whether encodeLoop does anything.
func haveLoopAsm() bool { return useLoopAsm }

// encodeLoop runs CompressBlock's loop from state st for as long as it
// needs nothing that only the Go loop does (see parse_amd64.s).
// The table lies just before link, as Encoder.tables gives them.
func encodeLoop(st *loopState, link []uint16, dst, src []byte, lim *loopLimits) {
	encodeLoopAsm(st, unsafe.SliceData(link), unsafe.SliceData(dst), unsafe.SliceData(src), lim)
}
