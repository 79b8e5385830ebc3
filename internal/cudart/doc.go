// Package cudart is a thin layer over the CUDA driver API for the code that
// launches generated PTX: devices, one context per device, modules
// JIT-compiled with their logs kept, pinned host memory, device memory,
// streams, events and launches, with errors that carry the driver's own
// name for each code.
//
// The driver library (libcuda.so.1, or the file LZ4WARP_CUDA_LIBRARY names)
// is opened at run time on first use, through purego, never linked: the
// same binary runs with no driver, with a driver that fails to initialise
// and with a GPU, and building it needs no CUDA header and no C compiler.
// Init reports why the driver cannot be used; it neither prints nor exits.
// This package is the only one that talks to the driver.
package cudart
