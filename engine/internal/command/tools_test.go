package command_test

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/leaselab/leaselab/engine/internal/command"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/redteam"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

const passing = `# Late courier
lease 1000ms
job order-7 qty=2

0ms     A claim order-7            -> ok token=1 lease_until=1000
1000ms  B claim order-7            -> ok token=2
1001ms  A complete order-7         -> refused superseded
1200ms  B complete order-7         -> ok
`

const failing = `lease 1000ms
job order-7
0ms     A claim order-7            -> ok token=1
1001ms  A complete order-7         -> ok
`

const bad = `lease 1000ms
job order-7
0ms     A claim order-7            -> ok
5ms     A grab order-7
`

// files writes each text to its own file in a temporary directory and
// returns the paths in order.
func files(t *testing.T, texts ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, text := range texts {
		p := filepath.Join(dir, string(rune('a'+i))+".tl")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func check(args ...string) (code int, stdout, stderr string) {
	return runCmd(command.Check, "", args...)
}

// runCmd runs a command with stdin and returns its exit status and output.
func runCmd(cmd func([]string, command.IO) int, stdin string, args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = cmd(args, command.IO{Stdin: strings.NewReader(stdin), Stdout: &o, Stderr: &e})
	return code, o.String(), e.String()
}

func TestCheckCommand_ExitStatus(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name  string
		texts []string
		extra []string
		want  int
	}{
		{"every expectation holds", []string{passing}, nil, command.ExitPass},
		{"two timelines hold", []string{passing, passing}, nil, command.ExitPass},
		{"a failed expectation", []string{failing}, nil, command.ExitFail},
		{"one fails among passing ones", []string{passing, failing, passing}, nil, command.ExitFail},
		{"bad input", []string{bad}, nil, command.ExitBadInput},
		{"bad input beats a failure", []string{failing, bad}, nil, command.ExitBadInput},
		{"a missing file", nil, []string{filepath.Join(dir, "missing.tl")}, command.ExitBadInput},
		{"no file", nil, nil, command.ExitBadInput},
		{"unknown flag", nil, []string{"-colour"}, command.ExitBadInput},
		{"the library", nil, []string{"-library"}, command.ExitPass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{}, c.extra...), files(t, c.texts...)...)
			code, out, errOut := check(args...)
			if code != c.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.want, out, errOut)
			}
		})
	}
}

func TestCheckCommand_PrintsATablePerTimelineAndASummary(t *testing.T) {
	paths := files(t, passing, failing)
	code, out, _ := check(paths...)
	if code != command.ExitFail {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		paths[0] + ": Late courier\n",
		"  LINE  TIME    ACTOR  OP        JOB      OUTCOME             TOKEN  LEASE_UNTIL  EXPECT\n",
		"  5     0ms     A      claim     order-7  ok                  1      1000         held\n",
		"  7     1001ms  A      complete  order-7  refused superseded  1      -            held\n",
		"  PASS 4 steps, 4 of 4 expectations held, 0 invariant violations\n",
		paths[1] + "\n",
		"  4     1001ms  A      complete  order-7  refused expired  1      -            FAILED\n",
		"  " + paths[1] + ":4: expected ok, got refused expired\n",
		"  FAIL 2 steps, 1 of 2 expectations held, 0 invariant violations\n",
		"\nFAIL: 1 of 2 timelines failed; 1 passed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A bad file is reported with its line and column and none of its steps
// runs: no table row is printed for it.
func TestCheckCommand_BadInputRunsNothing(t *testing.T) {
	paths := files(t, bad)
	code, out, errOut := check(paths...)
	if code != command.ExitBadInput {
		t.Fatalf("exit %d", code)
	}
	wantErr := paths[0] + `:4:11: unknown verb "grab"`
	if !strings.Contains(errOut, wantErr) {
		t.Errorf("stderr lacks %q:\n%s", wantErr, errOut)
	}
	if strings.Contains(out, "claim") || !strings.Contains(out, paths[0]+": bad input (1 error)") {
		t.Errorf("stdout:\n%s", out)
	}
}

func TestCheckCommand_KoreanNamesKeepColumnsAligned(t *testing.T) {
	code, out, _ := check("-library")
	if code != command.ExitPass {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "  5     0ms     민수   claim     주문-7  ok                  1      1000         held\n") {
		t.Errorf("Korean table row not aligned:\n%s", out)
	}
	if !strings.Contains(out, "\nPASS: "+strconv.Itoa(len(timeline.LibraryNames()))+" timelines, ") {
		t.Errorf("summary line missing:\n%s", out)
	}
}

func TestTraceCommand_PrintsTheJSONTrace(t *testing.T) {
	paths := files(t, passing)
	var o, e bytes.Buffer
	if code := command.Trace(paths, command.IO{Stdout: &o, Stderr: &e}); code != command.ExitPass {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	tr, err := memrun.RunSource(context.Background(), paths[0], passing, timeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := tr.Encode(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(o.Bytes(), want.Bytes()) {
		t.Errorf("trace output differs from Trace.Encode")
	}
	var decoded timeline.Trace
	if err := json.Unmarshal(o.Bytes(), &decoded); err != nil || len(decoded.Steps) != 4 || decoded.Format != timeline.FormatVersion {
		t.Errorf("decoded %d steps, format %d, err %v", len(decoded.Steps), decoded.Format, err)
	}
}

func TestTraceCommand_ExitStatus(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"a failing timeline still traces", files(t, failing), command.ExitPass},
		{"bad input", files(t, bad), command.ExitBadInput},
		{"two files", files(t, passing, passing), command.ExitBadInput},
		{"no file", nil, command.ExitBadInput},
		{"unknown language", append([]string{"-lang", "xx"}, files(t, passing)...), command.ExitBadInput},
		{"Korean", append([]string{"-lang", "ko"}, files(t, passing)...), command.ExitPass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if code, _, e := runCmd(command.Trace, "", c.args...); code != c.want {
				t.Errorf("exit %d, want %d; stderr %s", code, c.want, e)
			}
		})
	}
}

// The red team's text — a 100 KB id, claimed next 2,000 times, whose
// answers were hundreds of megabytes to gigabytes — is bad input for
// every command, refused before anything runs, naming the limit.
func TestCommands_RefuseTheAmplifierNamingTheLimit(t *testing.T) {
	text := redteam.Amplifier(100_000, 2000)
	for _, tc := range []struct {
		name string
		cmd  func([]string, command.IO) int
		args []string
	}{
		{"trace", command.Trace, []string{"-"}},
		{"check", command.Check, []string{"-"}},
		{"transcript", command.Transcript, []string{"-"}},
		{"export gotest", command.Export, []string{"gotest", "-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(tc.cmd, text, tc.args...)
			if code != command.ExitBadInput || !strings.Contains(stderr, "name_bytes") || len(stdout) > 1000 {
				t.Fatalf("exit %d, %d bytes out, stderr %.200q; want exit 2 naming name_bytes", code, len(stdout), stderr)
			}
		})
	}
}
