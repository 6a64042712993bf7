package timeline_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

var update = flag.Bool("update", false, "rewrite the golden traces under testdata/golden")

// goldenRuns are the traces kept as golden files: every library timeline in
// English, and the Korean one in Korean too.
func goldenRuns() []struct{ name, lang, file string } {
	var out []struct{ name, lang, file string }
	for _, n := range timeline.LibraryNames() {
		base := strings.TrimSuffix(n, ".tl")
		out = append(out, struct{ name, lang, file string }{n, "en", base + ".json"})
		if strings.Contains(n, "korean") {
			out = append(out, struct{ name, lang, file string }{n, "ko", base + ".ko.json"})
		}
	}
	return out
}

func traceJSON(t testing.TB, name, lang string) []byte {
	t.Helper()
	tl, err := timeline.LoadLibrary(name)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := memrun.Run(context.Background(), tl, timeline.Options{Lang: lang})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tr.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// expectable counts the steps that can state an expectation: all but
// pauses, crashes and waits, which have no outcome.
func expectable(tl *timeline.Timeline) int {
	n := 0
	for _, s := range tl.Steps {
		switch s.Verb {
		case timeline.VerbPause, timeline.VerbCrash, timeline.VerbWait, timeline.VerbJump, timeline.VerbDrift, timeline.VerbLeaderChange:
		default:
			n++
		}
	}
	return n
}

// Every library timeline holds every expectation on the correct engine,
// states one on every step that has an outcome, and breaks no invariant it
// did not announce.
func TestLibrary_EveryTimelineHoldsItsExpectations(t *testing.T) {
	names := timeline.LibraryNames()
	if len(names) < 9 {
		t.Fatalf("library has %d timelines, want at least 9: %v", len(names), names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			tl, err := timeline.LoadLibrary(name)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := memrun.Run(context.Background(), tl, timeline.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if want := expectable(tl); tr.Summary.Expectations != want {
				t.Errorf("%d of %d steps that can have an expectation have one; every library step states one", tr.Summary.Expectations, want)
			}
			for _, f := range tr.Summary.Failures {
				t.Error(f)
			}
			for _, st := range tr.Steps {
				for _, v := range st.Verdicts {
					if !v.OK && !v.Expected {
						t.Errorf("line %d: invariant %s: %s", st.Line, v.Invariant, v.Detail)
					}
				}
			}
			if !tr.Summary.Passed {
				t.Errorf("summary %+v", tr.Summary)
			}
		})
	}
}

func TestLibrary_TracesMatchGoldenFiles(t *testing.T) {
	want := map[string]bool{}
	for _, g := range goldenRuns() {
		want[g.file] = true
		t.Run(g.file, func(t *testing.T) {
			got := traceJSON(t, g.name, g.lang)
			path := filepath.Join("testdata", "golden", g.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			golden, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(got, golden) {
				t.Errorf("trace differs from %s (go test -update rewrites it after a deliberate change):\n%s", path, firstDiff(golden, got))
			}
		})
	}
	entries, err := os.ReadDir(filepath.Join("testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("testdata/golden/%s belongs to no library timeline", e.Name())
		}
	}
}

func firstDiff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  golden: " + w + "\n  got:    " + g
		}
	}
	return "(no line differs)"
}

// The trace is deterministic: the same timeline gives the same bytes on
// every run, each on a database of its own, the concurrent claims included.
func TestLibrary_TraceIsByteIdenticalOnEveryRun(t *testing.T) {
	for _, name := range timeline.LibraryNames() {
		first := traceJSON(t, name, "en")
		for i := 0; i < 5; i++ {
			if again := traceJSON(t, name, "en"); !bytes.Equal(first, again) {
				t.Fatalf("%s: run %d differs:\n%s", name, i+2, firstDiff(first, again))
			}
		}
	}
}

// lateCourier is the library's first timeline, character for character:
// the late courier's stale complete refused, in four steps.
const lateCourier = `# Late courier: the stale token is refused
lease 1000ms
job order-7 qty=2

# A claims the order: it gets a lease (the job is its until 1000ms) and token 1.
0ms     A claim order-7            -> ok token=1 lease_until=1000
# A stalls (a long GC pause); its lease runs out while it sleeps.
100ms   A pause 900ms
# The lease has ended, so B may claim: a new token, 2, higher than A's.
1000ms  B claim order-7            -> ok token=2
# A wakes unaware and completes with token 1: an older token is refused.
1001ms  A complete order-7         -> refused superseded
1200ms  B complete order-7         -> ok
`

