package command

import (
	"os"
	"testing"
)

// asCommand, set in a test binary's environment, makes it the leaselab
// command: a test that runs a script calling leaselab points it at this
// binary.
const asCommand = "LEASELAB_TEST_BINARY_IS_THE_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
