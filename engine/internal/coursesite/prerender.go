package coursesite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/simrun"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Manifest is the bundle's manifest.json (make dist writes it): what the
// bundle is, and each file with its size and Subresource Integrity hash.
type Manifest struct {
	Name     string         `json:"name"`    // "leaselab"
	Version  string         `json:"version"` // Version()
	Format   int            `json:"format"`  // the trace format the player reads
	Revision string         `json:"revision,omitempty"`
	Entry    string         `json:"entry"` // the script a page includes: leaselab.js
	Files    []ManifestFile `json:"files"`
}

// ManifestFile is one file of the bundle.
type ManifestFile struct {
	Path      string `json:"path"` // inside the bundle's folder
	Bytes     int64  `json:"bytes"`
	Integrity string `json:"integrity"` // sha384-BASE64, for <script integrity>
	Brotli    int64  `json:"brotli,omitempty"`
	Gzip      int64  `json:"gzip,omitempty"`
}

// PrerenderedDir is the folder of the bundle that holds the prerendered
// traces and their index (web/prerendered.js reads them).
const PrerenderedDir = "prerendered"

// IndexFormat is the format of prerendered/index.json.
const IndexFormat = 1

// Index is prerendered/index.json.
type Index struct {
	Format  int                     `json:"format"`
	Version string                  `json:"version"`
	Mutants map[string][]MutantInfo `json:"mutants"` // each language's: the names and the rules they break
	Traces  map[string]string       `json:"traces"`  // key -> file in prerendered/
}

// MutantInfo is a mutant's name and the rule it breaks, in one language.
type MutantInfo struct {
	Name   string `json:"name"`
	Breaks string `json:"breaks"`
}

// EmptyIndex is the index of a bundle nothing was prerendered into.
func EmptyIndex() Index {
	return Index{Format: IndexFormat, Version: Version(), Mutants: map[string][]MutantInfo{}, Traces: map[string]string{}}
}

// EncodeIndex is an index as its file holds it.
func EncodeIndex(idx Index) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	err := enc.Encode(idx)
	return b.Bytes(), err
}

// Report is what Prerender did.
type Report struct {
	Bundles    []string // the bundle folders written into, relative to the site
	Pages      int      // HTML pages that hold a timeline, not counting a bundle's own
	Timelines  int      // distinct runs prerendered (a worksheet counts once)
	Worksheets int      // of which worksheets
	Labs       int      // labs run (each writes its result and its plot)
	Skipped    int      // worksheets skipped: this build has no mutants
	Bad        int      // runs whose text is bad input (nothing written for them)
	// Unreadable counts the fences that cannot be read as a timeline (a
	// directive with keys that are no option, a text with no step):
	// nothing is written for them, never a trace of no step.
	Unreadable int
	Failed     int // runs whose correct engine's expectations failed (written all the same)
	// OverBudget counts the answers refused for the build's budget: one
	// over limits.PrerenderFenceBytes, or one that would take its page's
	// answers past limits.PrerenderPageBytes. Nothing is written for one
	// that no other page shares.
	OverBudget int
	// PagesSkipped counts the pages over limits.PageBytes: not read, left
	// to the engine in the browser.
	PagesSkipped int
	// PagesRefused counts the pages not prerendered for what they are: a
	// symbolic link out of the site, not a regular file, unreadable, or
	// HTML that does not parse (nested too deep).
	PagesRefused int
}

// job is one run of a page and where it was found; a run that several
// pages hold is a job of each.
type job struct {
	run   Run
	page  string // the page's slash path in the site
	line  int    // the page's line of the element or fence, 0 when not known
	where string // page: what
}

