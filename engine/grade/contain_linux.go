package grade

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// containEnv carries a contained start's plan (a containPlan in JSON)
// from the grader to the copy of its own binary that applies it: the
// grader starts /proc/self/exe, whose init finds the variable, sets the
// limits, mounts, user and environment, and executes the student's
// program in its place. Go cannot set a child's resource limits or
// mounts between fork and exec itself.
const containEnv = "LEASELAB_GRADE_CONTAIN"

// containPlan is what the contained start applies before it executes
// the student's program.
type containPlan struct {
	Path   string   `json:"path"`
	Args   []string `json:"args"`
	Env    []string `json:"env"`
	Limits rlimits  `json:"limits"`
	UID    uint32   `json:"uid,omitempty"`
	GID    uint32   `json:"gid,omitempty"`
	// Mounts is true in a mount and PID namespace of the program's own:
	// it mounts that namespace's /proc, where no process of the grader's
	// shows.
	Mounts bool `json:"mounts,omitempty"`
}

func init() {
	if plan := os.Getenv(containEnv); plan != "" {
		os.Exit(runContained(plan))
	}
}

// runContained applies plan and executes its program; it returns only
// when that fails, with the exit status to end with (127 as a shell's
// "command not found").
func runContained(plan string) int {
	var p containPlan
	if err := json.Unmarshal([]byte(plan), &p); err != nil {
		fmt.Fprintln(os.Stderr, "leaselab grade: a contained start without its plan:", err)
		return 127
	}
	if err := p.apply(); err != nil {
		fmt.Fprintln(os.Stderr, "leaselab grade: cannot contain the student's program:", err)
		return 127
	}
	err := syscall.Exec(p.Path, p.Args, p.Env)
	fmt.Fprintf(os.Stderr, "leaselab grade: cannot start %s: %v\n", p.Path, err)
	return 127
}

// apply sets the plan's mounts, limits and user on this process.
func (p *containPlan) apply() error {
	if p.Mounts {
		if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
			return fmt.Errorf("mount /proc: %w", err)
		}
	}
	l := p.Limits
	set := []struct {
		res int
		v   uint64
	}{{syscall.RLIMIT_CPU, l.CPUSeconds}, {syscall.RLIMIT_AS, l.MemoryBytes}, {syscall.RLIMIT_FSIZE, l.FileBytes},
		{syscall.RLIMIT_NOFILE, l.OpenFiles}, {syscall.RLIMIT_CORE, 0}, {rlimitNproc, l.Processes}}
	for _, r := range set {
		if r.v == 0 && r.res != syscall.RLIMIT_CORE {
			continue
		}
		if err := syscall.Setrlimit(r.res, &syscall.Rlimit{Cur: r.v, Max: r.v}); err != nil {
			return fmt.Errorf("resource limit %d: %w", r.res, err)
		}
	}
	if p.UID == 0 {
		return nil
	}
	if err := syscall.Setgroups(nil); err != nil {
		return fmt.Errorf("setgroups: %w", err)
	}
	if err := syscall.Setgid(int(p.GID)); err != nil {
		return fmt.Errorf("setgid: %w", err)
	}
	if err := syscall.Setuid(int(p.UID)); err != nil {
		return fmt.Errorf("setuid: %w", err)
	}
	return nil
}

// rlimitNproc is RLIMIT_NPROC, which package syscall does not name.
const rlimitNproc = 6

// worldTmp are the directories anyone may write, which a student run as
// a user of its own may have left files in.
var worldTmp = []string{"/tmp", "/var/tmp", "/dev/shm"}

// namespacesWork says whether this process may give a child PID and mount
// namespaces of its own; it asks the kernel once, by starting a contained
// `true`.
var namespacesWork = sync.OnceValue(func() bool {
	if os.Geteuid() != 0 {
		return false
	}
	t, err := exec.LookPath("true")
	if err != nil {
		return false
	}
	cmd := exec.Command(t)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWPID | syscall.CLONE_NEWNS, Unshareflags: syscall.CLONE_NEWNS}
	return cmd.Run() == nil
})

