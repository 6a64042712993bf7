package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/limits"
)

// Grade runs `leaselab grade`: it grades a student's implementation of the
// fencing lab's functions, or with -lab courier the courier lab's (package
// engine/grade) — a Python module, or
// with -cmd any program that speaks the grader's protocol — step by step
// beside the contract, in a fresh temporary directory. Exit: ExitPass
// when every test passed, ExitFail at a difference, ExitBadInput when the
// student's code could not be run at all (with why) or bad flags.
func Grade(args []string, o IO) int {
	c := newCommand("grade", o, "leaselab grade [-lab fencing|courier] [-lang en|ko] [-format text|gradescope|junit] [-o FILE] [-timeline FILE] [-weights FILE] student.py\n"+
		"       leaselab grade [flags] -cmd 'PROGRAM ARGS...'\n\n"+
		"Grades an implementation of the fencing lab's functions (init_db, enqueue, state, claim, renew,\n"+
		"complete, release, claim_many) against the contract: the lab's steps in order, the library's\n"+
		"stories, each mutant's timeline (a build with -tags mutants), races, and a random search.\n"+
		"With -lab courier, the courier lab's (init_db, enqueue, state, claim_next, finish, send, receive):\n"+
		"its steps, two processes claiming at once, an old holder's late finish against a new claim_next,\n"+
		"the stories and mutants' timelines its functions can tell, and the search. Each failed test is charged to the rule its first difference breaks (the\n"+
		"function of the call that differs), and each rule keeps or loses its points whole: the report ends\n"+
		"with the score by rule (-weights). Each function's arguments and answer: the guide's \"Grading\n"+
		"your students' code\" (web/guide.html) or go doc ./engine/grade; a Gradescope autograder's\n"+
		"setup.sh and run_autograder: the same section's Gradescope paragraph.")
	f := gradeFlagsOf(c)
	if code, done := c.parse(args); done {
		return code
	}
	var files []string // flags may follow the module too
	for rest := c.fs.Args(); len(rest) > 0; rest = c.fs.Args() {
		files = append(files, rest[0])
		if code, done := c.parse(rest[1:]); done {
			return code
		}
	}
	if !slices.Contains(grade.Langs(), *f.lang) || !slices.Contains(grade.Labs(), *f.lab) || !slices.Contains([]string{"text", "gradescope", "junit"}, *f.format) ||
		(*f.cmdLine == "") == (len(files) != 1) {
		c.fs.Usage()
		return ExitBadInput
	}
	weights, err := readWeights(*f.lab, *f.weightsFile)
	if err != nil {
		fmt.Fprintf(o.Stderr, "leaselab grade: -weights %s: %v\n", *f.weightsFile, err)
		return ExitBadInput
	}
	// unrun says the student's code could not be run; the machine formats
	// still get their file, a failed test saying why.
	unrun := func(err error) int {
		fmt.Fprintln(o.Stderr, "leaselab grade: cannot run the student's code:", err)
		if *f.format != "text" {
			u := grade.Unrun(*f.lab, err)
			u.Weights = weights
			if err := report(o.Stdout, u, *f.out, *f.format, *f.lang, ""); err != nil {
				fmt.Fprintln(o.Stderr, "leaselab grade:", err)
			}
		}
		return ExitBadInput
	}
	opts, cleanup, err := student(*f.lab, *f.cmdLine, files)
	if err != nil {
		return unrun(err)
	}
	defer cleanup()
	opts.CallTimeout, opts.TotalTimeout, opts.Sequences, opts.Rounds, opts.FailFast = *f.callMax, *f.totalMax, *f.seqs, *f.rounds, *f.failFast
	opts.Sandbox.User = *f.runAs
	r, err := gradeStoppable(opts, o)
	if err != nil {
		var b *grade.Broken
		if errors.As(err, &b) {
			return unrun(err)
		}
		fmt.Fprintln(o.Stderr, "leaselab grade:", err)
		return ExitBadInput
	}
	r.Simulator, r.Weights = *f.sim, weights
	if err := report(o.Stdout, r, *f.out, *f.format, *f.lang, *f.tlOut); err != nil {
		fmt.Fprintln(o.Stderr, "leaselab grade:", err)
		return ExitBadInput
	}
	if first := r.First(); first != nil {
		if *f.tlOut != "" && first.Failure.Timeline == "" {
			fmt.Fprintf(o.Stderr, "leaselab grade: -timeline: no timeline reproduces the first difference (%s); %s not written\n", first.Name, *f.tlOut)
		}
		return ExitFail
	}
	return ExitPass
}