// Prerender finds every timeline in the HTML of the built site at dir
// (elements and fences, with their options), runs each natively — the
// correct engine, and for a worksheet the mutant beside it
// (simrun.TraceJSON, simrun.WorksheetJSON: the browser's bytes) — and
// writes the answers into the prerendered folder of every leaselab bundle
// of this version in the site, with its index. It tells what it does on
// log.
//
// Every read and write stays inside dir (an os.Root on it): a symbolic
// link is followed only to a file of the site, and only regular files are
// read, at most limits.PageBytes each. A page it cannot read or parse is
// counted in the report and told, naming the page, and the rest of the
// site is prerendered. Each output is written to a temporary file in its
// folder and renamed into place; an output folder, or a file in it that
// Prerender would replace or remove, that is anything but a real folder
// or regular file (a symbolic link, a FIFO) is refused, and nothing is
// written into that bundle.
//
// Each answer is held to the build's budget (limits.PrerenderRows): a run
// stops at the step that takes its trace past what the fence, or its page,
// may take, and is counted in the report and told, naming the limit.
//
// The error is for a site that cannot be read, holds no bundle of this
// version, or has a bundle that cannot be written; a bad timeline is
// counted in the report, and told.
func Prerender(ctx context.Context, dir string, log io.Writer) (Report, error) {
	var rep Report
	root, err := os.OpenRoot(dir)
	if err != nil {
		return rep, err
	}
	defer root.Close()
	bundles, others, pages, err := survey(root, log)
	if err != nil {
		return rep, err
	}
	for _, o := range others {
		fmt.Fprintf(log, "%s: a bundle of leaselab %s, not %s: left alone\n", shown(o.dir), o.version, Version())
	}
	if len(bundles) == 0 {
		return rep, fmt.Errorf("%s holds no leaselab bundle of version %s (a folder %s with its manifest.json, from make dist)", dir, Version(), BundleDir())
	}
	rep.Bundles = bundles
	answers := runAll(ctx, collect(root, pages, log, &rep), log, &rep)
	var errs []error
	for _, b := range bundles {
		if err := writeAnswers(root, b, answers); err != nil {
			errs = append(errs, err)
		}
	}
	return rep, errors.Join(errs...)
}

type otherBundle struct{ dir, version string }

// survey lists the site's bundles of this version, those of other
// versions, and its HTML pages (slash paths relative to the root), not
// counting the pages inside a bundle. It does not enter a symbolic link to
// a folder.
func survey(root *os.Root, log io.Writer) (bundles []string, others []otherBundle, pages []string, err error) {
	err = fs.WalkDir(root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && rel != ".":
			return fs.SkipDir
		case !d.IsDir() && d.Name() == "manifest.json":
			b, err := readFile(root, rel, limits.PageBytes)
			if err != nil {
				fmt.Fprintf(log, "%s: %v: not read\n", shown(rel), err)
				return nil
			}
			var m Manifest
			if json.Unmarshal(b, &m) == nil && m.Name == "leaselab" {
				if m.Version == Version() {
					bundles = append(bundles, path.Dir(rel))
				} else {
					others = append(others, otherBundle{path.Dir(rel), m.Version})
				}
			}
		case !d.IsDir() && strings.EqualFold(path.Ext(rel), ".html"):
			pages = append(pages, rel)
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	// The bundle's own pages (its guide, its examples) are not the site's.
	dirs := slices.Clone(bundles)
	for _, o := range others {
		dirs = append(dirs, o.dir)
	}
	pages = slices.DeleteFunc(pages, func(p string) bool {
		return slices.ContainsFunc(dirs, func(d string) bool { return d == "." || strings.HasPrefix(p, d+"/") })
	})
	return bundles, others, pages, nil
}

// collect finds the timelines of every page and returns each page's
// distinct runs, page after page, in the order found. A page it cannot read or parse is counted and
// told, and skipped.
func collect(root *os.Root, pages []string, log io.Writer, rep *Report) []job {
	var jobs []job
	seen := map[string]bool{}
	for _, page := range pages {
		b, err := readFile(root, page, limits.PageBytes)
		if errors.Is(err, errTooLarge) {
			rep.PagesSkipped++
			fmt.Fprintf(log, "%s: %v: skipped, its timelines left to the engine\n", shown(page), err)
			continue
		}
		if err != nil {
			rep.PagesRefused++
			fmt.Fprintf(log, "%s: %v: refused, not read\n", shown(page), err)
			continue
		}
		found, err := Find(b)
		if err != nil {
			rep.PagesRefused++
			fmt.Fprintf(log, "%s: the HTML does not parse (%v): not prerendered\n", shown(page), err)
			continue
		}
		if len(found) > 0 {
			rep.Pages++
		}
		for i, f := range found {
			where := fmt.Sprintf("%s: timeline %d (%s)", shown(page), i+1, shown(f.Run.Name))
			if f.Unreadable != "" {
				rep.Unreadable++
				fmt.Fprintf(log, "%s: line %d: cannot be read: %s: nothing written for it\n", where, f.Line, f.Unreadable)
				continue
			}
			if f.Src != "" {
				text, err := readSrc(root, page, f.Src)
				if err != nil {
					fmt.Fprintf(log, "%s: src=%q %v: left to the engine\n", where, f.Src, err)
					continue
				}
				f.Run.Text = text
			}
			if k := page + "\x00" + Key(f.Run); !seen[k] {
				seen[k] = true
				jobs = append(jobs, job{run: f.Run, page: page, line: f.Line, where: where})
			}
		}
	}
	return jobs
}

var errNotSiteFile = errors.New("is not a file of the site")

// readSrc reads the file an element's src= names, relative to its page, as
// readFile does; a URL with a scheme, a host or a query, or one that
// leaves the site, is errNotSiteFile.
func readSrc(root *os.Root, page, src string) (string, error) {
	if strings.ContainsAny(src, ":?#") || strings.HasPrefix(src, "/") {
		return "", errNotSiteFile
	}
	p := path.Join(path.Dir(page), src)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", errNotSiteFile
	}
	b, err := readFile(root, p, limits.PageBytes)
	if err != nil {
		return "", fmt.Errorf("%w (%s: %v)", errNotSiteFile, p, err)
	}
	return string(b), nil
}

