package command

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// getOn sends one keep-alive GET / on conn and reads the whole answer,
// leaving conn open.
func getOn(t *testing.T, conn net.Conn, br *bufio.Reader) error {
	t.Helper()
	conn.SetDeadline(time.Now().Add(10 * time.Second)) // a guard against a hang, not a measure
	defer conn.SetDeadline(time.Time{})
	if _, err := fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", conn.RemoteAddr()); err != nil {
		return err
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// More idle keep-alive connections than the cap: the longest idle ones
// are closed to make room, the server never holds more than the cap, the
// newest stay usable, and a new client's request is answered.
func TestServer_IdleConnectionsOverTheCapDoNotStarveANewRequest(t *testing.T) {
	const max, idle = 50, 60
	l := testLimits
	l.MaxConns = max
	l.Idle = 10 * time.Minute // only the cap may close them during the test
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, capped := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}), l, ln)
	go srv.Serve(capped)
	defer srv.Close()

	conns := make([]net.Conn, idle)
	readers := make([]*bufio.Reader, idle)
	for i := range conns {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i], readers[i] = c, bufio.NewReader(c)
		if err := getOn(t, c, readers[i]); err != nil {
			t.Fatalf("idle connection %d: %v", i, err)
		}
	}

	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}
	resp, err := client.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatalf("a new request beside %d idle connections: %v", idle, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a new request: status %d", resp.StatusCode)
	}
	if n := capped.(*cappedListener).cap.open(); n > max {
		t.Fatalf("%d connections open, cap %d", n, max)
	}
	// The server closed as many as the new connections needed (the idle
	// ones past the cap, and one for the new client), all among the longest
	// idle (which of the oldest exactly depends on when the server saw each
	// go idle, which a loaded machine may reorder a little); the newest
	// still answers.
	if closed := closedByServer(conns, readers); len(closed) != idle+1-max || closed[len(closed)-1] >= idle/2 {
		t.Fatalf("the server closed connections %v; want %d of them, all among the %d longest idle", closed, idle+1-max, idle/2)
	}
	if err := getOn(t, conns[idle-1], readers[idle-1]); err != nil {
		t.Fatalf("the newest idle connection: %v", err)
	}
}

// closedByServer is the indexes of conns the server has closed (a read
// ends in EOF), in order. The reads run at once, each for at most half a
// second: a connection the server closed reads EOF at once.
func closedByServer(conns []net.Conn, readers []*bufio.Reader) []int {
	eof := make([]bool, len(conns))
	var wg sync.WaitGroup
	for i := range conns {
		wg.Go(func() {
			conns[i].SetReadDeadline(time.Now().Add(500 * time.Millisecond))
			_, err := readers[i].ReadByte()
			eof[i] = errors.Is(err, io.EOF)
			conns[i].SetReadDeadline(time.Time{})
		})
	}
	wg.Wait()
	var out []int
	for i, closed := range eof {
		if closed {
			out = append(out, i)
		}
	}
	return out
}

// With every connection busy Accept waits; a connection going idle makes
// room (it is closed for the new one), and Close ends a waiting Accept.
func TestConnCap_BusyConnectionsMakeAcceptWaitUntilOneIsIdle(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cc := newConnCap(1)
	capped := cc.listener(ln)
	defer capped.Close()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	type accepted struct {
		conn net.Conn
		err  error
	}
	accept := func() chan accepted {
		ch := make(chan accepted, 1)
		go func() {
			c, err := capped.Accept()
			ch <- accepted{c, err}
		}()
		return ch
	}

	first := dial()
	a := <-accept()
	if a.err != nil {
		t.Fatal(a.err)
	}
	cc.track(a.conn, http.StateActive)
	dial()
	waiting := accept()
	select {
	case got := <-waiting:
		t.Fatalf("Accept over the cap with every connection busy returned %v, %v", got.conn, got.err)
	default:
	}
	cc.track(a.conn, http.StateIdle)
	b := <-waiting
	if b.err != nil {
		t.Fatalf("Accept once a connection is idle: %v", b.err)
	}
	first.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := first.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("the idle connection made room: read %v, want EOF", err)
	}
	if n := cc.open(); n != 1 {
		t.Fatalf("%d connections counted, want 1", n)
	}

	cc.track(b.conn, http.StateActive)
	waiting = accept()
	capped.Close()
	if got := <-waiting; !errors.Is(got.err, net.ErrClosed) {
		t.Fatalf("Accept waiting at the cap, then Close: %v, %v; want net.ErrClosed", got.conn, got.err)
	}
	cc.track(b.conn, http.StateClosed)
	if n := cc.open(); n != 0 {
		t.Fatalf("%d connections counted after the last closed, want 0", n)
	}
}
