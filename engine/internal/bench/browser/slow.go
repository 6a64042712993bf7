package main

import (
	"sync"
	"syscall"
	"time"
)

// DevTools' CPU throttling (Emulation.setCPUThrottlingRate) slows a page's
// main thread only. Measured here with a busy loop of the same length on
// both: at rate 4 the main thread took 4.5x as long, a Web Worker 0.9x. The
// simulator runs its engine in a Web Worker and V8 compiles WebAssembly on
// background threads, so DevTools' throttling would slow the official
// build's main-thread cycle and leave most of leaselab's work at full speed.
//
// slowdown slows every thread of every renderer alike instead, as a slower
// processor would: it stops the browser's renderer processes (SIGSTOP) for
// (factor-1)/factor of each period and lets them run (SIGCONT) for the
// rest. The renderers are listed again every period, so a new one is
// slowed from its first period on.
type slowdown struct {
	stop chan struct{}
	done chan struct{}

	mu      sync.Mutex
	stopped map[int]bool // renderers this slowdown stopped and has not resumed
}

// slowPeriod is one stop-and-run cycle: short beside every figure measured
// under it (hundreds of milliseconds), long beside a scheduler tick.
const slowPeriod = 20 * time.Millisecond

// slowDown starts running the renderers of the browser whose process id is
// browser at 1/factor of their speed (factor >= 1), until close.
func slowDown(browser int, factor float64) *slowdown {
	s := &slowdown{stop: make(chan struct{}), done: make(chan struct{}), stopped: map[int]bool{}}
	go s.run(browser, factor)
	return s
}

func (s *slowdown) run(browser int, factor float64) {
	defer close(s.done)
	running := time.Duration(float64(slowPeriod) / factor)
	var pids []int
	for {
		// Every period: a page's renderer is often new with its tab, and a
		// page that is done in 300 ms must not run its first 200 unslowed.
		if found, err := rendererPIDs(browser); err == nil {
			pids = found
		}
		s.signal(pids, syscall.SIGCONT)
		if s.wait(running) {
			return
		}
		s.signal(pids, syscall.SIGSTOP)
		if s.wait(slowPeriod - running) {
			s.resume()
			return
		}
	}
}

// wait sleeps for d and reports whether close was called meanwhile.
func (s *slowdown) wait(d time.Duration) bool {
	select {
	case <-s.stop:
		return true
	case <-time.After(d):
		return false
	}
}

// signal sends sig to pids; a process that has exited is skipped.
func (s *slowdown) signal(pids []int, sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pid := range pids {
		if syscall.Kill(pid, sig) != nil {
			continue
		}
		if sig == syscall.SIGSTOP {
			s.stopped[pid] = true
		} else {
			delete(s.stopped, pid)
		}
	}
}

// resume lets every renderer this slowdown stopped run again.
func (s *slowdown) resume() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for pid := range s.stopped {
		syscall.Kill(pid, syscall.SIGCONT)
		delete(s.stopped, pid)
	}
}

// close ends the slowdown; every renderer runs at full speed again when it
// returns.
func (s *slowdown) close() {
	close(s.stop)
	<-s.done
	s.resume()
}
