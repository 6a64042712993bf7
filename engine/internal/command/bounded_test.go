package command

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/limits"
)

// A text answer is held to report_bytes whole: at the limit it is written,
// a byte over it nothing of it reaches standard output, the excess is said
// on standard error, and the writer is stopped at its first refused write.
func TestBounded_AnswerAtTheLimitIsWrittenOneByteOverNothing(t *testing.T) {
	limit := int(limits.Default.ReportBytes)
	for _, tc := range []struct {
		name string
		size int
		ok   bool
	}{
		{"a byte under", limit - 1, true},
		{"at the limit", limit, true},
		{"a byte over", limit + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			writes := 0
			ok := bounded(&out, &errOut, "the answer", func(w io.Writer) {
				for sent := 0; sent < tc.size; sent += 1024 {
					writes++
					if _, err := io.WriteString(w, strings.Repeat("x", min(1024, tc.size-sent))); err != nil {
						return
					}
				}
			})
			if ok != tc.ok {
				t.Fatalf("bounded = %v, want %v (stderr %q)", ok, tc.ok, errOut.String())
			}
			if tc.ok {
				if out.Len() != tc.size || errOut.Len() != 0 {
					t.Fatalf("wrote %d bytes, stderr %q; want %d bytes and nothing said", out.Len(), errOut.String(), tc.size)
				}
				return
			}
			if out.Len() != 0 || !strings.Contains(errOut.String(), "report_bytes") {
				t.Fatalf("wrote %d bytes, stderr %q; want nothing written and the limit named", out.Len(), errOut.String())
			}
			if want := (tc.size + 1023) / 1024; writes != want {
				t.Fatalf("%d writes; want the writer stopped at its %d-th, the one past the limit", writes, want)
			}
		})
	}
}
