package main

import (
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestParsePPID_CommandNamesWithSpacesAndParentheses(t *testing.T) {
	for _, c := range []struct {
		stat string
		want int
		err  error
	}{
		{"1596 (chromium) S 1526 1503 1503 0 -1", 1526, nil},
		{"42 (a (b) c) R 7 42 42", 7, nil},
		{"42 (no parent", 0, errStat},
		{"42 (x) S", 0, errStat},
		{"42 (x) S ppid", 0, errStat},
	} {
		got, err := parsePPID(c.stat)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("parsePPID(%q) = %d, %v; want %d, %v", c.stat, got, err, c.want, c.err)
		}
	}
}

func TestParseRollup_RSSAndPrivateInBytes(t *testing.T) {
	text := `55d0c0000000-7ffd00000000 ---p 00000000 00:00 0                          [rollup]
Rss:              400000 kB
Pss:              300000 kB
Shared_Clean:     100000 kB
Shared_Dirty:      50000 kB
Private_Clean:     20000 kB
Private_Dirty:    230000 kB
`
	m, err := parseRollup(text)
	if err != nil {
		t.Fatal(err)
	}
	if want := (memory{RSS: 400000 * 1024, Private: 250000 * 1024}); m != want {
		t.Errorf("parseRollup = %+v, want %+v", m, want)
	}
	for _, bad := range []string{
		"Rss: 1 kB\nPrivate_Clean: 1 kB\n",                      // a field missing
		"Rss: 1 MB\nPrivate_Clean: 1 kB\nPrivate_Dirty: 1 kB\n", // another unit
		"Rss: x kB\nPrivate_Clean: 1 kB\nPrivate_Dirty: 1 kB\n", // not a number
	} {
		if _, err := parseRollup(bad); !errors.Is(err, errRollup) {
			t.Errorf("parseRollup(%q): %v, want errRollup", bad, err)
		}
	}
}

func TestParseStatm_ResidentPagesInBytes(t *testing.T) {
	got, err := parseStatm([]byte("305472 87929 28765 31506 0 100215 0\n"), 4096)
	if err != nil || got != 87929*4096 {
		t.Errorf("parseStatm = %v, %v; want %v, nil", got, err, 87929*4096)
	}
	for _, bad := range []string{"", "305472", "305472 x 1"} {
		if _, err := parseStatm([]byte(bad), 4096); !errors.Is(err, errStatm) {
			t.Errorf("parseStatm(%q): %v, want errStatm", bad, err)
		}
	}
}

// The sampler sees this process's own children: a child that grows its
// resident set to 64 MB is seen at 64 MB or more, though it is sampled only
// while it lives.
func TestPeakSampler_SeesAChildsLargestResidentSet(t *testing.T) {
	if os.Getenv("BROWSERBENCH_CHILD") == "grow" {
		b := make([]byte, 64<<20)
		for i := range b {
			b[i] = 1 // touch every page
		}
		time.Sleep(600 * time.Millisecond) // three rescans of the sampler
		os.Exit(int(b[len(b)-1]) - 1)
	}
	p := samplePeaks(os.Getpid())
	// "--type=renderer" after "--" is an argument the test binary ignores
	// and the sampler takes for a renderer's.
	cmd := exec.Command(os.Args[0], "-test.run=^TestPeakSampler_SeesAChildsLargestResidentSet$", "--", "--type=renderer")
	cmd.Env = append(os.Environ(), "BROWSERBENCH_CHILD=grow")
	if out, err := cmd.CombinedOutput(); err != nil {
		p.close()
		t.Fatalf("child: %v\n%s", err, out)
	}
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	got, ok := p.peak(cmd.Process.Pid)
	if !ok || got < 64<<20 {
		t.Errorf("peak of the child = %.1f MB (sampled: %v), want at least 64 MiB", got/1e6, ok)
	}
	if _, ok := p.peak(os.Getpid()); ok {
		t.Errorf("the sampler sampled this process, which is no renderer")
	}
}

func TestIsRenderer_NULOrSpaceSeparatedArguments(t *testing.T) {
	for _, c := range []struct {
		cmdline string
		want    bool
	}{
		{"/usr/lib/chromium/chromium\x00--type=renderer\x00--lang=en-US\x00", true},
		{"/usr/lib/chromium/chromium --type=renderer --lang=en-US", true}, // title rewritten
		{"/usr/lib/chromium/chromium --type=zygote --no-sandbox", false},
		{"/usr/lib/chromium/chromium\x00--type=renderer-ish\x00", false},
		{"/usr/lib/chromium/chromium\x00--show-component-extension-options\x00", false},
	} {
		if got := isRenderer(c.cmdline); got != c.want {
			t.Errorf("isRenderer(%q) = %v, want %v", c.cmdline, got, c.want)
		}
	}
}

func TestDescends_OnlyThroughTheParentChain(t *testing.T) {
	parents := map[int]int{10: 1, 11: 10, 12: 11, 20: 1, 30: 31, 31: 30} // 30 and 31: a cycle
	for _, c := range []struct {
		pid, ancestor int
		want          bool
	}{
		{12, 10, true},
		{11, 10, true},
		{10, 10, false}, // not its own descendant
		{20, 10, false},
		{99, 10, false}, // unknown process
		{30, 10, false}, // ends although the chain loops
	} {
		if got := descends(parents, c.pid, c.ancestor); got != c.want {
			t.Errorf("descends(%d, %d) = %v, want %v", c.pid, c.ancestor, got, c.want)
		}
	}
}

func TestVanished_ExactlyOneProcessGone(t *testing.T) {
	m := memory{RSS: 1}
	for _, c := range []struct {
		name          string
		before, after map[int]memory
		pid           int
		ok            bool
	}{
		{"one gone", map[int]memory{1: m, 2: m}, map[int]memory{2: m}, 1, true},
		{"one gone, one new", map[int]memory{1: m, 2: m}, map[int]memory{2: m, 3: m}, 1, true},
		{"none gone", map[int]memory{1: m}, map[int]memory{1: m}, 0, false},
		{"two gone", map[int]memory{1: m, 2: m}, map[int]memory{}, 0, false},
	} {
		pid, ok := vanished(c.before, c.after)
		if ok != c.ok || (ok && pid != c.pid) {
			t.Errorf("%s: vanished = %d, %v; want %d, %v", c.name, pid, ok, c.pid, c.ok)
		}
	}
}

func TestRenderers_NoneUnderAProcessThatStartedNoBrowser(t *testing.T) {
	got, err := renderers(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("renderers(this test) = %v, want none", got)
	}
}
