package command

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Exit statuses.
const (
	ExitPass     = 0 // every expectation held, no invariant broke unannounced
	ExitFail     = 1 // an expectation failed, or an invariant broke unannounced
	ExitBadInput = 2 // a file could not be read or parsed, or bad flags
)

// exitCodes is the paragraph every command's -h ends with.
const exitCodes = `
Exit status: 0 every expectation held; 1 an expectation failed or an invariant
broke unannounced; 2 bad input (a file that cannot be read or parsed, bad flags).`

// IO is where a command reads standard input and writes its output.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// command is one command's flag set, with the usage -h prints.
type command struct {
	fs    *flag.FlagSet
	io    IO
	usage string // "leaselab NAME [flags] FILE|-" and what it does
	// exits is the paragraph -h ends with, when the command's exit
	// statuses are not exitCodes'.
	exits string
	// tl is the timeline run last parsed, when it parsed (its trace leaves
	// out how a service's clock jumps and drifts).
	tl *timeline.Timeline
}

func newCommand(name string, o IO, usage string) *command {
	c := &command{fs: flag.NewFlagSet(name, flag.ContinueOnError), io: o, usage: usage}
	c.fs.SetOutput(o.Stderr)
	c.fs.Usage = func() { c.printUsage(o.Stderr) }
	return c
}

func (c *command) printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: "+c.usage)
	c.fs.SetOutput(w)
	c.fs.PrintDefaults()
	c.fs.SetOutput(c.io.Stderr)
	if c.exits != "" {
		fmt.Fprintln(w, c.exits)
		return
	}
	fmt.Fprintln(w, exitCodes)
}

// parse parses args; -h prints the usage on standard output only and
// answers done with ExitPass, bad flags print the error and the usage on
// standard error and answer done with ExitBadInput.
func (c *command) parse(args []string) (code int, done bool) {
	usage := c.fs.Usage
	c.fs.Usage = func() {} // flag would print it before telling -h apart
	err := c.fs.Parse(args)
	c.fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.printUsage(c.io.Stdout)
		return ExitPass, true
	case err != nil:
		usage()
		return ExitBadInput, true
	}
	return 0, false
}

// langFlag and mutantFlag are the flags that choose a run's language and
// engine.
func (c *command) langFlag() *string {
	return c.fs.String("lang", "en", "language of the explanations and of this command's words: "+strings.Join(timeline.Langs(), ", "))
}

func (c *command) mutantFlag() *string {
	return c.fs.String("mutant", "", "run on the named broken engine (see leaselab mutants)")
}

// source is one timeline's text and the name it goes by.
type source struct{ name, text string }

// read reads a file, or standard input for "-".
func (c *command) read(path string) (source, error) {
	if path == "-" {
		b, err := io.ReadAll(c.io.Stdin)
		return source{"stdin.tl", string(b)}, err
	}
	b, err := os.ReadFile(path)
	return source{path, string(b)}, err
}

// one reads the single file (or -) the command takes.
func (c *command) one() (source, int, bool) {
	if c.fs.NArg() != 1 {
		c.fs.Usage()
		return source{}, ExitBadInput, false
	}
	src, err := c.read(c.fs.Arg(0))
	if err != nil {
		fmt.Fprintf(c.io.Stderr, "leaselab %s: %v\n", c.fs.Name(), err)
		return source{}, ExitBadInput, false
	}
	return src, 0, true
}

// checkMutant refuses a mutant this build does not have, saying once how
// to get the mutants.
func checkMutant(name string, stderr io.Writer) bool {
	if name == "" {
		return true
	}
	for _, m := range mutant.All() {
		if m.Name == name {
			return true
		}
	}
	fmt.Fprintln(stderr, "leaselab: "+noMutant(name))
	return false
}

// checkLang refuses a language the explanations are not written in.
func checkLang(lang string, stderr io.Writer) bool {
	for _, l := range timeline.Langs() {
		if l == lang {
			return true
		}
	}
	fmt.Fprintf(stderr, "leaselab: -lang %s: the explanations are written in %s\n", lang, strings.Join(timeline.Langs(), ", "))
	return false
}

func noMutant(name string) string {
	if len(mutant.All()) == 0 {
		return fmt.Sprintf("no mutant %q: this build has no mutants; build with the mutants tag (go run -tags mutants . ...)", name)
	}
	return fmt.Sprintf("no mutant %q (leaselab mutants lists them)", name)
}

// printErrors prints a parse error list: the first maxShown mistakes, then
// how many more there are, and the true count.
func printErrors(w io.Writer, err error, lang string) int {
	var list timeline.ErrorList
	if !errors.As(err, &list) {
		fmt.Fprintln(w, err)
		return 1
	}
	const maxShown = 20
	for i, e := range list {
		if i == maxShown {
			fmt.Fprintf(w, wordsFor(lang).more+"\n", len(list)-maxShown, len(list))
			break
		}
		fmt.Fprintln(w, e.In(lang))
	}
	return len(list)
}

// bounded writes an answer through write into a buffer held to the limit
// report_bytes and copies it to out whole. An answer that passes the limit
// stops being written there (write should stop at its first failed write,
// or at least writes no more), nothing of it reaches out, and the excess is
// printed on errOut; it reports whether the answer was given.
func bounded(out, errOut io.Writer, what string, write func(w io.Writer)) bool {
	b := limits.NewBuffer(limits.Default.Row("report_bytes"), what)
	write(b)
	if err := b.Err(); err != nil {
		fmt.Fprintln(errOut, "leaselab:", err)
		return false
	}
	_, err := out.Write(b.Bytes())
	return err == nil
}

// printWarnings prints each of a timeline's warnings on w, as
// "warning: NAME:LINE:COL: message" (the run put them in its language).
func printWarnings(w io.Writer, warnings []string, lang string) {
	for _, m := range warnings {
		fmt.Fprintln(w, wordsFor(lang).warning, m)
	}
}
