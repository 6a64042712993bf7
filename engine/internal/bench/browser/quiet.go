package main

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// A new tab sets headless Chromium's own interface to work. Chromium 156
// renders its omnibox popup (chrome://omnibox-popup.top-chrome, a WebUI
// page in a renderer of its own) for every tab it opens, whatever the tab
// will load: measured here, 650 ms of that renderer's CPU and 250 ms of
// the browser process's in the 600 ms after the tab opened, nothing after,
// and nothing for a navigation in a tab already open. A page navigated at
// once shares the machine's 2 cores with that work, and a page that takes
// longer to its first result shares more of it, so every figure of a cold
// load would carry the browser's own noise, the slower side's the most.
// open therefore waits, between making the tab and navigating it, until
// the browser and all its processes are quiet.
const (
	// quietWindow is how long the browser must stay below quietCPU.
	quietWindow = 200 * time.Millisecond
	// quietCPU is the most CPU time the browser's processes may use in a
	// quietWindow and be called quiet: a tenth of one core.
	quietCPU = quietWindow / 10
	// quietLimit is how long open waits at most. With every renderer
	// slowed 4x (slow.go), the omnibox's work stretches to 2-3 s.
	quietLimit = 10 * time.Second
)

// clockTick is the unit of /proc/PID/stat's times: USER_HZ, 100 on Linux.
const clockTick = 10 * time.Millisecond

// untilQuiet samples the CPU time used so far (cpu) every window until the
// time used in one window is at most most, or limit has passed, sleeping
// with sleep between samples. It reports whether it found the machine
// quiet and how long it waited; a failing sample ends the wait with the
// error.
func untilQuiet(cpu func() (time.Duration, error), sleep func(time.Duration), window, most, limit time.Duration) (bool, time.Duration, error) {
	last, err := cpu()
	if err != nil {
		return false, 0, err
	}
	var waited time.Duration
	for waited < limit {
		sleep(window)
		waited += window
		now, err := cpu()
		if err != nil {
			return false, waited, err
		}
		if now-last <= most {
			return true, waited, nil
		}
		last = now
	}
	return false, waited, nil
}

// waitQuiet waits until the browser whose process id is browser and all its
// descendants are quiet (see quietWindow), at most quietLimit.
func waitQuiet(browser int) (bool, time.Duration, error) {
	return untilQuiet(func() (time.Duration, error) { return treeCPU(browser) }, time.Sleep, quietWindow, quietCPU, quietLimit)
}

// treeCPU returns the CPU time (user and system) that the process browser
// and every process descending from it have used so far.
func treeCPU(browser int) (time.Duration, error) {
	procs, err := processes()
	if err != nil {
		return 0, err
	}
	if _, ok := procs[browser]; !ok {
		return 0, errors.New("the browser's process is gone")
	}
	parents := map[int]int{}
	for pid, p := range procs {
		parents[pid] = p.ppid
	}
	var total time.Duration
	for pid, p := range procs {
		if pid != browser && !descends(parents, pid, browser) {
			continue
		}
		if cpu, err := parseCPU(p.stat); err == nil {
			total += cpu
		}
	}
	return total, nil
}

// parseCPU reads a process's user and system time from the text of
// /proc/PID/stat: the 14th and 15th fields (utime, stime), in clock ticks,
// counted from the pid with comm (which may hold spaces and parentheses)
// as one field.
func parseCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errStat
	}
	f := strings.Fields(stat[i+1:]) // f[0] is the 3rd field, state
	if len(f) < 13 {
		return 0, errStat
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return 0, errStat
		}
		ticks += n
	}
	return time.Duration(ticks) * clockTick, nil
}