// gradeFlags are leaselab grade's flags, as parsed.
type gradeFlags struct {
	lab, lang, format, out, tlOut, cmdLine, sim, runAs, weightsFile *string
	callMax, totalMax                                               *time.Duration
	seqs, rounds                                                    *int
	failFast                                                        *bool
}

// gradeFlagsOf declares leaselab grade's flags on c.
func gradeFlagsOf(c *command) gradeFlags {
	var f gradeFlags
	d := limits.DefaultGrading
	f.lab = c.fs.String("lab", grade.Fencing, "the lab graded: "+strings.Join(grade.Labs(), ", "))
	f.lang = c.fs.String("lang", "en", "language of the report: "+strings.Join(grade.Langs(), ", "))
	f.format = c.fs.String("format", "text", "text, gradescope (results.json) or junit (JUnit XML); the last two are written even at exit 2, one failed test saying why the code could not run")
	f.out = c.fs.String("o", "", "write the report to FILE instead of standard output")
	f.tlOut = c.fs.String("timeline", "", "write the timeline that reproduces the first difference to FILE (not written when none can, as for a receive or a race)")
	f.cmdLine = c.fs.String("cmd", "", "the student's program, speaking the protocol on stdin/stdout (instead of a Python module);\nits own output must go to stderr: anything else on stdout fails the test it is written in")
	f.callMax = c.fs.Duration("call-timeout", time.Duration(d.CallMs)*time.Millisecond, "the longest one answer may take (grade_call_ms)")
	f.totalMax = c.fs.Duration("timeout", time.Duration(d.TotalMs)*time.Millisecond, "the longest the whole run may take (grade_total_ms)")
	f.seqs = c.fs.Int("sequences", d.Sequences, "how many random call sequences the search tries (grade_sequences)")
	f.rounds = c.fs.Int("rounds", d.Rounds, "how many rounds each race runs (grade_rounds)")
	f.failFast = c.fs.Bool("fail-fast", false, "stop at the first failed test (the score then counts only the tests that ran)")
	f.sim = c.fs.String("simulator", grade.DefaultSimulator, "the simulator page the report's link opens the first difference in (leaselab serve's, or your course's)")
	f.runAs = c.fs.String("user", "", "run the student's code as this unprivileged user (a name or uid; the grader must run as root): it then cannot read the grader or its results, nor write outside its directory")
	f.weightsFile = c.fs.String("weights", "", "read each rule's points from `FILE`: a line \"RULE POINTS\" for every rule of the lab, # for a comment\n(default: 100 in all, as go doc ./engine/grade's Scoring says)")
	return f
}

// gradeStoppable grades as opts says until SIGTERM or SIGINT, which stop
// the student's programs at once: the report is then of the tests graded
// so far, the rest failed as stopped by the platform. Every process the
// student's code started is gone when it returns, a daemon that left its
// parent included: this process adopts orphans and kills them.
func gradeStoppable(opts grade.Options, o IO) (*grade.Report, error) {
	grade.SetSubreaper()
	defer grade.KillOrphans()
	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sig)
	ended := make(chan struct{})
	defer close(ended)
	go func() {
		var s os.Signal
		select {
		case s = <-sig:
		case <-ended:
			return
		}
		fmt.Fprintf(o.Stderr, "leaselab grade: %v: stopping the student's code and writing what was graded\n", s)
		stop(grade.ErrStopped)
		// The grading ends at its next answer or limit; should it not, the
		// platform's time is the grader's bound.
		select {
		case <-ended:
		case <-time.After(time.Duration(limits.DefaultGrading.StopMs) * time.Millisecond):
			grade.KillOrphans()
			fmt.Fprintln(o.Stderr, "leaselab grade: could not stop in time; no report written")
			os.Exit(ExitBadInput)
		}
	}()
	return grade.Grade(ctx, opts)
}

