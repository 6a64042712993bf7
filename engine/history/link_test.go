package history_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/limits"
)

// recordedRace is a round of the grader's race on a check-then-act complete,
// as the grader recorded it: not linearizable.
func recordedRace(t *testing.T) []byte {
	t.Helper()
	text, err := os.ReadFile("testdata/overlap-complete.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func TestLinkParam_RoundTripsARecordedFailingHistoryByteForByte(t *testing.T) {
	text := recordedRace(t)
	h, err := history.Read(bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if res := check(t, h); res.Verdict != history.NotLinearizable {
		t.Fatalf("the recorded history is %s; want it failing", res.Verdict)
	}
	param, err := history.LinkParam(text)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString(param) {
		t.Errorf("history=%s holds a character outside unpadded base64url", param)
	}
	if len(param) >= len(text) {
		t.Errorf("history= is %d bytes for a text of %d: not deflated", len(param), len(text))
	}
	back, err := history.ReadLinkParam(param)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, text) {
		t.Errorf("history= reads back as\n%q\nwant\n%q", back, text)
	}
}

// deflated is text as a history= parameter, made without LinkParam's
// limit.
func deflated(text []byte) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(text)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func TestReadLinkParam_RefusesADamagedParamSayingWhy(t *testing.T) {
	good := deflated(recordedRace(t))
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	for _, tc := range []struct {
		name, param, want string
	}{
		{"not base64url", good[:10] + "+/" + good[12:], "not unpadded base64url"},
		{"padded", deflated([]byte("ab")) + "=", "not unpadded base64url"},
		{"cut short", base64.RawURLEncoding.EncodeToString(raw[:len(raw)/2]), "cut short"},
		{"not DEFLATE", base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xff, 0xff, 0xff}), "not raw DEFLATE"},
		{"empty", "", "cut short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, err := history.ReadLinkParam(tc.param)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "history=: ") {
				t.Errorf("ReadLinkParam(%.20q...) = %q, %v; want an error saying %q", tc.param, text, err, tc.want)
			}
		})
	}
}

// A text, and a parameter, of grade_link_run_bytes pass; a byte more is
// refused both ways.
func TestLinkParam_HoldsTheTextToTheLinkLimit(t *testing.T) {
	most := limits.DefaultGrading.LinkRunBytes
	for _, tc := range []struct {
		name string
		n    int
		ok   bool
	}{
		{"before", most - 1, true},
		{"at", most, true},
		{"after", most + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := bytes.Repeat([]byte("a"), tc.n)
			param, err := history.LinkParam(text)
			if (err == nil) != tc.ok || (err != nil && !strings.Contains(err.Error(), "grade_link_run_bytes")) {
				t.Errorf("LinkParam of %d bytes: %v; want ok %v", tc.n, err, tc.ok)
			}
			back, err := history.ReadLinkParam(deflated(text))
			if (err == nil) != tc.ok || (err == nil && !bytes.Equal(back, text)) ||
				(err != nil && !strings.Contains(err.Error(), "grade_link_run_bytes")) {
				t.Errorf("ReadLinkParam of a text of %d bytes: %d bytes, %v; want ok %v", tc.n, len(back), err, tc.ok)
			}
			if tc.ok && param != deflated(text) {
				t.Errorf("LinkParam of %d bytes is not its text deflated at the best compression", tc.n)
			}
			long := strings.Repeat("A", tc.n)
			if _, err := history.ReadLinkParam(long); (err != nil && strings.Contains(err.Error(), "grade_link_run_bytes")) == tc.ok {
				t.Errorf("ReadLinkParam of a parameter of %d bytes: %v; want the limit refused only past it", tc.n, err)
			}
		})
	}
}
