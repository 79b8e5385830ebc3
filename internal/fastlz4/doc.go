// Package fastlz4 is lz4warp's fast CPU codec. Its encoder produces exactly
// the canonical parse of spec/parse.md, byte for byte the output of package
// reference (PARSE-8). It enters positions in its hash table 64 at a time,
// without a branch per position (in assembly on amd64, in Go elsewhere or
// with the purego build tag), then takes the greedy matches from the set of
// verified candidates; where no candidate verifies it scans position by
// position. Matches extend 8 bytes at a time by XOR (long ones 16 at a
// time in the assembly), and the table is reused from page to page
// without allocation. Its decoder accepts any LZ4
// block, and like the reference decoder returns the right output or an
// error for every input, never panicking and never writing outside dst.
package fastlz4
