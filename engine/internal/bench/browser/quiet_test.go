package main

import (
	"errors"
	"os"
	"testing"
	"time"
)

func TestParseCPU_UserPlusSystemTicks(t *testing.T) {
	for _, c := range []struct {
		stat string
		want time.Duration
		err  error
	}{
		// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
		{"1596 (chromium) S 1526 1503 1503 0 -1 4194560 5000 0 3 0 123 45 0 0 20 0", 168 * clockTick, nil},
		{"42 (a (b) c) R 7 42 42 0 -1 0 0 0 0 0 0 0 0 0", 0, nil},
		{"42 (x) S 1 2 3 0 -1 0 0 0 0 0 7", 0, errStat},     // stime missing
		{"42 (x) S 1 2 3 0 -1 0 0 0 0 0 x 1", 0, errStat},   // not a number
		{"42 (x) S 1 2 3 0 -1 0 0 0 0 0 -1 1", 0, errStat},  // negative
		{"42 (no end 1 2 3 0 -1 0 0 0 0 0 1 1", 0, errStat}, // no ')'
	} {
		got, err := parseCPU(c.stat)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("parseCPU(%q) = %v, %v; want %v, %v", c.stat, got, err, c.want, c.err)
		}
	}
}

// cpuSamples answers one reading after another, as /proc would over time.
func cpuSamples(ms ...int) func() (time.Duration, error) {
	return func() (time.Duration, error) {
		if len(ms) == 0 {
			return 0, errors.New("no more samples")
		}
		v := time.Duration(ms[0]) * time.Millisecond
		ms = ms[1:]
		return v, nil
	}
}

func TestUntilQuiet_ReturnsAtTheFirstWindowAtOrBelowTheMost(t *testing.T) {
	const window, most, limit = 200 * time.Millisecond, 20 * time.Millisecond, time.Second
	for _, c := range []struct {
		name    string
		samples []int // cumulative CPU ms: before the first window, then after each
		quiet   bool
		waited  time.Duration
	}{
		{"quiet at once", []int{100, 100}, true, window},
		{"at the most is quiet", []int{100, 120}, true, window},
		{"over the most is not", []int{100, 121, 141}, true, 2 * window},
		{"busy, then quiet", []int{0, 300, 600, 650, 660}, true, 4 * window},
		{"never quiet within the limit", []int{0, 100, 200, 300, 400, 500}, false, limit},
	} {
		var slept time.Duration
		quiet, waited, err := untilQuiet(cpuSamples(c.samples...), func(d time.Duration) { slept += d }, window, most, limit)
		if err != nil || quiet != c.quiet || waited != c.waited || slept != waited {
			t.Errorf("%s: untilQuiet = %v, %v, %v (slept %v); want %v, %v, nil", c.name, quiet, waited, err, slept, c.quiet, c.waited)
		}
	}
}

func TestUntilQuiet_AFailingSampleEndsTheWait(t *testing.T) {
	quiet, _, err := untilQuiet(cpuSamples(0, 300), func(time.Duration) {}, time.Millisecond, 0, time.Second)
	if quiet || err == nil {
		t.Errorf("untilQuiet = %v, %v; want false and the sampler's error", quiet, err)
	}
}

func TestTreeCPU_CountsTheProcessItself(t *testing.T) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skip("no /proc here")
	}
	self, err := parseCPU(string(stat))
	if err != nil {
		t.Fatal(err)
	}
	got, err := treeCPU(os.Getpid())
	if err != nil || got < self {
		t.Errorf("treeCPU(self) = %v, %v; want at least the process's own %v", got, err, self)
	}
	if _, err := treeCPU(-1); err == nil {
		t.Error("treeCPU of no process: no error")
	}
}
