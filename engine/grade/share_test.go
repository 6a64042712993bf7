package grade_test

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// openLink reads a link's share parameters and its timeline's text.
func openLink(t *testing.T, link string) (url.Values, string) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	p, err := url.ParseQuery(u.Fragment)
	if err != nil {
		t.Fatal(err)
	}
	src, err := base64.RawURLEncoding.DecodeString(p.Get("src"))
	if err != nil {
		t.Fatalf("src is not unpadded base64url: %v", err)
	}
	return p, string(src)
}

// The first difference's link opens the reproducing timeline in the
// simulator with the cursor on the step that differs, played, and a note
// on it with the student's answer beside the contract's; the timeline
// still passes on the engine. A difference no timeline reproduces has no
// link.
func TestLink_OpensTheDifferenceAtItsStep(t *testing.T) {
	nativeonly.Python(t)
	r := gradeOrFatal(t, variant(t, "row[2] or row[0] > now", "row[2] or row[0] >= now"), grade.Options{FailFast: true})
	f := r.First().Failure
	if f.Where != "4-claim.tl:8" {
		t.Fatalf("the difference is at %s; want 4-claim.tl:8", f.Where)
	}
	for _, tc := range []struct{ lang, note string }{
		{"en", "# Here your code answered None where the contract answers 1."},
		{"ko", "# 여기서 제출한 코드의 답은 None, 계약의 답은 1입니다."},
	} {
		link := f.Link("http://course.example/sim/", tc.lang)
		if !strings.HasPrefix(link, "http://course.example/sim/#") {
			t.Fatalf("%s: %q does not open the simulator page given", tc.lang, link)
		}
		p, text := openLink(t, link)
		if p.Get("name") != "4-claim.tl" || p.Get("step") != "3" || (p.Get("lang") != "") != (tc.lang != "en") {
			t.Errorf("%s: name=%q step=%q lang=%q; want 4-claim.tl, 3 and the language unless English", tc.lang, p.Get("name"), p.Get("step"), p.Get("lang"))
		}
		tl, err := timeline.Parse("4-claim.tl", text)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(text, "\n")
		if s := tl.Steps[2]; lines[s.Line-2] != tc.note || !strings.HasPrefix(lines[s.Line-1], "0ms     A claim j1        -> ok token=1") {
			t.Errorf("%s: the third step (the cursor's) is %q after %q; want the differing claim after the note %q", tc.lang, lines[s.Line-1], lines[s.Line-2], tc.note)
		}
		tr, err := memrun.RunSource(context.Background(), "4-claim.tl", text, timeline.Options{})
		if err != nil || !tr.Summary.Passed {
			t.Errorf("%s: the linked timeline does not pass on the engine: %v %v", tc.lang, err, tr.Summary.Failures)
		}
	}
	if link := (&grade.Failure{Call: "claim_many(...)"}).Link(grade.DefaultSimulator, "en"); link != "" {
		t.Errorf("a failure with no timeline links to %q", link)
	}
}

// The courier's send step links its sends as a timeline, the cursor after
// the send that differs.
func TestLink_OpensTheCourierSendThatDiffers(t *testing.T) {
	nativeonly.Python(t)
	r := gradeCourier(t, courierVariant(t, "deliver(marker)  #", "deliver({\"id\": marker[\"id\"]})  #"), grade.Options{FailFast: true})
	f := r.First().Failure
	p, text := openLink(t, f.Link(grade.DefaultSimulator, "en"))
	if f.Where != "send 1" || p.Get("step") != "1" || !strings.Contains(text, "0ms     A send took=100ms") {
		t.Fatalf("at %s: step=%q, text\n%s\nwant the first send's step", f.Where, p.Get("step"), text)
	}
}

// decodeRun reads a link's impl= as the page does: unpadded base64url of
// raw DEFLATE of the run's JSON.
func decodeRun(t *testing.T, impl string) (run struct {
	V     int      `json:"v"`
	Cols  []string `json:"cols"`
	Diff  int      `json:"diff"`
	Steps []struct {
		Calls []string `json:"calls"`
		Rows  [][]any  `json:"rows"`
	} `json:"steps"`
}) {
	t.Helper()
	z, err := base64.RawURLEncoding.DecodeString(impl)
	if err != nil {
		t.Fatalf("impl is not unpadded base64url: %v", err)
	}
	js, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if err != nil {
		t.Fatalf("impl is not raw DEFLATE: %v", err)
	}
	if err := json.Unmarshal(js, &run); err != nil {
		t.Fatalf("impl's JSON: %v\n%s", err, js)
	}
	return run
}

