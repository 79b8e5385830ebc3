//go:build tools

// This file pins the modules that only cuda-tagged code and tests import, so
// that `go mod tidy` keeps them; it is never compiled.
package lz4warp

import (
	_ "github.com/cucumber/godog"
	_ "github.com/pierrec/lz4/v4"
	_ "github.com/stretchr/testify/require"
	_ "gorgonia.org/cu"
	_ "pgregory.net/rapid"
)
