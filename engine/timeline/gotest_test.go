package timeline_test

import (
	"context"
	"errors"
	"fmt"
	"go/format"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/modtest"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// everyVerb covers every verb, every outcome and every field a generated
// test checks; its expectations hold on the correct engine.
const everyVerb = `# Every verb and every outcome the generator writes
lease 1000ms
job a qty=2 deadline=5000 max_attempts=3
job b

0ms      A claim a                 -> ok token=1 attempts=1 qty=2 deadline=5000 status=leased owner=A
100ms    A renew a ttl=500         -> ok lease_until=600
200ms    B claim a ttl=0           -> invalid
300ms    B claim a                 -> refused
400ms    B complete a token=1      -> refused superseded
500ms    A release a               -> ok owner=none status=pending lease_until=0 reason=none
600ms    C enqueue c qty=4         -> ok enqueued=true
700ms    C enqueue c               -> enqueued=false
800ms    C state c                 -> ok qty=4
800ms    C state d                 -> empty
900ms    C enqueue d
1000ms   D send fail=true          -> failed job=a
1100ms   D send took=50ms          -> ok job=a delivered=true total=2 result=sent
1200ms   A,B claim b ttl=0         -> invalid
1300ms   A,B claim b               -> ok winner=A
1400ms   B,C claim b               -> refused held winner=none
1500ms   E claim                   -> ok job=c token=1
1600ms   E deliver c               -> ok delivered=true total=6
1700ms   E deliver c token=1       -> delivered=false
1800ms   E complete c result="two words" -> ok result="two words"
1900ms   F claim b
2000ms   G send ttl=100ms took=500ms -> refused superseded job=d delivered=true total=7
2200ms   H claim d                 -> ok token=2
2600ms   I send fail=true took=100ms -> failed job=b owner=none
2650ms   J claim b                 -> refused held
`

// wrongExpectations states what the correct engine does not do, one
// failure per kind of check; the generated test must fail on each line.
const wrongExpectations = `# Wrong on purpose
lease 1000ms
job a

0ms     A claim a       -> ok token=2
1000ms  B claim a       -> refused held
1001ms  A complete a    -> ok
1002ms  B,C claim a     -> ok winner=C
1003ms  B deliver a     -> total=5
`

// wrongLines are the lines of wrongExpectations whose checks fail.
var wrongLines = []int{5, 6, 7, 8, 9}

type generated struct {
	name, funcName, src string
}

func generate(t *testing.T) []generated {
	t.Helper()
	var out []generated
	add := func(name, src string) {
		tl, err := timeline.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		fn := timeline.GoTestName(name)
		code, err := timeline.GoTest(tl, fn)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, generated{name, fn, code})
	}
	for _, name := range timeline.LibraryNames() {
		src, err := timeline.LibrarySource(name)
		if err != nil {
			t.Fatal(err)
		}
		add(name, src)
	}
	add("every-verb.tl", everyVerb)
	add("wrong-expectations.tl", wrongExpectations)
	return out
}

func TestGoTest_OutputIsGofmtFormattedGo(t *testing.T) {
	for _, g := range generate(t) {
		formatted, err := format.Source([]byte(g.src))
		if err != nil {
			t.Errorf("%s: the generated test does not parse: %v\n%s", g.name, err, g.src)
			continue
		}
		if string(formatted) != g.src {
			t.Errorf("%s: gofmt would change the generated test:\n%s", g.name, diffLines(g.src, string(formatted)))
		}
		if !strings.Contains(g.src, "func "+g.funcName+"(t *testing.T) {") {
			t.Errorf("%s: no func %s in\n%s", g.name, g.funcName, g.src)
		}
	}
}

// diffLines shows the first line where a and b differ.
func diffLines(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n got  %q\n gofmt %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(la), len(lb))
}