// runAll runs every job, each distinct run once, and returns the answers
// to write by key. Each answer is held to the build's budget: to
// limits.PrerenderFenceBytes, and to what its page has left of
// limits.PrerenderPageBytes (an answer another page made first counts
// there as well). An answer refused for it is told, naming the limit.
func runAll(ctx context.Context, jobs []job, log io.Writer, rep *Report) map[string][]byte {
	answers := map[string][]byte{}
	sizes := map[string]int{} // of each run made within its room, 0 when it made nothing
	tried := map[string]int{} // the room of each run refused for it
	used := map[string]int{}  // of each page
	for _, j := range jobs {
		k := Key(j.run)
		left := budget.page - used[j.page]
		room := min(budget.fence, left)
		size, made := sizes[k]
		if !made && tried[k] < room {
			if j.run.Kind == KindLab {
				size = runLab(ctx, j, room, log, rep, answers)
			} else {
				var b []byte
				if b, size = runJob(ctx, j, room, log, rep); b != nil {
					answers[k] = b
				}
			}
			if size == overBudget {
				tried[k] = room
			} else {
				sizes[k], made = size, true
			}
		}
		if !made || size > left {
			rep.OverBudget++
			fmt.Fprintf(log, "%s: %s: its answer passes the limit %s: not prerendered, left to the engine\n", j.where, placeOf(j), budgetRow(left))
			continue
		}
		used[j.page] += size
	}
	return answers
}

// budget is the build's budget runAll holds answers to: each answer's
// bytes, and a page's.
var budget = struct{ fence, page int }{limits.PrerenderFenceBytes, limits.PrerenderPageBytes}

// overBudget is the size runJob and runLab give an answer they refused
// for the budget they were given.
const overBudget = -1

// budgetRow is the limit an answer passed with left bytes of its page's
// budget to go: the page's when it had less left than one answer may take.
func budgetRow(left int) limits.Row {
	if left < budget.fence {
		return limits.PrerenderRows[1]
	}
	return limits.PrerenderRows[0]
}

// placeOf is where a job's element or fence is on its page, as the log
// names a place: "line N", or "its place unknown".
func placeOf(j job) string {
	if j.line > 0 {
		return fmt.Sprintf("line %d", j.line)
	}
	return "its place unknown"
}

// runJob runs one run, each trace held to budget bytes, and returns the
// bytes to write and their size; nil and 0 for a run that made nothing
// (told here), nil and overBudget for an answer over budget (told by
// runAll).
func runJob(ctx context.Context, j job, budget int, log io.Writer, rep *Report) ([]byte, int) {
	opts := simrun.Options{Lang: j.run.Lang, TraceBytes: budget}
	var out []byte
	var err error
	if j.run.Mutant != "" {
		if len(mutant.All()) == 0 {
			rep.Skipped++
			fmt.Fprintf(log, "%s: a worksheet (mutant %s): skipped, this build has no mutants (go run -tags mutants . prerender)\n", j.where, shown(j.run.Mutant))
			return nil, 0
		}
		opts.Mutant = j.run.Mutant
		out, err = simrun.WorksheetJSON(ctx, j.run.Name, j.run.Text, opts)
	} else {
		out, err = simrun.TraceJSON(ctx, j.run.Name, j.run.Text, opts)
	}
	if errors.Is(err, limits.ErrExceeded) || len(out) > budget {
		return nil, overBudget
	}
	if err != nil {
		rep.Bad++
		fmt.Fprintf(log, "%s: %v\n", j.where, indent(j.errText(err)))
		return nil, 0
	}
	rep.Timelines++
	if j.run.Mutant != "" {
		rep.Worksheets++
	}
	if !passed(out, j.run.Mutant != "") {
		rep.Failed++
		fmt.Fprintf(log, "%s: an expectation failed or an invariant broke unannounced (leaselab check tells which)\n", j.where)
	}
	return out, len(out)
}

