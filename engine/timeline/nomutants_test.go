//go:build !mutants

package timeline_test

import (
	"context"
	"errors"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

func TestRun_MutantNeedsTheMutantsBuild(t *testing.T) {
	tl, err := timeline.LoadLibrary("01-late-courier.tl")
	if err != nil {
		t.Fatal(err)
	}
	_, err = memrun.Run(context.Background(), tl, timeline.Options{Mutant: mutant.ClaimBoundary})
	if !errors.Is(err, engine.ErrInvalid) {
		t.Errorf("err %v, want ErrInvalid: a normal build has no mutants", err)
	}
}
