package grade

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"

	"github.com/leaselab/leaselab/engine/limits"
)

// Sandbox is how a student's programs are contained. Every program the
// grader starts runs in a process group of its own with a scrubbed
// environment and resource limits (CPU time, memory, file size, open
// files, core dumps), and the grader kills all of it — the program and
// every process it started, a daemon that left its session included —
// at every end of the program: an answer given, a hang, a limit, the
// grader's own end or a stop. Where the kernel allows it (Linux, as root),
// each program is also the first process of a PID namespace of its own,
// so it sees no process of the grader's and cannot signal one, and its
// whole namespace dies with it.
//
// What a sandbox does not contain without a user of its own: a program
// run as the grader's user can read what that user can (the grader's
// binary, the files beside it) and write where that user can. Set User,
// which needs root, for that.
type Sandbox struct {
	// User, when not "", is the user the student's programs run as: a
	// name or a numeric uid. It needs the grader to run as root. The
	// programs then cannot read a file that user cannot, nor write outside
	// their directory (the world-writable temporary directories are
	// emptied of that user's files at the end), nor signal the grader,
	// and a process count limit holds; Dir is made theirs.
	User string
	// Off, when true, runs the student's programs as plain children of the
	// grader (a trusted program, a platform that contains them itself):
	// their process group is still killed at every end.
	Off bool
}

// ErrNeedsRoot is the error of a Sandbox whose User is set when the
// grader does not run as root.
var ErrNeedsRoot = errors.New("grade: running the student's code as another user needs the grader to run as root")

// credential is a resolved Sandbox.User.
type credential struct {
	uid, gid uint32
	name     string
}

// lookupUser resolves name (a user name or a numeric uid) to its uid and
// primary gid, refusing root itself: a student run as root is no
// student contained.
func lookupUser(name string) (*credential, error) {
	if name == "" {
		return nil, nil
	}
	if os.Geteuid() != 0 {
		return nil, ErrNeedsRoot
	}
	u, err := user.Lookup(name)
	if err != nil {
		if u, err = user.LookupId(name); err != nil {
			return nil, fmt.Errorf("grade: no user %q to run the student's code as: %w", name, err)
		}
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("grade: user %q has no numeric uid and gid (%s, %s)", name, u.Uid, u.Gid)
	}
	if uid == 0 {
		return nil, fmt.Errorf("grade: user %q is root: the student's code must run as an unprivileged user", name)
	}
	return &credential{uid: uint32(uid), gid: uint32(gid), name: u.Username}, nil
}

// giveDir makes dir and everything in it belong to c, so the student's
// programs can write their database files there; nil c leaves it.
func giveDir(dir string, c *credential) error {
	if c == nil {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, int(c.uid), int(c.gid))
	})
}

// studentEnv is the whole environment a student's program gets: a PATH to
// find its interpreter, its directory as HOME and TMPDIR, a UTF-8 locale;
// nothing of the grader's own.
func studentEnv(dir string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	return []string{"PATH=" + path, "HOME=" + dir, "TMPDIR=" + dir, "LANG=C.UTF-8", "LC_ALL=C.UTF-8",
		"PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1"}
}

// rlimits are the resource limits a student's program runs under, from
// limits.DefaultGrading and the run's total time.
type rlimits struct {
	CPUSeconds  uint64 `json:"cpu"`
	MemoryBytes uint64 `json:"mem"`
	FileBytes   uint64 `json:"fsize"`
	OpenFiles   uint64 `json:"nofile"`
	Processes   uint64 `json:"nproc"` // 0: no limit (the count is per user: only with a user of the student's own)
}

func newRlimits(totalSeconds int64, ownUser bool) rlimits {
	d := limits.DefaultGrading
	if totalSeconds <= 0 {
		totalSeconds = d.TotalMs / 1000
	}
	r := rlimits{CPUSeconds: uint64(totalSeconds) + 1, MemoryBytes: uint64(d.MemoryBytes), FileBytes: uint64(d.FileBytes), OpenFiles: 1024}
	if ownUser {
		r.Processes = uint64(d.Processes)
	}
	return r
}

// dirBytes is the bytes of the regular files under dir, counted up to
// stop: the student's directory's use of the disk.
func dirBytes(dir string, stop int64) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			n += fi.Size()
		}
		if n > stop {
			return filepath.SkipAll
		}
		return nil
	})
	return n
}