// runLab runs a lab (simrun.LabJSON: the browser's bytes) and adds its
// result, under the run's key with no language, and its plot in the run's
// language, as a JSON string, to answers (prerendered.js prerenderedLab
// reads both), when the two together take at most budget bytes. It returns
// their size: 0 for a lab that made nothing (told here), overBudget for
// one over budget (told by runAll). The lab's time is bounded by its own
// limit lab_calls.
func runLab(ctx context.Context, j job, budget int, log io.Writer, rep *Report, answers map[string][]byte) int {
	res, err := simrun.LabJSON(ctx, j.run.Name, j.run.Text, simrun.LabOptions{})
	var svg string
	if err == nil {
		svg, err = simrun.LabSVG(res, j.run.Lang)
	}
	var plot []byte
	if err == nil {
		plot, err = json.Marshal(svg)
	}
	if err != nil {
		rep.Bad++
		fmt.Fprintf(log, "%s: %v\n", j.where, indent(j.errText(err)))
		return 0
	}
	if len(res)+len(plot) > budget {
		return overBudget
	}
	rep.Labs++
	result := j.run
	result.Lang = ""
	answers[Key(result)] = res
	j.run.Kind = KindLabSVG
	answers[Key(j.run)] = plot
	return len(res) + len(plot)
}

// shown is a name of the site (a page's path, an element's name=) as the
// log prints it: as is, or quoted in Go syntax when it holds a character
// that is not printable, so that a newline or an escape in a file's name
// can neither forge a line of the log nor drive the terminal.
func shown(name string) string {
	if utf8.ValidString(name) && strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) < 0 {
		return name
	}
	return strconv.Quote(name)
}

// errText is err's text for the log, the run's name in it as shown prints
// it (a timeline's errors start with its name).
func (j job) errText(err error) string {
	if n := shown(j.run.Name); n != j.run.Name {
		return strings.ReplaceAll(err.Error(), j.run.Name, n)
	}
	return err.Error()
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

// passed reads whether the correct engine's run held every expectation.
func passed(answer []byte, worksheet bool) bool {
	var tr struct {
		Summary struct {
			Passed bool `json:"passed"`
		} `json:"summary"`
	}
	if worksheet {
		var w struct {
			Correct json.RawMessage `json:"correct"`
		}
		if json.Unmarshal(answer, &w) != nil {
			return false
		}
		answer = w.Correct
	}
	return json.Unmarshal(answer, &tr) == nil && tr.Summary.Passed
}

var answerFile = regexp.MustCompile(`^[0-9a-f]{64}\.json$`)

// writeAnswers writes the answers into the bundle's prerendered folder
// (bundle is a slash path in root), removes the answers of an earlier run
// that are not among them, and writes the index last. Nothing there is
// precompressed: a stale .br or .gz of a file is removed with it. It
// refuses, before writing anything, an output folder that is not a real
// folder and any file there it would replace or remove that is not a
// regular file, naming it.
func writeAnswers(root *os.Root, bundle string, answers map[string][]byte) error {
	out := path.Join(bundle, PrerenderedDir)
	switch st, err := root.Lstat(out); {
	case errors.Is(err, fs.ErrNotExist):
		if err := root.Mkdir(out, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is %s, not a folder: refused, nothing written into it", out, kind(st.Mode()))
	}
	idx := EmptyIndex()
	for _, lang := range timeline.Langs() {
		for _, m := range mutant.All() {
			idx.Mutants[lang] = append(idx.Mutants[lang], MutantInfo{Name: m.Name, Breaks: mutant.Rule(lang, m.Name)})
		}
	}
	for k := range answers {
		idx.Traces[k] = k + ".json"
	}
	entries, err := fs.ReadDir(root.FS(), out)
	if err != nil {
		return err
	}
	var stale []string
	for _, e := range entries {
		name := e.Name()
		base := strings.TrimSuffix(strings.TrimSuffix(name, ".br"), ".gz")
		key := strings.TrimSuffix(base, ".json")
		remove := base != name || answerFile.MatchString(base) && idx.Traces[key] == ""
		replace := name == "index.json" || base == name && idx.Traces[key] == name
		if (remove || replace) && !e.Type().IsRegular() {
			return fmt.Errorf("%s is %s, not a regular file: refused, nothing written into %s", path.Join(out, name), kind(e.Type()), out)
		}
		if remove {
			stale = append(stale, name)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(answers)) {
		if err := writeFile(root, path.Join(out, idx.Traces[k]), answers[k]); err != nil {
			return err
		}
	}
	for _, name := range stale {
		if err := root.Remove(path.Join(out, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	b, err := EncodeIndex(idx)
	if err != nil {
		return err
	}
	return writeFile(root, path.Join(out, "index.json"), b)
}
