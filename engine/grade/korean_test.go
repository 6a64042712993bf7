package grade_test

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// Every message format and word of the grader's report has a Korean
// form: a new one without it fails here.
func TestMessages_EveryFormatHasAKoreanForm(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	format := regexp.MustCompile(`lang\.P\(("(?:[^"\\]|\\.)*")`)
	word := regexp.MustCompile(`(?:\bt|verdict)\(("(?:[^"\\]|\\.)*")\)`)
	formats, words := 0, 0
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range format.FindAllSubmatch(src, -1) {
			f, err := strconv.Unquote(string(m[1]))
			if err != nil {
				t.Fatal(err)
			}
			formats++
			if !lang.Has("ko", f, false) {
				t.Errorf("%s: %q has no Korean form", n, f)
			}
		}
		for _, m := range word.FindAllSubmatch(src, -1) {
			w, _ := strconv.Unquote(string(m[1]))
			words++
			if !lang.Has("ko", w, true) {
				t.Errorf("%s: the word %q has no Korean form", n, w)
			}
		}
	}
	if formats < 50 || words < 8 {
		t.Fatalf("found %d formats and %d words: the scan misses the messages", formats, words)
	}
}

// englishRun is three English words in a row outside a quoted span: an
// untranslated sentence.
var (
	englishRun = regexp.MustCompile(`[A-Za-z]{2,}[,:;]? [A-Za-z]{2,}[,:;]? [A-Za-z]{2,}`)
	quoted     = regexp.MustCompile("\"[^\"]*\"|`[^`]*`")
)

// In Korean, every verdict line of a report — each test's name, a skip's
// reason, the first difference's header, the grader's own explanation
// and the summary — is Korean: only names, calls and values stay as they
// are.
func TestWriteText_KoreanVerdictLinesHaveNoEnglishSentence(t *testing.T) {
	nativeonly.Python(t)
	send := "    delivered_at = deliver(marker)  # outside any transaction\n"
	sendInside := "    hold = _connect(path)\n    hold.execute(\"BEGIN IMMEDIATE\")\n    delivered_at = deliver(marker)\n    hold.execute(\"COMMIT\")\n"
	gradings := map[string]func(t *testing.T) *grade.Report{
		"fencing, a claim at until": func(t *testing.T) *grade.Report {
			return gradeOrFatal(t, variant(t, "row[2] or row[0] > now", "row[2] or row[0] >= now"), grade.Options{Sequences: 5, Rounds: 3})
		},
		"courier, a receiver that applies a resend": func(t *testing.T) *grade.Report {
			return gradeCourier(t, courierVariant(t, "INSERT OR IGNORE INTO received", "INSERT OR REPLACE INTO received"), grade.Options{Rounds: 3})
		},
		"courier, a send inside the transaction": func(t *testing.T) *grade.Report {
			return gradeCourier(t, courierVariant(t, send, sendInside), grade.Options{Rounds: 3})
		},
	}
	for name, gradeIt := range gradings {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each waits on its own Python processes
			koreanVerdictLines(t, gradeIt(t))
		})
	}
}

// koreanVerdictLines fails t unless r failed and its Korean text has at
// least ten verdict lines and no English sentence outside code.
func koreanVerdictLines(t *testing.T, r *grade.Report) {
	t.Helper()
	if r.First() == nil {
		t.Fatal("passed; want a difference to report")
	}
	var b bytes.Buffer
	grade.WriteText(&b, r, "ko")
	lines, verdicts := strings.Split(b.String(), "\n"), 0
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "호출:") || strings.HasPrefix(trimmed, "제출:") || strings.HasPrefix(trimmed, "계약:") ||
			strings.HasPrefix(line, "    ") {
			continue // a call, an answer, a row, a timeline: code, not sentences
		}
		for _, v := range []string{"통과 ", "실패 ", "건너뜀 "} {
			if strings.HasPrefix(line, v) {
				verdicts++
			}
		}
		if run := englishRun.FindString(quoted.ReplaceAllString(line, "")); run != "" {
			t.Errorf("%q is English in the Korean report's line\n%s", run, line)
		}
	}
	if verdicts < 10 {
		t.Errorf("%d verdict lines; the report is\n%s", verdicts, b.String())
	}
}

func gradeOrFatal(t *testing.T, path string, o grade.Options) *grade.Report {
	t.Helper()
	r, err := gradeFile(t, path, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
