package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Chromium resets its processes' kernel high-water mark (VmHWM in
// /proc/PID/status) while they run — seen here: a renderer's VmHWM fell
// from 215 MB to 186 MB between two reads — so the peak is sampled instead.

// peakSampler samples the resident set of every renderer of one browser
// and keeps, per process, the largest it saw. A peak shorter than the
// interval can fall between two samples: the figure is a lower bound.
type peakSampler struct {
	mu   sync.Mutex
	max  map[int]float64 // largest resident set seen, bytes, by process id
	err  error           // the first failure to list the renderers
	stop chan struct{}
	done chan struct{}
}

// Sampling intervals: the resident set of the known renderers is read
// every samplePeriod (/proc/PID/statm, cheap), the list of renderers is
// read again every rescanPeriod (a walk of /proc).
const (
	samplePeriod = 20 * time.Millisecond
	rescanPeriod = 200 * time.Millisecond
)

// samplePeaks starts sampling the renderers of the browser whose process id
// is browser, until close.
func samplePeaks(browser int) *peakSampler {
	p := &peakSampler{max: map[int]float64{}, stop: make(chan struct{}), done: make(chan struct{})}
	go p.run(browser)
	return p
}

func (p *peakSampler) run(browser int) {
	defer close(p.done)
	tick := time.NewTicker(samplePeriod)
	defer tick.Stop()
	var pids []int
	var scanned time.Time
	for {
		if time.Since(scanned) >= rescanPeriod {
			found, err := rendererPIDs(browser)
			if err != nil {
				p.mu.Lock()
				if p.err == nil { // the first failure; a lasting one would repeat every rescan
					p.err = err
				}
				p.mu.Unlock()
			}
			pids, scanned = found, time.Now()
		}
		for _, pid := range pids {
			rss, err := residentBytes(pid)
			if err != nil {
				continue // exited meanwhile
			}
			p.mu.Lock()
			p.max[pid] = max(p.max[pid], rss)
			p.mu.Unlock()
		}
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
	}
}

// peak returns the largest resident set sampled for pid, and false if
// none was.
func (p *peakSampler) peak(pid int) (float64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.max[pid]
	return v, ok
}

// close stops the sampling and returns the first error it met, if any.
func (p *peakSampler) close() error {
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

var errStatm = errors.New("malformed /proc/PID/statm")

// residentBytes reads a process's resident set from /proc/PID/statm.
func residentBytes(pid int) (float64, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "statm"))
	if err != nil {
		return 0, err
	}
	return parseStatm(b, os.Getpagesize())
}

// parseStatm reads the resident set, in bytes, from the text of
// /proc/PID/statm: "size resident shared text lib data dt", in pages.
func parseStatm(text []byte, pageSize int) (float64, error) {
	f := bytes.Fields(text)
	if len(f) < 2 {
		return 0, errStatm
	}
	pages, err := strconv.ParseUint(string(f[1]), 10, 64)
	if err != nil {
		return 0, errStatm
	}
	return float64(pages) * float64(pageSize), nil
}
