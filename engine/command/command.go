// Package command is the leaselab command line as a function: the
// module's main program is a call to Main. It is public only because a
// program at the module's root must reach it; it carries no compatibility
// promise beyond Main's signature, and the subcommands, their flags and
// their output are documented by the command itself (run it with no
// arguments, or a subcommand with -h).
package command

import (
	"io"

	"github.com/leaselab/leaselab/engine/internal/command"
)

// Main runs the command line args (without the program's name) over the
// given standard streams and returns the exit status: 0 every expectation
// held, 1 an expectation failed or an invariant broke unannounced, 2 bad
// input.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return command.Main(args, stdin, stdout, stderr)
}
