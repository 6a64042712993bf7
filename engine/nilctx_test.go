package engine_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

// Opening a store or a receiver with a nil context is an invalid argument,
// an error wrapping ErrInvalid that names it, not a panic; the same
// database then opens with a real context.
func TestNew_NilContextIsInvalidNotAPanic(t *testing.T) {
	var nilCtx context.Context
	for name, open := range map[string]func(context.Context, *sql.DB) error{
		"New":         func(ctx context.Context, db *sql.DB) error { _, err := engine.New(ctx, db); return err },
		"NewReceiver": func(ctx context.Context, db *sql.DB) error { _, err := engine.NewReceiver(ctx, db); return err },
	} {
		db := memDB(t)
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s(nil ctx) panicked: %v", name, r)
				}
			}()
			return open(nilCtx, db)
		}()
		if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), "context") {
			t.Errorf("%s(nil ctx) = %v, want ErrInvalid naming the context", name, err)
		}
		if err := open(t.Context(), db); err != nil {
			t.Errorf("%s(ctx): %v", name, err)
		}
	}
}
