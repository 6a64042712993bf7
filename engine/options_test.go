//go:build !mutants

package engine_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine"
)

func testOptions(testing.TB) []engine.Option { return nil }
