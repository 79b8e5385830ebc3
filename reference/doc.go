// Package reference is the scalar reference codec of lz4warp: the canonical
// LZ4 parse of spec/parse.md and the page format of spec/page-format.md,
// written plainly so that it can serve as the oracle for every other backend.
//
// Speed is not a goal here; clarity is. Every faster backend (the CPU SIMD
// codec, the GPU kernel) must produce exactly the bytes this package produces.
package reference
