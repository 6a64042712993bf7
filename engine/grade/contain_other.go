//go:build !linux

package grade

import (
	"errors"
	"os"
	"os/exec"
)

// errNoUserHere is the error of a Sandbox.User where the grader cannot
// run a program as another user.
var errNoUserHere = errors.New("grade: running the student's code as another user needs Linux")

// contain gives cmd the student's environment: here, outside Linux, the
// program runs as a plain child of the grader.
func contain(cmd *exec.Cmd, s Sandbox, c *credential, dir string, totalSeconds int64) (ownPIDs bool, err error) {
	if c != nil {
		return false, errNoUserHere
	}
	cmd.Env = studentEnv(dir)
	return false, nil
}

// killAll kills the program proc.
func killAll(proc *os.Process, tree []int) { proc.Kill() }

// descendants are not known here.
func descendants(pid int) []int { return nil }

// endUser has nothing to end here: no program runs as another user.
func endUser(c *credential, keep string) {}

// SetSubreaper does nothing outside Linux.
func SetSubreaper() error { return nil }

// KillOrphans does nothing outside Linux.
func KillOrphans() {}
