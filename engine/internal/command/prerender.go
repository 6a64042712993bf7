package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/limits"
)

// Prerender runs `leaselab prerender SITE_DIR`: every timeline of a built
// course site's HTML (the <lease-timeline> elements and the
// ```lease-timeline fences, with their options) is run natively and its
// trace written into the site's leaselab bundle of this version
// (SITE_DIR/.../leaselab-VERSION/prerendered/), where the player finds it
// and draws it without fetching the engine (see engine/internal/coursesite). A
// worksheet needs the mutants: in a build without them it is skipped, with
// a line saying so. It reads and writes only inside SITE_DIR: a page that
// is a symbolic link out of it, a FIFO or a device, or whose HTML does not
// parse, is refused with a line naming it, and a page over the limit
// page_bytes is skipped with one; the rest of the site is prerendered. It
// returns ExitBadInput for a site that cannot be read, holds no bundle of
// this version, has a bundle it refuses to write into, a refused page, a
// timeline that does not parse, or an answer over the build's budget
// (limits.PrerenderRows: named with its page and line, nothing written
// for it; the others are written); ExitFail for a
// fence it cannot read (a directive with a key that is no option, a text
// with no step: an error naming the page and line, nothing written for
// it) and when a timeline's expectations fail on the correct engine (its
// trace is written all the same); ExitPass otherwise.
func Prerender(args []string, o IO) int {
	c := newCommand("prerender", o, "leaselab prerender SITE_DIR\n\n"+
		"Runs every timeline of a built course site (its <lease-timeline> elements and ```lease-timeline\n"+
		"fences) and writes the traces into the site's leaselab-"+coursesite.Version()+" bundle (prerendered/), so\n"+
		"its pages draw them at once, without the engine. Worksheets need a build with the mutants:\n"+
		"go run -tags mutants . prerender SITE_DIR\n\n"+
		"A fence it cannot read (a directive with keys that are no option, a text with no step) is\n"+
		"named with its page and line, and nothing is written for it: exit status 1.")
	if code, done := c.parse(args); done {
		return code
	}
	if c.fs.NArg() != 1 {
		c.fs.Usage()
		return ExitBadInput
	}
	rep, err := coursesite.Prerender(context.Background(), c.fs.Arg(0), o.Stderr)
	if err != nil {
		fmt.Fprintln(o.Stderr, "leaselab prerender:", err)
		return ExitBadInput
	}
	fmt.Fprintf(o.Stdout, "prerendered %d timelines (%d worksheets) from %d pages into %s\n",
		rep.Timelines, rep.Worksheets, rep.Pages, strings.Join(rep.Bundles, ", "))
	if rep.Labs > 0 {
		fmt.Fprintf(o.Stdout, "prerendered %d labs: each one's result and plot\n", rep.Labs)
	}
	if rep.Skipped > 0 {
		fmt.Fprintf(o.Stdout, "skipped %d worksheets: this build has no mutants (%d known)\n", rep.Skipped, len(mutant.All()))
	}
	if rep.PagesSkipped > 0 {
		fmt.Fprintf(o.Stdout, "skipped %d pages over the limit %s (see above)\n", rep.PagesSkipped, limits.PageRow)
	}
	if rep.PagesRefused > 0 {
		fmt.Fprintf(o.Stdout, "BAD INPUT: %d pages refused or not parsed (see above); the others are prerendered\n", rep.PagesRefused)
	}
	if rep.Bad > 0 {
		fmt.Fprintf(o.Stdout, "BAD INPUT: %d timelines do not parse (see above); the page shows their errors\n", rep.Bad)
	}
	if rep.OverBudget > 0 {
		fmt.Fprintf(o.Stdout, "BAD INPUT: %d answers pass the build's budget (see above): not prerendered; the page runs them on the engine\n", rep.OverBudget)
	}
	if rep.Unreadable > 0 {
		fmt.Fprintf(o.Stdout, "FAIL: %d fences cannot be read (see above): nothing written for them; the page shows why\n", rep.Unreadable)
	}
	if rep.Failed > 0 {
		fmt.Fprintf(o.Stdout, "FAIL: %d timelines failed an expectation on the correct engine (see above)\n", rep.Failed)
	}
	switch {
	case rep.PagesRefused > 0 || rep.Bad > 0 || rep.OverBudget > 0:
		return ExitBadInput
	case rep.Unreadable > 0 || rep.Failed > 0:
		return ExitFail
	}
	return ExitPass
}
