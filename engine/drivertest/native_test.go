//go:build !js

package drivertest_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/drivertest"
)

// The native driver (native, as ExampleRun shows it) passes the drivers'
// conformance suite; wasm/sqlitejs passes the same suite under GOOS=js.
func TestNativeDriver_Conformance(t *testing.T) {
	drivertest.Run(t, native)
}
