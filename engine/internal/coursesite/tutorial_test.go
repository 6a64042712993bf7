package coursesite_test

import (
	"context"
	"html"
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

var (
	screenEl = regexp.MustCompile(`(?s)<section class="screen" id="([^"]+)".*?</section>`)
	answerEl = regexp.MustCompile(`(?s)<div class="answer">.*?</div>`)
)

// outcomeVerbs are how each language's prose says a step's outcome kind:
// a refusal, or a call that goes through.
var outcomeVerbs = map[string]map[string]string{
	"en": {"refused": `(?i)\brefus\w*`, "ok": `(?i)\bgo(es)? through\b|\bsucceed\w*|\baccept\w*|\bgranted\b`},
	"ko": {"refused": `거절`, "ok": `통과|성공|받아들`},
}

// tellsOf are the ways prose in lang states a marked step's outcome: the
// outcome kind's verb, a refusal's reason, each field the step expects
// (key=value, "key value", "key is value": a token as both pages write
// it, token 2), and a token as the lanes draw it (A#2).
func tellsOf(lang string, s timeline.StepLine) []*regexp.Regexp {
	e := s.Expect
	res := []string{outcomeVerbs[lang][string(e.Outcome)]}
	if e.Reason != "" {
		res = append(res, `(?i)\b`+regexp.QuoteMeta(string(e.Reason))+`\b`)
	}
	for _, f := range e.Fields {
		k, v := regexp.QuoteMeta(f.Key), regexp.QuoteMeta(f.Want)
		res = append(res, `(?i)\b`+k+`\s*=\s*"?`+v, `(?i)\b`+k+`\S*\s+(is\s+)?`+v+`\b`)
		if f.Key == "token" {
			for _, a := range s.Actors {
				res = append(res, regexp.QuoteMeta(a)+`#`+v+`\b`)
			}
		}
	}
	var out []*regexp.Regexp
	for _, r := range res {
		out = append(out, regexp.MustCompile(r))
	}
	return out
}

// beforeAnswers is what a screen shows before its player's questions are
// answered: its prose but the explanations (div.answer) and the player,
// and the player's title and notes (its comment lines; the part of a
// line after a `-> ?` mark is hidden until the step is shown).
func beforeAnswers(screen, text string) string {
	prose := timelineEl.ReplaceAllString(answerEl.ReplaceAllString(screen, ""), "")
	out := []string{html.UnescapeString(tag.ReplaceAllString(prose, " "))}
	for _, line := range strings.Split(text, "\n") {
		if at := strings.Index(line, "-> ?"); at >= 0 {
			continue
		}
		if at := strings.Index(line, "#"); at >= 0 && (at == 0 || line[at-1] == ' ') {
			out = append(out, line[at:])
		}
	}
	return strings.Join(out, "\n")
}

// A tutorial asks before it shows: on every screen with a player, nothing
// visible before the learner has answered its questions (the prose, the
// heading, the player's title and notes) states a marked step's outcome:
// its kind (refused, goes through), its refusal's reason, a field it
// expects, or the token it gets. The explanation that does state them is
// the screen's div.answer after the player, which names each refusal's
// reason the screen asks about.
func TestTutorial_NoScreenStatesAnOutcomeBeforeTheLearnerPredictsIt(t *testing.T) {
	for lang, file := range tutorialPages {
		page := string(readTutorial(t, file))
		screens := screenEl.FindAllStringSubmatch(page, -1)
		players := 0
		for _, m := range screens {
			id, screen := m[1], m[0]
			found, err := coursesite.Find([]byte(screen))
			if err != nil {
				t.Fatal(err)
			}
			if len(found) == 0 {
				continue
			}
			players++
			f := found[0]
			tl, err := timeline.Parse(f.Run.Name, f.Run.Text)
			if err != nil {
				t.Fatalf("%s#%s: %v", file, id, err)
			}
			visible := beforeAnswers(screen, f.Run.Text)
			answer := html.UnescapeString(tag.ReplaceAllString(strings.Join(answerEl.FindAllString(screen, -1), "\n"), " "))
			if strings.TrimSpace(answer) == "" {
				t.Errorf("%s#%s has no explanation after its player (div.answer)", file, id)
			}
			for _, s := range tl.Steps {
				if !s.Predict || s.Expect == nil {
					continue
				}
				for _, tell := range tellsOf(lang, s) {
					for _, line := range strings.Split(visible, "\n") {
						if w := tell.FindString(line); w != "" {
							t.Errorf("%s#%s states %q of the step at %d ms before the learner predicts it: %s", file, id, w, s.Time, strings.TrimSpace(line))
						}
					}
				}
				if r := string(s.Expect.Reason); r != "" && !strings.Contains(answer, r) {
					t.Errorf("%s#%s's explanation never names %q, the step at %d ms's answer", file, id, r, s.Time)
				}
			}
		}
		if players != 7 {
			t.Errorf("%s: %d screens with a player, want 7", file, players)
		}
	}
}
