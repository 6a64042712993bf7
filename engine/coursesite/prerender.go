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
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/wasm/simrun"
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
	Pages      int      // HTML pages that hold a timeline
	Timelines  int      // distinct runs prerendered (a worksheet counts once)
	Worksheets int      // of which worksheets
	Skipped    int      // worksheets skipped: this build has no mutants
	Bad        int      // runs whose text is bad input (nothing written for them)
	Failed     int      // runs whose correct engine's expectations failed (written all the same)
}

// job is one distinct run and where it was found.
type job struct {
	run   Run
	where string // page: what
}

// Prerender finds every timeline in the HTML of the built site at dir
// (elements and fences, with their options), runs each natively — the
// correct engine, and for a worksheet the mutant beside it
// (simrun.TraceJSON, simrun.WorksheetJSON: the browser's bytes) — and
// writes the answers into the prerendered folder of every leaselab bundle
// of this version in the site, with its index. It tells what it does on
// log. The error is for a site that cannot be read or holds no bundle of
// this version; a bad timeline is counted in the report, and told.
func Prerender(ctx context.Context, dir string, log io.Writer) (Report, error) {
	var rep Report
	bundles, others, pages, err := survey(dir)
	if err != nil {
		return rep, err
	}
	for _, o := range others {
		fmt.Fprintf(log, "%s: a bundle of leaselab %s, not %s: left alone\n", o.dir, o.version, Version())
	}
	if len(bundles) == 0 {
		return rep, fmt.Errorf("%s holds no leaselab bundle of version %s (a folder %s with its manifest.json, from make dist)", dir, Version(), BundleDir())
	}
	rep.Bundles = bundles
	jobs, err := collect(dir, pages, log, &rep)
	if err != nil {
		return rep, err
	}
	answers := map[string][]byte{}
	for _, j := range jobs {
		if b := runJob(ctx, j, log, &rep); b != nil {
			answers[Key(j.run)] = b
		}
	}
	for _, b := range bundles {
		if err := writeAnswers(filepath.Join(dir, filepath.FromSlash(b)), answers); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

type otherBundle struct{ dir, version string }

// survey lists the site's bundles of this version, those of other
// versions, and its HTML pages (slash paths relative to dir).
func survey(dir string) (bundles []string, others []otherBundle, pages []string, err error) {
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && rel != ".":
			return filepath.SkipDir
		case !d.IsDir() && d.Name() == "manifest.json":
			var m Manifest
			if b, err := os.ReadFile(p); err == nil && json.Unmarshal(b, &m) == nil && m.Name == "leaselab" {
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
	return bundles, others, pages, err
}

// collect finds the timelines of every page and returns the distinct runs,
// in the order first found.
func collect(dir string, pages []string, log io.Writer, rep *Report) ([]job, error) {
	var jobs []job
	seen := map[string]bool{}
	for _, page := range pages {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(page)))
		if err != nil {
			return nil, err
		}
		found, err := Find(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", page, err)
		}
		if len(found) > 0 {
			rep.Pages++
		}
		for i, f := range found {
			where := fmt.Sprintf("%s: timeline %d (%s)", page, i+1, f.Run.Name)
			if len(f.Unknown) > 0 {
				fmt.Fprintf(log, "%s: the directive's keys %s are no option (%s): ignored\n", where, strings.Join(f.Unknown, ", "), strings.Join(OptionKeys, " "))
			}
			if f.Src != "" {
				text, ok := readSrc(dir, page, f.Src)
				if !ok {
					fmt.Fprintf(log, "%s: src=%q is not a file of the site: left to the engine\n", where, f.Src)
					continue
				}
				f.Run.Text = text
			}
			if k := Key(f.Run); !seen[k] {
				seen[k] = true
				jobs = append(jobs, job{run: f.Run, where: where})
			}
		}
	}
	return jobs, nil
}

// readSrc reads the file an element's src= names, relative to its page;
// ok is false for a URL with a scheme, a host or a query, or one that
// leaves the site.
func readSrc(dir, page, src string) (string, bool) {
	if strings.ContainsAny(src, ":?#") || strings.HasPrefix(src, "/") {
		return "", false
	}
	p := path.Join(path.Dir(page), src)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", false
	}
	defer root.Close()
	b, err := root.ReadFile(p)
	return string(b), err == nil
}

// runJob runs one run and returns the bytes to write, or nil.
func runJob(ctx context.Context, j job, log io.Writer, rep *Report) []byte {
	opts := simrun.Options{Lang: j.run.Lang}
	var out []byte
	var err error
	if j.run.Mutant != "" {
		if len(engine.Mutants()) == 0 {
			rep.Skipped++
			fmt.Fprintf(log, "%s: a worksheet (mutant %s): skipped, this build has no mutants (go run -tags mutants . prerender)\n", j.where, j.run.Mutant)
			return nil
		}
		opts.Mutant = j.run.Mutant
		out, err = simrun.WorksheetJSON(ctx, j.run.Name, j.run.Text, opts)
	} else {
		out, err = simrun.TraceJSON(ctx, j.run.Name, j.run.Text, opts)
	}
	if err != nil {
		rep.Bad++
		fmt.Fprintf(log, "%s: %v\n", j.where, indent(err.Error()))
		return nil
	}
	rep.Timelines++
	if j.run.Mutant != "" {
		rep.Worksheets++
	}
	if !passed(out, j.run.Mutant != "") {
		rep.Failed++
		fmt.Fprintf(log, "%s: an expectation failed or an invariant broke unannounced (leaselab check tells which)\n", j.where)
	}
	return out
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

// writeAnswers writes the answers into bundle/prerendered, removes the
// answers of an earlier run that are not among them, and writes the index
// last. Nothing there is precompressed: a stale .br or .gz of a file is
// removed with it.
func writeAnswers(bundle string, answers map[string][]byte) error {
	out := filepath.Join(bundle, PrerenderedDir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	idx := EmptyIndex()
	for _, lang := range timeline.Langs() {
		for _, m := range engine.Mutants() {
			idx.Mutants[lang] = append(idx.Mutants[lang], MutantInfo{Name: m.Name, Breaks: timeline.MutantRule(lang, m.Name)})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(answers)) {
		file := k + ".json"
		idx.Traces[k] = file
		if err := os.WriteFile(filepath.Join(out, file), answers[k], 0o644); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range entries {
		base := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".br"), ".gz")
		stale := answerFile.MatchString(base) && idx.Traces[strings.TrimSuffix(base, ".json")] == ""
		if stale || base != e.Name() {
			if err := os.Remove(filepath.Join(out, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	b, err := EncodeIndex(idx)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "index.json"), b, 0o644)
}
