package simrun_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/simrun"
	"github.com/leaselab/leaselab/engine/timeline"
)

// The page's error box shows each mistake's Msg: in Korean, it is Korean,
// and the error still reports bad input at its line and column.
func TestTraceJSON_ParseErrorsInTheRunsLanguage(t *testing.T) {
	for _, tc := range []struct{ lang, want string }{
		{"ko", "알 수 없는 동사"},
		{"en", "unknown verb"},
		{"", "unknown verb"},
	} {
		_, err := simrun.TraceJSON(context.Background(), "t.tl", "lease 1s\njob j\n0 A clam j\n", simrun.Options{Lang: tc.lang})
		var list timeline.ErrorList
		if !errors.As(err, &list) || !errors.Is(err, timeline.ErrBadInput) || len(list) != 1 || list[0].Line != 3 || list[0].Col != 5 {
			t.Fatalf("lang %q: %v", tc.lang, err)
		}
		if !strings.Contains(list[0].Msg, tc.want) || !strings.Contains(err.Error(), "t.tl:3:5: "+tc.want) {
			t.Errorf("lang %q: Msg %q, Error %q; want %q", tc.lang, list[0].Msg, err.Error(), tc.want)
		}
	}
}
