package coursesite_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// tutorialPages are the learner's tutorial, web/tutorial*.html, by the
// language each is written in.
var tutorialPages = map[string]string{"en": "tutorial.html", "ko": "tutorial-ko.html"}

func readTutorial(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "web", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// answers are the outcomes of a trace's marked steps, in order.
func answers(tr *timeline.Trace) []string {
	var out []string
	for _, s := range tr.Steps {
		if s.Predict != nil {
			out = append(out, s.Predict.Answer)
		}
	}
	return out
}

// Every timeline of the tutorial is a player in prediction mode whose
// text holds on the engine natively, as leaselab check runs it: every
// expectation holds, no invariant breaks unannounced, and it marks at
// least one step for the learner, each with an expectation that states
// the answer. The Korean page asks the English page's questions, with
// the same answers, in the same order.
func TestTutorial_EveryTimelineHoldsNativelyAndAsksTheLearner(t *testing.T) {
	asked := map[string][][]string{}
	for lang, file := range tutorialPages {
		found, err := coursesite.Find(readTutorial(t, file))
		if err != nil {
			t.Fatal(err)
		}
		if len(found) < 7 {
			t.Fatalf("%s holds %d timelines, want one on each of the 7 screens", file, len(found))
		}
		for _, f := range found {
			where := file + ": " + f.Run.Name
			if f.Fence || f.Lab || f.Src != "" || f.Run.Mutant != "" {
				t.Errorf("%s is no element with its own text: %+v", where, f)
				continue
			}
			if _, ok := f.Options["predict"]; !ok {
				t.Errorf("%s is no <lease-timeline predict>", where)
			}
			if f.Run.Lang != lang {
				t.Errorf("%s explains in %q, want %q", where, f.Run.Lang, lang)
			}
			tr, err := memrun.RunSource(context.Background(), f.Run.Name, f.Run.Text, timeline.Options{Lang: f.Run.Lang})
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			if !tr.Summary.Passed || tr.Summary.Expectations == 0 {
				t.Errorf("%s: %d expectations, passed %v: %q", where, tr.Summary.Expectations, tr.Summary.Passed, tr.Summary.Failures)
			}
			for _, s := range tr.Steps {
				if s.Predict != nil && s.Expect == nil {
					t.Errorf("%s: the step at %d ms asks the learner but states no answer to check", where, s.Time)
				}
			}
			a := answers(tr)
			if len(a) == 0 {
				t.Errorf("%s marks no step for the learner (-> ?)", where)
			}
			asked[lang] = append(asked[lang], a)
		}
	}
	if !slices.EqualFunc(asked["en"], asked["ko"], slices.Equal) {
		t.Errorf("the pages ask different questions:\n en %q\n ko %q", asked["en"], asked["ko"])
	}
}

var (
	idAttr   = regexp.MustCompile(`\sid="([^"]+)"`)
	termLink = regexp.MustCompile(`<a class="term" href="#([^"]+)">`)
)

// Both pages have the same screens and glossary entries, under the same
// ids (a link into one works in the other), and each term's link, at the
// word's first use, leads to its glossary entry: one link per term. An
// entry no screen links is a word of the simulator's alone.
func TestTutorial_BothLanguagesShareScreensAndGlossary(t *testing.T) {
	ids := map[string][]string{}
	for lang, file := range tutorialPages {
		page := string(readTutorial(t, file))
		for _, m := range idAttr.FindAllStringSubmatch(page, -1) {
			ids[lang] = append(ids[lang], m[1])
		}
		var terms []string
		for _, m := range termLink.FindAllStringSubmatch(page, -1) {
			terms = append(terms, m[1])
		}
		var glossary []string
		for _, id := range ids[lang] {
			if strings.HasPrefix(id, "g-") {
				glossary = append(glossary, id)
			}
		}
		if len(glossary) < 8 {
			t.Errorf("%s's glossary has %d entries: %q", file, len(glossary), glossary)
		}
		slices.Sort(terms)
		if c := slices.Compact(slices.Clone(terms)); len(c) != len(terms) {
			t.Errorf("%s links a term twice: %q", file, terms)
		}
		for _, term := range terms {
			if !slices.Contains(glossary, term) {
				t.Errorf("%s links the term %q, which its glossary lacks: %q", file, term, glossary)
			}
		}
	}
	if !slices.Equal(ids["en"], ids["ko"]) {
		t.Errorf("the pages' ids differ:\n en %q\n ko %q", ids["en"], ids["ko"])
	}
}