// The link carries the student's run of the timeline up to the step that
// differs: step 0 is init_db and the header's jobs, each step its calls
// with the student's answers and their table after it, the last the
// differing claim, where a claim that ignores until took the held job.
func TestLink_CarriesTheStudentsRunStepByStep(t *testing.T) {
	nativeonly.Python(t)
	r := gradeOrFatal(t, variant(t, "row[2] or row[0] > now", "row[2]"), grade.Options{FailFast: true})
	f := r.First().Failure
	p, _ := openLink(t, f.Link(grade.DefaultSimulator, "en"))
	run := decodeRun(t, p.Get("impl"))
	if run.V != 1 || strings.Join(run.Cols, " ") != "id owner until fence result done" {
		t.Fatalf("v=%d cols=%v; want 1 and the lab table's columns", run.V, run.Cols)
	}
	if p.Get("step") != "4" || run.Diff != 4 || len(run.Steps) != 5 {
		t.Fatalf("step=%s diff=%d over %d steps; want the cursor 4 on the fourth step, the last of 5", p.Get("step"), run.Diff, len(run.Steps))
	}
	for _, tc := range []struct {
		step  int
		calls []string
		rows  string // the rows, JSON
	}{
		{0, []string{"init_db(path) → None", `enqueue(path, "j1") → True`, `enqueue(path, "j2") → True`},
			`[["j1",null,0,0,null,0],["j2",null,0,0,null,0]]`},
		{1, []string{`claim(path, "j1", "A", 0, 0) → raise ValueError: ttl must be positive`},
			`[["j1",null,0,0,null,0],["j2",null,0,0,null,0]]`},
		{3, []string{`claim(path, "j1", "A", 0, 1000) → 1`},
			`[["j1","A",1000,1,null,0],["j2",null,0,0,null,0]]`},
		{4, []string{`claim(path, "j1", "B", 999, 1000) → 2`},
			`[["j1","B",1999,2,null,0],["j2",null,0,0,null,0]]`},
	} {
		s := run.Steps[tc.step]
		rows, _ := json.Marshal(s.Rows)
		if strings.Join(s.Calls, "\n") != strings.Join(tc.calls, "\n") || string(rows) != tc.rows {
			t.Errorf("step %d: calls %q rows %s; want %q and %s", tc.step, s.Calls, rows, tc.calls, tc.rows)
		}
	}
	if got := run.Steps[4].Calls[0]; !strings.HasSuffix(got, "→ "+f.Got) {
		t.Errorf("the last step's answer %q is not the failure's %q", got, f.Got)
	}
}

// A run whose JSON passes grade_link_run_bytes is left out of the link;
// the engine's run is still linked.
func TestLink_LeavesOutARunOverTheLimit(t *testing.T) {
	row := engine.Job{ID: "j1", Owner: strings.Repeat("o", 100), Status: engine.StatusLeased}
	for _, tc := range []struct {
		name  string
		steps int
		in    bool
	}{
		{"far under", 10, true},
		{"over", limits.DefaultGrading.LinkRunBytes / 100, false},
	} {
		f := &grade.Failure{Where: "t.tl:2", Timeline: "job j1\n0ms A claim j1 -> ok\n"}
		for range tc.steps {
			f.Run = append(f.Run, grade.Played{Calls: []string{"claim → 1"}, Rows: []engine.Job{row}})
		}
		p, _ := openLink(t, f.Link(grade.DefaultSimulator, "en"))
		if (p.Get("impl") != "") != tc.in || p.Get("src") == "" {
			t.Errorf("%s: impl=%.20q src=%.20q; want impl %v and the timeline", tc.name, p.Get("impl"), p.Get("src"), tc.in)
		}
	}
}

// Where the answers agree and the tables differ, the note says so, rather
// than that the code answered what the contract answers.
func TestLink_NotesATableThatDiffersBesideAnswersThatAgree(t *testing.T) {
	src := "lease 1000ms\njob j1\n\n0ms     A claim j1        -> ok token=1\n"
	for _, tc := range []struct{ want, got, note string }{
		{"1", "1", "# Here your code answered as the contract does, and its table differs."},
		{"1", "None", "# Here your code answered None where the contract answers 1."},
	} {
		f := &grade.Failure{Where: "x.tl:4", Call: `claim(path, "j1", "A", 0, 1000)`, Want: tc.want, Got: tc.got, Timeline: src}
		_, text := openLink(t, f.Link(grade.DefaultSimulator, "en"))
		if lines := strings.Split(text, "\n"); len(lines) < 4 || lines[3] != tc.note {
			t.Errorf("want %s, got %s: the note is not %q:\n%s", tc.want, tc.got, tc.note, text)
		}
	}
}
