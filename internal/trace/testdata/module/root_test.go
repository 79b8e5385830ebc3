package fixture

import "testing"

// Checks BETA-2 from the module's root package.
func TestRoot(t *testing.T) { t.Log() }
