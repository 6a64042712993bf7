// Command loadbench measures, for make bench, what the worst texts a
// visitor can send cost the native server and the command: it builds
// leaselab, serves it on 127.0.0.1 with a fresh database, and plays
//
//   - the worst timeline within every limit (a job id of name_bytes,
//     claimed next on every one of steps lines), alone and 12 at once;
//   - the hostile texts found against it (ids of 100 KB and 30 KB claimed
//     next 2,000 and 1,500 times), 12 at once;
//   - 30 clients that post the worst timeline and never read the answer;
//
// while a probe asks GET /api/jobs every 20 ms. It prints the server's
// peak resident memory (VmHWM, reset before each) in each scenario and the slowest answer
// to the probe, each beside its goal (met or MISSED), then the peak
// memory of each command (trace, check, transcript, export gotest) on
// the worst timeline. A missed goal is a line, not a failure. Every
// request goes to the loopback address; each scenario ends by itself.
//
//	go run ./engine/internal/bench/load
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/leaselab/leaselab/engine/internal/testkit/redteam"
	"github.com/leaselab/leaselab/engine/limits"
)

func main() {
	rssGoal := flag.Int("rss-goal", 600, "the most MB of resident memory the server and each command may reach")
	latencyGoal := flag.Duration("latency-goal", time.Second, "the slowest answer to another request under load")
	flag.Parse()
	if err := run(int64(*rssGoal)<<20, *latencyGoal); err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

func run(rssGoal int64, latencyGoal time.Duration) error {
	dir, err := os.MkdirTemp("", "loadbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "leaselab")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	worst := redteam.Amplifier(limits.Default.NameBytes, limits.Default.Steps)
	srv, err := startServer(bin, dir)
	if err != nil {
		return err
	}
	defer srv.stop()

	fmt.Printf("bounded answers: the native server (goals: peak RSS <= %d MB, other requests answered <= %v)\n", rssGoal>>20, latencyGoal)
	for _, sc := range []struct {
		name    string
		text    string
		clients int
		reads   bool
	}{
		{"worst timeline within the limits, alone", worst, 1, true},
		{"worst timeline within the limits, 12 at once", worst, 12, true},
		{"hostile texts (100 KB and 30 KB ids), 12 at once", "", 12, true},
		{"30 clients that never read the worst timeline's answer", worst, 30, false},
	} {
		// Each scenario's own peak: writing 5 to clear_refs resets VmHWM
		// to the current resident memory.
		os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", srv.cmd.Process.Pid), []byte("5"), 0)
		codes, slowest, err := srv.scenario(sc.text, sc.clients, sc.reads)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		peak, err := vmHWM(srv.cmd.Process.Pid)
		if err != nil {
			return err
		}
		fmt.Printf("  %-58s answers %-22s peak RSS %4d MB %s, probe %5d ms %s\n", sc.name, codes, peak>>20,
			verdict(peak <= rssGoal), slowest.Milliseconds(), verdict(slowest <= latencyGoal))
	}

	fmt.Printf("bounded answers: the command on the worst timeline (goal: peak RSS <= %d MB)\n", rssGoal>>20)
	src := filepath.Join(dir, "worst.tl")
	if err := os.WriteFile(src, []byte(worst), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"trace", src}, {"check", src}, {"transcript", src}, {"export", "gotest", src}} {
		peak, out, err := commandPeak(bin, args)
		if err != nil {
			return fmt.Errorf("leaselab %s: %w", strings.Join(args[:len(args)-1], " "), err)
		}
		fmt.Printf("  leaselab %-22s %9d bytes out, peak RSS %4d MB %s\n", strings.Join(args[:len(args)-1], " "), out,
			peak>>20, verdict(peak <= rssGoal))
	}
	return nil
}

func verdict(met bool) string {
	if met {
		return "met"
	}
	return "MISSED"
}

// server is leaselab serve running on a free loopback port.
type server struct {
	cmd  *exec.Cmd
	base string
}

func startServer(bin, dir string) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	web := filepath.Join(dir, "web")
	if err := os.Mkdir(web, 0o755); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", "-addr", addr, "-web", web, "-db", filepath.Join(dir, "leaselab.db"))
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, base: "http://" + addr}
	for range 200 {
		if resp, err := http.Get(s.base + "/api/jobs"); err == nil {
			resp.Body.Close()
			return s, nil
		}
		time.Sleep(25 * time.Millisecond) // the server starting, not engine time
	}
	s.stop()
	return nil, fmt.Errorf("the server on %s did not answer within 5 s", addr)
}

func (s *server) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// scenario posts text from clients at once (the hostile texts in turn when
// text is ""), reading each answer when reads is set, while a probe asks
// GET /api/jobs every 20 ms; it returns the answers' status codes counted
// and the probe's slowest answer.
func (s *server) scenario(text string, clients int, reads bool) (string, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	probe := make(chan time.Duration, 1)
	stopProbe := make(chan struct{})
	go func() { probe <- s.probe(ctx, stopProbe) }()

	hostile := []string{redteam.Amplifier(100_000, 2000), redteam.Amplifier(30_000, 1500)}
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	var conns []net.Conn
	for i := range clients {
		body := text
		if body == "" {
			body = hostile[i%len(hostile)]
		}
		if !reads {
			c, err := s.postUnread(body)
			if err != nil {
				return "", 0, err
			}
			conns = append(conns, c)
			continue
		}
		wg.Go(func() {
			code := s.post(ctx, body)
			mu.Lock()
			codes[code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if !reads {
		time.Sleep(2 * time.Second) // the server runs and holds the unread answers
	}
	close(stopProbe)
	slowest := <-probe
	for _, c := range conns {
		c.Close()
	}
	if !reads {
		return "never read", slowest, nil
	}
	var parts []string
	for _, code := range []int{200, 400, 503, 0} {
		if n := codes[code]; n > 0 {
			parts = append(parts, fmt.Sprintf("%dx%d", n, code))
		}
	}
	return strings.Join(parts, " "), slowest, nil
}

// post posts text to /api/timeline and reads the whole answer; 0 is a
// request that failed.
func (s *server) post(ctx context.Context, text string) int {
	req, err := http.NewRequestWithContext(ctx, "POST", s.base+"/api/timeline", strings.NewReader(text))
	if err != nil {
		return 0
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// postUnread sends a POST of text on a connection of its own and never
// reads the answer.
func (s *server) postUnread(text string) (net.Conn, error) {
	c, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetReadBuffer(4096) // a small window: the server's writes block soon
	}
	w := bufio.NewWriter(c)
	fmt.Fprintf(w, "POST /api/timeline HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n%s",
		strings.TrimPrefix(s.base, "http://"), len(text), text)
	return c, w.Flush()
}

// probe asks GET /api/jobs every 20 ms until stop, and returns its slowest
// answer (a failed request counts as the time it took to fail).
func (s *server) probe(ctx context.Context, stop <-chan struct{}) time.Duration {
	var slowest time.Duration
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return slowest
		case <-tick.C:
		}
		start := time.Now()
		req, _ := http.NewRequestWithContext(ctx, "GET", s.base+"/api/jobs", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		slowest = max(slowest, time.Since(start))
	}
}

// vmHWM is the peak resident memory of process pid, from /proc.
func vmHWM(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}

// commandPeak runs leaselab with args and returns its peak resident memory
// and the bytes it wrote on standard output.
func commandPeak(bin string, args []string) (int64, int, error) {
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, io.Discard
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		return 0, 0, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, out.Len(), fmt.Errorf("no resource usage on this system")
	}
	return ru.Maxrss << 10, out.Len(), nil
}
