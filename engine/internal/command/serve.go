// Package command is the leaselab command: its subcommands, their usage
// and their exit statuses. The module's main program calls Main through
// the public engine/command; everything the command does is here, so it
// is tested here.
//
// The commands: check (timelines run as tests, a table each), trace (the
// JSON trace), transcript (each step's line, outcome and sentence, in
// English or Korean), export gotest (a Go test that replays a timeline),
// prerender (a built course site's timelines, run ahead of time), lab (a
// lease lab's sweep, its table, CSV, plot and stories), mutants
// and explore (the broken engines a build holds, and the shortest
// timelines that tell them apart) are the course author's tools; history
// (a recorded concurrent history of calls, checked for linearizability
// against the contract's model, and its picture) is the tester's; serve is
// the simulator's server. Each tool takes a file, or - for standard input,
// and -h, and exits the same way: ExitPass, ExitFail when an expectation
// failed or an invariant broke unannounced, ExitBadInput for a file that
// cannot be read or parsed, bad flags, or an answer over its limit. Run
// leaselab alone for the usage.
//
// leaselab serve serves the page's folder at / (engine/internal/webserve, through an
// os.Root: nothing outside the folder is read, symbolic links included) and
// the HTTP API at /api/ (engine/httpapi, whose package documentation is
// the API's reference) over a SQLite file. What keeps it safe to run:
//
//   - Host: on a loopback address (the default) it answers only to the
//     Hosts 127.0.0.1:PORT, localhost:PORT, [::1]:PORT and its exact
//     address, and 421 to any other (a page whose name was rebound to
//     127.0.0.1, DNS rebinding). On another address nothing is guarded
//     and anyone who reaches it may write: keep it on loopback.
//   - Cross-origin: a browser's write from a page of another origin is 403
//     and changes nothing; same-origin pages, curl and other clients that
//     are no browser keep working.
//   - Clock: -clock client (the default, for virtual clocks) takes each
//     request's "now" from 0 up to httpapi.MaxClockLead (1 s) ahead of
//     this server's clock; -clock server takes every time from this
//     server's clock and refuses a request that carries "now".
//   - Connections (serveLimits): headers within 5 s and 64 KiB, a whole
//     request within 20 s (a stalled body is dropped then), an answer
//     within 60 s of the headers, an idle connection kept 30 s, at most
//     1024 connections at once (at the cap a new one closes the longest
//     idle one).
//   - Requests: JSON bodies up to 64 KiB, timeline texts up to
//     limits.Default.TextBytes, a timeline run up to 10 s, at most
//     2xGOMAXPROCS runs at once (503 with Retry-After beyond).
package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/httpapi/sqliteapi"
	"github.com/leaselab/leaselab/engine/internal/webserve"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Main runs the leaselab command with args (without the program's name)
// and returns its exit status. With no arguments it prints the usage and
// returns 2: it never starts a server or creates a file unasked.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := IO{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitBadInput
	}
	switch args[0] {
	case "serve":
		return serveCommand(args[1:], stdout, stderr)
	case "check":
		return Check(args[1:], o)
	case "trace":
		return Trace(args[1:], o)
	case "transcript":
		return Transcript(args[1:], o)
	case "export":
		return Export(args[1:], o)
	case "mutants":
		return Mutants(args[1:], o)
	case "explore":
		return Explore(args[1:], o)
	case "grade":
		return Grade(args[1:], o)
	case "prerender":
		return Prerender(args[1:], o)
	case "lab":
		return Lab(args[1:], o)
	case "history":
		return History(args[1:], o)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return ExitPass
	}
	fmt.Fprintf(stderr, "leaselab: unknown command %q\n\n%s", args[0], usage)
	return ExitBadInput
}

const usage = `usage: leaselab COMMAND [flags] [FILE|-]

Commands (each takes -h):
  check       run timelines as tests, a table each     leaselab check [-lang en|ko] [-mutant NAME] [-library] [-impl student.py] FILE|- ...
  transcript  a timeline step by step, in words        leaselab transcript [-lang en|ko] [-mutant NAME] FILE|-
  trace       a timeline's trace as JSON               leaselab trace [-lang en|ko] [-mutant NAME] FILE|-
  export      a Go test that replays a timeline        leaselab export gotest [-name TestName] FILE|-
  mutants     the broken engines this build holds      leaselab mutants [-lang en|ko]
  explore     find the shortest timeline that tells a  leaselab explore (-mutant NAME | -engine NAME [-property INV] | -all)
              broken engine apart or breaks an invariant
  grade       grade a student's fencing-lab code        leaselab grade [-lang en|ko] [-format text|gradescope|junit] student.py
              against the contract, step by step
  prerender   run a built course site's timelines ahead leaselab prerender SITE_DIR
              of time, so its pages draw them at once
  lab         a lease lab: policies swept over seeded  leaselab lab [-json] [-csv out.csv] [-svg out.svg] [-seed N] [-story P:worst] FILE|-
              runs on the engine, a table and a plot
  history     check a recorded concurrent history for  leaselab history [-html out.html] [-timeout 10s] FILE|-
              linearizability against the contract
  serve       the simulator and the HTTP API           leaselab serve [-addr 127.0.0.1:8080] [-web web] [-db leaselab.db] [-clock client|server]

A FILE of - reads standard input.
Exit status: 0 every expectation held; 1 an expectation failed or an invariant
broke unannounced; 2 bad input (a file that cannot be read or parsed, bad flags).
`

func serveCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	webDir := fs.String("web", "web", "directory of the page's assets")
	dbPath := fs.String("db", "leaselab.db", "SQLite file of the HTTP API's queue (created if missing; rollback journal)")
	clock := fs.String("clock", "client", "whose clock the API reads times on: client (a request may carry now; the teaching mode) or server (a request that carries now is refused)")
	usage := func(w io.Writer) {
		fs.SetOutput(w)
		fmt.Fprintln(w, "usage: leaselab serve [-addr 127.0.0.1:8080] [-web web] [-db leaselab.db] [-clock client|server]")
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	fs.Usage = func() {} // flag would print it before telling -h apart
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return 0
		}
		usage(stderr)
		return 2
	}
	mode, err := httpapi.ParseClockMode(*clock)
	if err != nil {
		fmt.Fprintln(stderr, "leaselab: -clock:", err)
		return 2
	}
	site, err := webserve.OpenDir(*webDir) // nothing outside it is served, links included
	if err != nil {
		fmt.Fprintln(stderr, "leaselab:", err)
		return 1
	}
	defer site.Close()
	db, err := sqlitedb.Open(*dbPath)
	if err != nil {
		fmt.Fprintln(stderr, "leaselab:", err)
		return 1
	}
	defer db.Close()
	api, err := sqliteapi.New(context.Background(), db, httpapi.WithClockMode(mode)) // the HTTP API (engine/httpapi) over the file
	if err != nil {
		fmt.Fprintln(stderr, "leaselab:", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "leaselab:", err)
		return 1
	}
	log.Printf("leaselab: serving %s on http://%s/", *webDir, ln.Addr())
	log.Printf("leaselab: HTTP API on http://%s/api/ over %s, clock mode %s", ln.Addr(), *dbPath, mode)
	srv, ln := newServer(siteHandler(site, api, ln.Addr()), serveLimits, ln)
	// Ctrl-C or SIGTERM: finish the requests in flight, then close the
	// database, so no write is cut off half-way by the server itself.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "leaselab:", err)
		return 1
	}
	return 0
}
