//go:build !amd64 || !gc || purego

package fastlz4

// haveLoopAsm is false: CompressBlock's Go loop takes every step.
func haveLoopAsm() bool { return false }

func encodeLoop(st *loopState, link []uint16, dst, src []byte, lim *loopLimits) {
}
