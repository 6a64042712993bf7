//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/httpapi/httpapitest"
)

// WorkerTestEnv, set to 1, runs the contract suite against the built Worker
// under wrangler dev with a local D1 (make worker-test sets it, after
// building the Worker and installing wrangler). Unset, the test skips: a
// plain go test needs no Node.
const WorkerTestEnv = "LEASELAB_WORKER_TEST"

// The same contract suite that runs against serve.go's handler, against
// the Worker: wrangler dev --local on 127.0.0.1 with a local D1 in a
// temporary directory, the schema applied by the D1 migrations.
func TestContract_Wrangler(t *testing.T) {
	if os.Getenv(WorkerTestEnv) != "1" {
		t.Skipf("%s is not 1: make worker-test runs this against wrangler and D1", WorkerTestEnv)
	}
	for _, f := range []string{"build/app.wasm", "build/worker.mjs"} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%v: build the Worker first (make worker)", err)
		}
	}
	wrangler, err := filepath.Abs(filepath.Join("node_modules", ".bin", "wrangler"))
	if err == nil {
		_, err = os.Stat(wrangler)
	}
	if err != nil {
		t.Fatalf("%v: install the pinned wrangler first (npm ci in this directory; make worker-test does it)", err)
	}
	persist := t.TempDir()

	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	apply := exec.CommandContext(ctx, wrangler, "d1", "migrations", "apply", "DB", "--local", "--persist-to", persist)
	apply.Env = wranglerEnv()
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("wrangler d1 migrations apply: %v\n%s", err, out)
	}
	migrated := time.Since(began)

	started := time.Now()
	base := startDev(t, wrangler, persist, "--var", "LEASELAB_CLOCK:client")
	ready := time.Since(started)

	suite := time.Now()
	// Each random sequence takes about 1.2 s through wrangler's local D1 on
	// 2 loaded cores; 12 of them keep the Worker's lease part near 20 s
	// while the native contract tests play the suite's default 60.
	httpapitest.Run(t, httpapitest.Target{BaseURL: base, Timeline: false, Sequences: 12})
	t.Logf("wrangler %s: migrations applied in %v, dev ready in %v, contract suite in %v",
		base, migrated.Round(time.Millisecond), ready.Round(time.Millisecond), time.Since(suite).Round(time.Millisecond))

	// The server-clock mode, as wrangler.toml's [vars] sets it.
	t.Run("ServerClock", func(t *testing.T) {
		httpapitest.RunServerClock(t, startDev(t, wrangler, persist))
	})
}

// startDev starts wrangler dev --local on a free loopback port over the
// local D1 in persist, with extra arguments, and returns its base URL once
// it answers; the test's cleanup stops its process group.
func startDev(t *testing.T, wrangler, persist string, extra ...string) string {
	t.Helper()
	port, inspector := freePort(t), freePort(t)
	args := append([]string{"dev", "--local", "--ip", "127.0.0.1", "--port", port,
		"--inspector-port", inspector, "--persist-to", persist, "--show-interactive-dev-session=false"}, extra...)
	dev := exec.Command(wrangler, args...)
	dev.Env = wranglerEnv()
	var log lockedBuffer
	dev.Stdout, dev.Stderr = &log, &log
	dev.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // its own process group, stopped whole
	if err := dev.Start(); err != nil {
		t.Fatal("wrangler dev:", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- dev.Wait() }()
	t.Cleanup(func() { stopGroup(t, dev.Process.Pid, exited) })
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("wrangler dev's output:\n%s", log.String())
		}
	})
	base := "http://127.0.0.1:" + port
	if err := waitReady(base, exited, 2*time.Minute); err != nil {
		t.Fatalf("wrangler dev on %s: %v", base, err)
	}
	return base
}

func wranglerEnv() []string {
	return append(os.Environ(), "CI=true", "WRANGLER_SEND_METRICS=false", "NO_COLOR=1")
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// waitReady polls the API until it answers GET /api/jobs with 200, the
// process exits, or limit passes.
func waitReady(base string, exited <-chan error, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	hc := &http.Client{Timeout: 10 * time.Second}
	var last error
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("exited before it was ready: %v", err)
		default:
		}
		resp, err := hc.Get(base + "/api/jobs")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = errors.New(resp.Status)
		}
		last = err
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("not ready in %v: %v", limit, last)
}

// stopGroup ends the process group of pid: SIGTERM, then SIGKILL if it
// has not exited in ten seconds.
func stopGroup(t *testing.T, pid int, exited <-chan error) {
	syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Logf("wrangler dev ignored SIGTERM; killing its process group")
		syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
	}
	// workerd may outlive wrangler's node process in the same group.
	syscall.Kill(-pid, syscall.SIGKILL)
}

// lockedBuffer collects a process's output from its two pipes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