func TestLibrary_FirstIsTheLateCourierAsWritten(t *testing.T) {
	names := timeline.LibraryNames()
	src, err := timeline.LibrarySource(names[0])
	if err != nil {
		t.Fatal(err)
	}
	if src != lateCourier {
		t.Fatalf("%s is not the late courier as written:\n%s", names[0], src)
	}
	tr, err := memrun.RunSource(context.Background(), "late-courier.tl", lateCourier, timeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Summary.Passed || tr.Summary.Expectations != 4 {
		t.Fatalf("summary %+v", tr.Summary)
	}
	if len(tr.Steps) != 5 || tr.Steps[1].Op != "pause" || len(tr.Steps[1].Actors) != 1 || tr.Steps[1].Actors[0] != "A" || tr.Steps[1].Note == "" {
		t.Fatalf("step 2 is not A's noted pause: %+v", tr.Steps)
	}
	refused := tr.Steps[3]
	const want = "A's complete with token 1 is refused: B has held token 2 since 1000 ms."
	if refused.Explain != want {
		t.Errorf("explain = %q, want %q", refused.Explain, want)
	}
	rej := refused.Rejection
	if rej == nil || rej.Presented.Owner != "A" || rej.Presented.Token != 1 || rej.Current.Owner != "B" ||
		rej.Current.Token != 2 || rej.Current.LeaseUntil != 2000 || rej.Now != 1001 {
		t.Errorf("rejection = %+v, want presented A#1 against current B#2 until 2000 at 1001", rej)
	}
}

func TestLibrary_HasKoreanActorsAndJobs(t *testing.T) {
	isHangul := func(s string) bool {
		for _, r := range s {
			if unicode.Is(unicode.Hangul, r) {
				return true
			}
		}
		return false
	}
	for _, name := range timeline.LibraryNames() {
		tl, err := timeline.LoadLibrary(name)
		if err != nil {
			t.Fatal(err)
		}
		actors, jobs := false, false
		for _, a := range tl.Actors {
			actors = actors || isHangul(a)
		}
		for _, j := range tl.Jobs {
			jobs = jobs || isHangul(j.ID)
		}
		if actors && jobs {
			return
		}
	}
	t.Error("no library timeline names its actors and jobs in Korean")
}

func TestLoadLibrary_UnknownNameIsAnError(t *testing.T) {
	if _, err := timeline.LoadLibrary("no-such.tl"); err == nil {
		t.Error("LoadLibrary(no-such.tl) succeeded")
	}
}

// retiredWords are the words a story's title and notes no longer use for
// what the learner knows by one name, each with that name: the token
// (a lab's column named fence is the token, said so where its code shows),
// and in Korean the pause (멈춤) and the token as the engine's Korean
// sentences write it.
var retiredWords = []struct{ word, say string }{
	{`(?i)\bstamps?\b`, "token"},
	{`(?i)\bgenerations?\b`, "token"},
	{`(?i)\bfencing tokens?\b`, "token"},
	{`\bfence=`, "token"},
	{`도장`, "token"},
	{`토큰`, "token"},
	{`펜싱 token`, "token"},
	{`일시 ?정지`, "멈춤"},
}

// Every story's title and notes, the text a learner reads in its
// transcript, use one word for each idea: no retired synonym of the
// token or the pause, in English or Korean.
func TestLibrary_TitlesAndNotesUseTheLearnersWords(t *testing.T) {
	for _, name := range timeline.LibraryNames() {
		src, err := timeline.LibrarySource(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(src, "\n") {
			comment := strings.TrimSpace(line)
			if at := strings.Index(line, " #"); !strings.HasPrefix(comment, "#") && at >= 0 {
				comment = line[at:] // a comment after a step
			} else if !strings.HasPrefix(comment, "#") {
				continue
			}
			for _, r := range retiredWords {
				if w := regexp.MustCompile(r.word).FindString(comment); w != "" {
					t.Errorf("%s:%d writes %q; the learner's word is %q: %s", name, i+1, w, r.say, comment)
				}
			}
		}
	}
}