// student is the options of a run of the student's code for lab: the program
// cmdLine (run in a fresh directory, its paths the user's), or the Python
// module files[0] under the adapter; and what removes the run's directory.
func student(lab, cmdLine string, files []string) (grade.Options, func(), error) {
	if cmdLine == "" {
		return pythonStudent(lab, files[0])
	}
	opts, cleanup, err := studentDir()
	opts.LabName = lab
	f := strings.Fields(cmdLine)
	opts.Program = grade.Program{Command: f[0], Args: f[1:]}
	return opts, cleanup, err
}

// report writes r in format (text in lang, gradescope or junit) to stdout,
// or to the file out when it is not "", and the timeline that reproduces
// the first difference to tlOut when it is not "" and there is one.
func report(stdout io.Writer, r *grade.Report, out, format, lang, tlOut string) error {
	if out != "" {
		return writeAtomically(out, func(w io.Writer) error { return report(w, r, "", format, lang, tlOut) })
	}
	w := stdout
	var err error
	switch format {
	case "gradescope":
		err = grade.WriteGradescope(w, r)
	case "junit":
		err = grade.WriteJUnit(w, r)
	default:
		grade.WriteText(w, r, lang)
	}
	if err != nil {
		return err
	}
	if first := r.First(); first != nil && tlOut != "" && first.Failure.Timeline != "" {
		return os.WriteFile(tlOut, []byte(first.Failure.Timeline), 0o644)
	}
	return nil
}

// writeAtomically writes the file path with write: to a new file beside
// it, renamed over path once whole, so a reader never sees half a report
// nor anything another process put at path before.
func writeAtomically(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // gone once renamed; the leftover of a failure otherwise
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// readWeights is the rules' points of lab in the file named, nil (the
// defaults) when none is.
func readWeights(lab, name string) (grade.Weights, error) {
	if name == "" {
		return nil, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return grade.ParseWeights(lab, f)
}

// studentDir is a run's fresh directory, and what removes it.
func studentDir() (grade.Options, func(), error) {
	dir, err := grade.TempDir()
	if err != nil {
		return grade.Options{}, nil, err
	}
	return grade.Options{Dir: dir}, func() { os.RemoveAll(dir) }, nil
}

// pythonStudent is a run of the Python module at module, in a fresh
// directory.
func pythonStudent(lab, module string) (grade.Options, func(), error) {
	if _, err := os.Stat(module); errors.Is(err, fs.ErrNotExist) {
		return grade.Options{}, nil, notThere(module)
	} else if err != nil {
		return grade.Options{}, nil, err
	}
	o, cleanup, err := studentDir()
	if err != nil {
		return o, nil, err
	}
	o.LabName = lab
	if o.Program, err = grade.PythonLab(lab, module, o.Dir); err != nil {
		cleanup()
		return o, nil, err
	}
	return o, cleanup, nil
}

// submittedMost bounds the names notThere gives.
const submittedMost = 20

// notThere is the error of a module that is not at module: which files
// its folder holds (its Python files first, then the others, up to
// submittedMost, hidden ones left out), so that a student whose file is
// named otherwise sees the name they gave it.
func notThere(module string) error {
	dir := filepath.Dir(module)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s is not there; there is no folder %s", module, dir)
	}
	var py, other []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
		case e.IsDir():
			other = append(other, name+"/")
		case strings.EqualFold(filepath.Ext(name), ".py"):
			py = append(py, name)
		default:
			other = append(other, name)
		}
	}
	names := append(py, other...)
	if len(names) == 0 {
		return fmt.Errorf("%s is not there; the folder is empty", module)
	}
	list := strings.Join(names[:min(len(names), submittedMost)], ", ")
	if n := len(names) - submittedMost; n > 0 {
		list += fmt.Sprintf(", and %d more", n)
	}
	return fmt.Errorf("%s is not there; the folder holds: %s", module, list)
}
