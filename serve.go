// Command leaselab runs the simulator's server and the timeline tools: a
// course author's and a student's command. Run it with no arguments for
// its usage; package engine/command is the whole of it.
package main

import (
	"os"

	"github.com/leaselab/leaselab/engine/command"
)

func main() {
	os.Exit(command.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
