// Command leaselab runs the simulator's server and the timeline tools.
//
//	leaselab serve [-addr 127.0.0.1:8080] [-web web] [-db leaselab.db]
//	leaselab check FILE...   run timelines, print a table each, exit 1 on a failed expectation, 2 on bad input
//	leaselab trace FILE      print a timeline's JSON trace
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		args = []string{"serve"}
	}
	switch args[0] {
	case "serve":
		return serveCommand(args[1:], stderr)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "leaselab: unknown command %q\n%s\n", args[0], usage)
	return 2
}

const usage = `usage:
  leaselab serve [-addr 127.0.0.1:8080] [-web web]`

func serveCommand(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	webDir := fs.String("web", "web", "directory of the page's assets")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(*webDir)))
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "leaselab:", err)
		return 1
	}
	log.Printf("leaselab: serving %s on http://%s/", *webDir, ln.Addr())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(stderr, "leaselab:", err)
		return 1
	}
	return 0
}
