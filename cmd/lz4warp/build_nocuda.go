//go:build !cuda

package main

// cudaBuild says whether this binary was built with CUDA support.
const cudaBuild = false
