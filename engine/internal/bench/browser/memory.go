package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// memory is one process's memory in bytes: its resident set and the part of
// it no other process maps (private clean + private dirty, the USS).
type memory struct{ RSS, Private float64 }

// renderers returns the memory of every renderer process of the browser
// whose process id is browser (a descendant of it started with
// --type=renderer), by process id. Other browsers on the machine are not
// its descendants and are left out.
func renderers(browser int) (map[int]memory, error) {
	pids, err := rendererPIDs(browser)
	if err != nil {
		return nil, err
	}
	out := map[int]memory{}
	for _, pid := range pids {
		text, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "smaps_rollup"))
		if err != nil {
			continue // exited meanwhile
		}
		m, err := parseRollup(string(text))
		if err != nil {
			return nil, fmt.Errorf("renderer %d: %w", pid, err)
		}
		out[pid] = m
	}
	return out, nil
}

// rendererPIDs returns the process ids of the renderers of the browser
// whose process id is browser.
func rendererPIDs(browser int) ([]int, error) {
	procs, err := processes()
	if err != nil {
		return nil, err
	}
	parents := map[int]int{}
	for pid, p := range procs {
		parents[pid] = p.ppid
	}
	var out []int
	for pid := range procs {
		cmd, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if err == nil && isRenderer(string(cmd)) && descends(parents, pid, browser) {
			out = append(out, pid)
		}
	}
	return out, nil
}

// process is what /proc/PID/stat said of one process: its parent's process
// id and the whole text.
type process struct {
	ppid int
	stat string
}

// processes returns every process of the machine by process id, as
// /proc/PID/stat says; a process that exits while they are read is left out.
func processes() (map[int]process, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	out := map[int]process{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone meanwhile
		}
		ppid, err := parsePPID(string(stat))
		if err != nil {
			continue
		}
		out[pid] = process{ppid: ppid, stat: string(stat)}
	}
	return out, nil
}

// isRenderer reports whether the text of /proc/PID/cmdline is a Chromium
// renderer's. Its arguments are NUL-separated, or, once Chromium has
// rewritten its process title, space-separated.
func isRenderer(cmdline string) bool {
	sep := func(r rune) bool { return r == 0 || r == ' ' }
	for _, arg := range strings.FieldsFunc(cmdline, sep) {
		if arg == "--type=renderer" {
			return true
		}
	}
	return false
}

// descends reports whether pid has ancestor among its parents (pid -> ppid).
func descends(parents map[int]int, pid, ancestor int) bool {
	for seen := 0; seen < len(parents); seen++ {
		ppid, ok := parents[pid]
		if !ok || ppid == 0 {
			return false
		}
		if ppid == ancestor {
			return true
		}
		pid = ppid
	}
	return false
}

var errStat = errors.New("malformed /proc/PID/stat")

// parsePPID reads the parent's process id from the text of /proc/PID/stat:
// "pid (comm) state ppid ...", where comm may hold spaces and parentheses.
func parsePPID(stat string) (int, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errStat
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 2 {
		return 0, errStat
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, errStat
	}
	return ppid, nil
}

var errRollup = errors.New("malformed /proc/PID/smaps_rollup")

// parseRollup reads Rss and Private_Clean + Private_Dirty (kB) from the text
// of /proc/PID/smaps_rollup, in bytes.
func parseRollup(text string) (memory, error) {
	var m memory
	seen := 0
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var dst *float64
		switch key {
		case "Rss":
			dst = &m.RSS
		case "Private_Clean", "Private_Dirty":
			dst = &m.Private
		default:
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return memory{}, fmt.Errorf("%w: %q", errRollup, sc.Text())
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return memory{}, fmt.Errorf("%w: %q", errRollup, sc.Text())
		}
		*dst += kb * 1024
		seen++
	}
	if seen != 3 {
		return memory{}, fmt.Errorf("%w: want Rss, Private_Clean and Private_Dirty", errRollup)
	}
	return m, nil
}

// vanished returns the one process id of before that is not in after; ok is
// false unless exactly one vanished.
func vanished(before, after map[int]memory) (pid int, ok bool) {
	n := 0
	for p := range before {
		if _, still := after[p]; !still {
			pid = p
			n++
		}
	}
	return pid, n == 1
}