// contain sets cmd to start contained under plan: the program is this
// binary (containEnv in its environment), in a process group of its own,
// killed if the grader dies, in PID and mount namespaces of its own where
// the kernel allows (ownPIDs then true).
func contain(cmd *exec.Cmd, s Sandbox, c *credential, dir string, totalSeconds int64) (ownPIDs bool, err error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Env = studentEnv(dir)
	if s.Off {
		return false, nil
	}
	path, err := exec.LookPath(cmd.Path)
	if err != nil {
		return false, err
	}
	plan := containPlan{Path: path, Args: cmd.Args, Env: cmd.Env, Limits: newRlimits(totalSeconds, c != nil)}
	if c != nil {
		plan.UID, plan.GID = c.uid, c.gid
	}
	if namespacesWork() {
		plan.Mounts = true
		cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWPID | syscall.CLONE_NEWNS
		cmd.SysProcAttr.Unshareflags = syscall.CLONE_NEWNS
	}
	js, err := json.Marshal(plan)
	if err != nil {
		return false, err
	}
	cmd.Path = "/proc/self/exe"
	cmd.Args = append([]string{"leaselab-grade-contained"}, cmd.Args[1:]...)
	cmd.Env = []string{containEnv + "=" + string(js)}
	return plan.Mounts, nil
}

// killAll kills the program proc, its process group and every process
// of its: in its own PID namespace, killing proc ends them all; otherwise
// the processes descended from it (tree, collected while it lived) and
// the group.
func killAll(proc *os.Process, tree []int) {
	proc.Kill()
	syscall.Kill(-proc.Pid, syscall.SIGKILL) // a group outlives its leader while it has members
	for _, q := range tree {
		syscall.Kill(q, syscall.SIGKILL)
	}
}

// endUser kills every process of the user c and removes the files it
// left in the world-writable directories but keep (the run's own
// directory); nil c does nothing.
func endUser(c *credential, keep string) {
	if c == nil {
		return
	}
	killUser(c.uid)
	sweepUser(c, keep)
}

// descendants are the processes under pid, read from /proc: a program's
// children and theirs, whatever session or group they moved to.
func descendants(pid int) []int {
	kids := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		q, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := parentOf(q); pp > 0 {
			kids[pp] = append(kids[pp], q)
		}
	}
	var out []int
	for next := []int{pid}; len(next) > 0; {
		q := next[0]
		next = append(next[1:], kids[q]...)
		out = append(out, kids[q]...)
	}
	return out
}

// parentOf is the parent of process q, from /proc/q/stat; 0 when q is
// gone.
func parentOf(q int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(q) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command's name may hold spaces and parentheses
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(f[1])
	return pp
}

// killUser kills every process of uid until none is left (a process that
// forks as it is killed is caught by the next round), within a second.
func killUser(uid uint32) {
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		found := false
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			q, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			var st syscall.Stat_t
			if syscall.Stat("/proc/"+e.Name(), &st) == nil && st.Uid == uid {
				found = true
				syscall.Kill(q, syscall.SIGKILL)
			}
		}
		if !found {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sweepUser removes what c left in the world-writable temporary
// directories but keep, once its processes are gone.
func sweepUser(c *credential, keep string) {
	keep = filepath.Clean(keep)
	for _, d := range worldTmp {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			if p == keep {
				continue
			}
			var st syscall.Stat_t
			if syscall.Lstat(p, &st) == nil && st.Uid == c.uid {
				os.RemoveAll(p)
			}
		}
	}
}

// SetSubreaper makes this process the one that inherits the orphans of
// its descendants (a daemon that left its parent), so that KillOrphans
// can end them: for a program whose only children are students'
// (leaselab grade). Elsewhere than on Linux it does nothing.
func SetSubreaper() error {
	const prSetChildSubreaper = 36
	_, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	if e != 0 {
		return e
	}
	return nil
}

// KillOrphans kills every descendant of this process and reaps those
// that are its children: for the end of a program that called
// SetSubreaper.
func KillOrphans() {
	self := os.Getpid()
	for range 10 {
		ds := descendants(self)
		if len(ds) == 0 {
			return
		}
		for _, q := range ds {
			syscall.Kill(q, syscall.SIGKILL)
		}
		for _, q := range ds {
			if parentOf(q) == self {
				var ws syscall.WaitStatus
				syscall.Wait4(q, &ws, syscall.WNOHANG, nil)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}
