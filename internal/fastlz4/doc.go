// Package fastlz4 is lz4warp's fast CPU codec. Its encoder produces exactly
// the canonical parse of spec/parse.md, byte for byte the output of package
// reference (PARSE-8), with word-wide loads, an 8-byte XOR match extension
// and a hash table reused from page to page without allocation. Its decoder
// accepts any LZ4 block, and like the reference decoder returns the right
// output or an error for every input, never panicking and never writing
// outside dst.
package fastlz4