// The generated tests run with go test in a module of their own that
// requires this one, as a reader's would: the library's timelines and
// everyVerb pass, and wrongExpectations fails on each wrong line, exactly
// as the timeline runner judges them.
func TestGoTest_GeneratedTestsPassExactlyWhenTheTimelineHolds(t *testing.T) {
	nativeonly.Test(t, "the go command")
	if os.Getenv("LEASELAB_MUTANT") != "" {
		t.Skip("the generated tests build the correct engine from source, without the mutants tag: a mutant run proves nothing here")
	}
	root, err := modtest.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	gens := generate(t)
	// The runner's verdict on each timeline is what the Go test must match.
	passes := map[string]bool{}
	for _, g := range gens {
		src := everyVerb
		switch g.name {
		case "wrong-expectations.tl":
			src = wrongExpectations
		case "every-verb.tl":
		default:
			src, _ = timeline.LibrarySource(g.name)
		}
		tr, err := memrun.RunSource(context.Background(), g.name, src, timeline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		passes[g.funcName] = tr.Summary.Passed
	}
	if passes["TestWrongExpectations"] || !passes["TestEveryVerb"] {
		t.Fatalf("the runner's verdicts are not the premise of this test: %v", passes)
	}

	files := map[string]string{}
	for _, g := range gens {
		files[strings.TrimSuffix(g.name, ".tl")+"_test.go"] = g.src
	}
	dir := t.TempDir()
	if err := modtest.Write(dir, root, files); err != nil {
		t.Fatal(err)
	}
	res, err := modtest.Test(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, got := res.Output, res.Passed
	for fn, want := range passes {
		pass, ran := got[fn]
		switch {
		case !ran:
			t.Errorf("%s did not run:\n%s", fn, out)
		case pass != want:
			t.Errorf("%s passed=%t, want %t as the timeline runner judged it:\n%s", fn, pass, want, out)
		}
	}
	for _, line := range wrongLines {
		if !regexp.MustCompile(fmt.Sprintf(`wrong-expectations_test\.go:\d+: line %d: `, line)).MatchString(out) {
			t.Errorf("the failing test does not report line %d:\n%s", line, out)
		}
	}
}

func TestGoTestName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"01-late-courier.tl", "TestLateCourier"},
		{"engine/timeline/library/08-concurrent-claim.tl", "TestConcurrentClaim"},
		{"timeline.tl", "TestTimeline"},
		{"shared.tl", "TestShared"},
		{"주문-7.tl", "Test주문7"},
		{"2-phase_commit", "TestPhaseCommit"},
		{"lease2x.tl", "TestLease2x"},
		{"123.tl", "TestTimeline"},
		{"", "TestTimeline"},
	} {
		if got := timeline.GoTestName(tc.name); got != tc.want {
			t.Errorf("GoTestName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// go test runs TestXxx where Xxx does not start with a lower-case letter;
// GoTest takes exactly those names.
func TestGoTest_TakesOnlyNamesGoTestRuns(t *testing.T) {
	tl, err := timeline.Parse("t.tl", "lease 1s\njob a\n0ms A claim a -> ok\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"Test", true},
		{"TestA", true},
		{"Test_a", true},
		{"Test주문", true},
		{"Test1", true},
		{"Testa", false},
		{"testA", false},
		{"Tes", false},
		{"Test A", false},
		{"Test-A", false},
		{"", false},
	} {
		_, err := timeline.GoTest(tl, tc.name)
		if ok := err == nil; ok != tc.ok {
			t.Errorf("GoTest(%q): err %v, want ok=%t", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, timeline.ErrTestName) {
			t.Errorf("GoTest(%q): err %v, want ErrTestName", tc.name, err)
		}
	}
}

// A note, a title or a file name may hold any character; none that breaks
// or disguises a Go comment (a carriage return, a vertical tab, a NUL, the
// line and paragraph separators, a bidirectional override) reaches the
// file raw: each is written as its escape, and the file stays gofmt-clean.
func TestGoTest_ControlCharactersOfNotesNeverReachTheFileRaw(t *testing.T) {
	for _, tc := range []struct{ name, char, escaped string }{
		{"carriage return", "\r", `\r`},
		{"vertical tab", "\v", `\v`},
		{"form feed", "\f", `\f`},
		{"NUL", "\x00", `\x00`},
		{"escape", "\x1b", `\x1b`},
		{"line separator", "\u2028", `\u2028`},
		{"paragraph separator", "\u2029", `\u2029`},
		{"right-to-left override", "\u202e", `\u202e`},
		{"left-to-right isolate", "\u2066", `\u2066`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "# Title with " + tc.char + " inside\nlease 1000ms\njob a\n\n# a note with " + tc.char +
				" inside  \n0 A claim a -> ok\n"
			tl, err := timeline.Parse("n"+tc.char+"ote.tl", src)
			if err != nil {
				t.Skipf("the parser refuses the character, which is as safe: %v", err)
			}
			out, err := timeline.GoTest(tl, "TestNote")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, tc.char) {
				t.Fatalf("the file holds %q raw:\n%s", tc.char, out)
			}
			if !strings.Contains(out, "a note with "+tc.escaped+" inside") {
				t.Fatalf("the note's %s is not written as %s:\n%s", tc.name, tc.escaped, out)
			}
			formatted, err := format.Source([]byte(out))
			if err != nil || string(formatted) != out {
				t.Fatalf("gofmt: %v; would change the file: %s", err, diffLines(out, string(formatted)))
			}
		})
	}
}

func TestGoTestIn_NamesThePackageGoTestTakes(t *testing.T) {
	tl, err := timeline.LoadLibrary("01-late-courier.tl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pkg string
		ok  bool
	}{
		{"worker", true}, {"worker_test", true}, {"w", true}, {"_w", true},
		{"", false}, {"_", false}, {"9worker", false}, {"my-worker", false}, {"my worker", false},
	} {
		out, err := timeline.GoTestIn(tl, tc.pkg, "TestLateCourier")
		if tc.ok != (err == nil) || (err != nil && !errors.Is(err, timeline.ErrPackageName)) {
			t.Errorf("GoTestIn(%q): err %v, want ok=%t", tc.pkg, err, tc.ok)
			continue
		}
		if tc.ok && !strings.HasPrefix(out, "package "+tc.pkg+"\n") {
			t.Errorf("GoTestIn(%q) starts %q", tc.pkg, out[:min(len(out), 40)])
		}
	}
	out, err := timeline.GoTest(tl, "TestLateCourier")
	if err != nil || !strings.HasPrefix(out, "package leaselabtest\n") {
		t.Errorf("GoTest's package clause: %q, %v", out[:min(len(out), 40)], err)
	}
}

// A Go test exported from standard input or the page is named from the
// story's title; a file's own name still wins.
func TestGoTestNameOf_NamesTheStory(t *testing.T) {
	for _, tc := range []struct{ name, title, want string }{
		{"stdin.tl", "Clock skew: a clock running ahead", "TestClockSkew"},
		{"timeline.tl", "The receiver ignores a resend, once", "TestTheReceiverIgnoresAResend"},
		{"untitled.tl", "지영의 하트비트 — 한국어", "Test지영의하트비트"},
		{"stdin.tl", "", "TestStdin"},
		{"stdin.tl", "123", "TestStdin"},
		{"01-late-courier.tl", "Something else entirely", "TestLateCourier"},
		{"timeline.tl", "one two three four five six seven eight", "TestOneTwoThreeFourFiveSix"},
	} {
		tl := &timeline.Timeline{Name: tc.name, Title: tc.title}
		if got := timeline.GoTestNameOf(tl); got != tc.want {
			t.Errorf("GoTestNameOf(%q, %q) = %q, want %q", tc.name, tc.title, got, tc.want)
		}
	}
}

// Go refuses a local variable that nothing uses, so a generated test
// declares a helper only where a step calls it: a concurrent claim whose
// line checks only who won uses no job read, one that checks a field does.
func TestGoTest_DeclaresOnlyTheHelpersItUses(t *testing.T) {
	const head = "lease 1s\njob j\n\n"
	srcs := map[string]string{
		"race-winner.tl":  head + "0ms A,B,C claim j -> ok winner=A losers=held loser.B=held\n",
		"race-bare.tl":    head + "0ms A,B claim j\n",
		"race-refused.tl": head + "0ms A claim j\n10ms B,C claim j -> refused held\n",
		"race-token.tl":   head + "0ms A,B claim j -> ok winner=A token=1\n",
	}
	decl := regexp.MustCompile(`(?m)^\t(\w+) := func`)
	comment := regexp.MustCompile(`//.*`)
	check := func(name, src string) {
		code := comment.ReplaceAllString(src, "")
		for _, m := range decl.FindAllStringSubmatch(code, -1) {
			uses := regexp.MustCompile(`\b`+m[1]+`\b`).FindAllStringIndex(code, -1)
			if len(uses) < 2 {
				t.Errorf("%s: the generated test declares %s and never uses it, which go test refuses to compile", name, m[1])
			}
		}
	}
	for name, src := range srcs {
		tl, err := timeline.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := timeline.GoTest(tl, "TestRace")
		if err != nil {
			t.Fatal(err)
		}
		check(name, out)
	}
	for _, g := range generate(t) {
		check(g.name, g.src)
	}
}
