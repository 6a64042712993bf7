package command

import (
	"container/list"
	"net"
	"net/http"
	"sync"
)

// connCap holds a server to at most max open connections, closing idle
// ones first: an idle keep-alive connection, or one accepted that has not
// yet sent a request, is closed (oldest first) to make room for a new
// one, so a client that opens thousands and leaves them idle cannot use
// up the process's file descriptors and starve new requests. Only when
// every connection is busy with a request does Accept hold the one new
// connection it accepted until one ends (the kernel's backlog holds the
// others meanwhile).
//
// Wrap the listener with listener and set the server's ConnState to
// track: the cap counts the connections its listener accepted until the
// server reports them closed or hijacked.
type connCap struct {
	max int

	mu    sync.Mutex
	conns map[net.Conn]*list.Element // every open connection; its place in idle, nil while busy
	idle  *list.List                 // idle connections, the longest idle first
	freed chan struct{}              // a token when a connection closes or goes idle
}

func newConnCap(max int) *connCap {
	return &connCap{
		max:   max,
		conns: map[net.Conn]*list.Element{},
		idle:  list.New(),
		freed: make(chan struct{}, 1),
	}
}

// listener returns ln held to the cap.
func (c *connCap) listener(ln net.Listener) net.Listener {
	return &cappedListener{Listener: ln, cap: c, closed: make(chan struct{})}
}

// track is the server's ConnState hook.
func (c *connCap) track(conn net.Conn, state http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, open := c.conns[conn]
	if !open {
		return // evicted: counted out when it was closed
	}
	switch state {
	case http.StateActive:
		if e != nil {
			c.idle.Remove(e)
			c.conns[conn] = nil
		}
	case http.StateIdle:
		if e == nil {
			c.conns[conn] = c.idle.PushBack(conn)
		}
		c.signal()
	case http.StateClosed, http.StateHijacked:
		if e != nil {
			c.idle.Remove(e)
		}
		delete(c.conns, conn)
		c.signal()
	}
}

// signal wakes an Accept waiting for room; the lock is held.
func (c *connCap) signal() {
	select {
	case c.freed <- struct{}{}:
	default:
	}
}

// room reports whether one more connection may be accepted, closing the
// longest idle connection if that makes room.
func (c *connCap) room() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.conns) < c.max {
		return true
	}
	front := c.idle.Front()
	if front == nil {
		return false
	}
	conn := c.idle.Remove(front).(net.Conn)
	delete(c.conns, conn)
	conn.Close()
	return true
}

// add counts a connection just accepted, idle until its first request.
func (c *connCap) add(conn net.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conns[conn] = c.idle.PushBack(conn)
}

// open is the number of connections counted.
func (c *connCap) open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.conns)
}

type cappedListener struct {
	net.Listener
	cap       *connCap
	closed    chan struct{}
	closeOnce sync.Once
}

// Accept accepts a connection, then makes room for it under the cap: an
// idle connection is closed only for a new one that has arrived, and with
// every connection busy the new one waits, accepted but not yet served
// (the one connection over the cap), for one to go idle or close.
func (l *cappedListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	for !l.cap.room() {
		select {
		case <-l.cap.freed:
		case <-l.closed:
			conn.Close()
			return nil, net.ErrClosed
		}
	}
	l.cap.add(conn)
	return conn, nil
}

// Close closes the listener and ends an Accept waiting for room.
func (l *cappedListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}
