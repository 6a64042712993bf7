package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
	"github.com/leaselab/leaselab/engine/timeline"
)

const smallLab = `# A small lab
jobs 4
workers 2
work uniform 100ms 300ms
gc every exponential 400ms pause uniform 100ms 600ms
lease 250ms
sweep lease 250ms 500ms
runs 3
horizon 10s
`

// leaselab lab prints the table and exits 0; -json prints the result in
// its format; -csv and -svg write their files.
func TestLab_PrintsTheTableAndWritesCSVAndSVG(t *testing.T) {
	dir := t.TempDir()
	csvPath, svgPath := filepath.Join(dir, "out.csv"), filepath.Join(dir, "out.svg")
	code, out, errOut := main1(t, smallLab, "lab", "-csv", csvPath, "-svg", svgPath, "-")
	if code != ExitPass || !strings.Contains(out, "point  lease  dup_ms") || !strings.Contains(out, "250ms") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	csv, err1 := os.ReadFile(csvPath)
	svg, err2 := os.ReadFile(svgPath)
	if err1 != nil || err2 != nil || !strings.HasPrefix(string(csv), "lease,dup_ms_mean,") || strings.Count(string(csv), "\n") != 3 ||
		!strings.Contains(string(svg), `role="img"`) {
		t.Errorf("csv %q (%v), svg %.100q (%v)", csv, err1, svg, err2)
	}
	code, out, _ = main1(t, smallLab, "lab", "-json", "-seed", "5", "-")
	var res lab.Result
	if code != ExitPass || json.Unmarshal([]byte(out), &res) != nil || res.Format != lab.FormatVersion || res.Seed != 5 || len(res.Points) != 2 {
		t.Errorf("-json: exit %d, %.200q", code, out)
	}
}

// -story prints one run as a timeline that parses.
func TestLab_StoryIsATimeline(t *testing.T) {
	for _, spec := range []string{"0:worst", "1:typical", "1:0"} {
		code, out, errOut := main1(t, smallLab, "lab", "-story", spec, "-")
		if code != ExitPass {
			t.Fatalf("%s: exit %d, %s", spec, code, errOut)
		}
		if _, err := timeline.Parse("story.tl", out); err != nil {
			t.Errorf("%s: %v\n%s", spec, err, out)
		}
	}
}

// -story of a workload sweep's point replays that point's workload: at
// point 1 of sweep pause 100ms 3s every pause the story takes is 3 s.
func TestLab_StoryOfAWorkloadSweepPlaysItsPointsPause(t *testing.T) {
	src := strings.Replace(smallLab, "sweep lease 250ms 500ms", "sweep pause 100ms 3s", 1)
	code, out, errOut := main1(t, src, "lab", "-story", "1:0", "-")
	if code != ExitPass {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	if !strings.HasPrefix(out, "# A small lab: point 1 (pause=3s), run 0") || strings.Count(out, " pause 3000ms\n") == 0 ||
		strings.Count(out, " pause ") != strings.Count(out, " pause 3000ms\n") {
		t.Errorf("the story does not play pauses of 3 s:\n%s", out)
	}
	if _, err := timeline.Parse("story.tl", out); err != nil {
		t.Errorf("%v\n%s", err, out)
	}
}

// Bad input exits 2: a mistake at its line and column, bad flags, a story
// that names no run, a file that is not there.
func TestLab_BadInputExits2(t *testing.T) {
	for _, c := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"a misspelt word", "jobs 2\nleese 1s\n", []string{"-"}, "stdin.lab:2:1: unknown word \"leese\" (did you mean lease?)"},
		{"a pause swept without pauses", "jobs 2\nsweep pause 1s 2s\n", []string{"-"}, "stdin.lab:2:7: sweep pause varies the length of GC pauses, and this lab has none: add a line gc every DIST pause DIST"},
		{"a lab over a limit", "runs 1001\n", []string{"-"}, "stdin.lab:1:6: runs 1001: over the limit lab_runs"},
		{"a bad seed", smallLab, []string{"-seed", "x", "-"}, "invalid value"},
		{"a bad language", smallLab, []string{"-lang", "fr", "-"}, "-lang fr"},
		{"a point out of range", smallLab, []string{"-story", "2:worst", "-"}, "POINT from 0 to 1"},
		{"a run out of range", smallLab, []string{"-story", "0:3", "-"}, "a run from 0 to 2"},
		{"a story past the steps limit", "jobs 1\nworkers 1\nwork fixed 1m\nheartbeat 5ms\nruns 1\nhorizon 11s\n", []string{"-story", "0:0", "-"}, "passes the limit steps"},
		{"no file", "", []string{"no-such.lab"}, "no-such.lab"},
		{"no argument", "", nil, "usage: leaselab lab"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := main1(t, c.stdin, append([]string{"lab"}, c.args...)...)
			if code != ExitBadInput || out != "" || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errOut, c.want)
			}
		})
	}
}

// An output file that cannot be written is a failure (1), not bad input.
func TestLab_AnUnwritableOutputExits1(t *testing.T) {
	code, _, errOut := main1(t, smallLab, "lab", "-csv", filepath.Join(t.TempDir(), "no", "dir", "x.csv"), "-")
	if code != ExitFail || !strings.Contains(errOut, "x.csv") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// lab -h states lab's own exit statuses: a lab measures, it holds no
// expectation; and it says how -csv and -json write a parameter that is
// off, which is a number there: heartbeat and deadline off 0, margin off
// -1 (margin 0ms is 0), max_attempts 0 unlimited.
func TestLab_HelpStatesItsExitStatusesAndHowOffIsWritten(t *testing.T) {
	code, out, _ := main1(t, "", "lab", "-h")
	if code != ExitPass {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"Exit status: 0 every run ran and the answer was written",
		"1 a run failed on the engine, or a -csv or -svg file could not be written",
		"2 bad input",
		"heartbeat off and deadline off are 0, margin off is -1 (margin 0ms is 0), max_attempts 0 is unlimited; delay off and drift off are 0",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("lab -h lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "expectation") {
		t.Errorf("lab -h speaks of expectations, which a lab has none of:\n%s", out)
	}
}

// -csv and -json write a swept parameter that is off as lab -h says: a
// margin off as -1 beside margin 0ms as 0, a heartbeat off as 0.
func TestLab_CSVAndJSONWriteOffAsTheHelpSays(t *testing.T) {
	src := "jobs 2\nworkers 1\nwork fixed 100ms\nruns 1\nhorizon 5s\nsweep heartbeat off 500ms\nsweep margin off 0ms\n"
	csvPath := filepath.Join(t.TempDir(), "out.csv")
	code, out, errOut := main1(t, src, "lab", "-json", "-csv", csvPath, "-")
	if code != ExitPass {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	var res lab.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Sweeps) != 2 {
		t.Fatalf("-json: %v, %.200q", err, out)
	}
	if got := res.Sweeps[0].Values; len(got) != 2 || got[0] != 0 || got[1] != 500 {
		t.Errorf("-json heartbeat values %v, want [0 500]", got)
	}
	if got := res.Sweeps[1].Values; len(got) != 2 || got[0] != -1 || got[1] != 0 {
		t.Errorf("-json margin values %v, want [-1 0]", got)
	}
	b, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	var firsts []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.SplitN(line, ",", 3)
		firsts = append(firsts, f[0]+","+f[1])
	}
	if want := "0,-1 0,0 500,-1 500,0"; strings.Join(firsts, " ") != want {
		t.Errorf("-csv heartbeat,margin %q, want %q", strings.Join(firsts, " "), want)
	}
}
