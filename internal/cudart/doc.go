// Package cudart is a thin layer over the CUDA driver API (through
// gorgonia.org/cu, plus a few calls it lacks) for the code that launches
// generated PTX: devices, one context per device, modules JIT-compiled with
// their logs kept, pinned host memory, device memory, streams, events and
// launches, with errors that carry the driver's own name for each code.
//
// Everything except this comment needs the build tag cuda: gorgonia.org/cu
// initialises the driver when the program starts and exits when that fails,
// so only binaries meant for a GPU machine may link it.
package cudart
