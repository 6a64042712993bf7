package coursesite_test

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

// glossaryTerms are the words a learner meets in the tutorial and the
// simulator, each with the glossary entry that defines it and how the
// English and the Korean text write it.
var glossaryTerms = []struct {
	id     string
	en, ko string // regular expressions
}{
	{"g-lease", `\blease\b`, `임대`},
	{"g-lease-until", `\blease_until\b`, `lease_until`},
	{"g-token", `\btokens?\b`, `\btoken`},
	{"g-claim", `\bclaim(s|ed|ing)?\b`, `선점`},
	{"g-renew", `\brenew(s|ed|ing)?\b|\bheartbeats?\b`, `갱신|하트비트`},
	{"g-complete", `\bcomplet(e|es|ed)\b`, `완료`},
	{"g-release", `\breleas(e|es|ed)\b`, `반납`},
	{"g-held", `\bheld\b`, `\bheld\b`},
	{"g-superseded", `\bsuperseded\b`, `superseded`},
	{"g-expired", `\bexpired\b`, `expired`},
	{"g-fenced", `\bfenced\b`, `fenced`},
	{"g-quarantined", `\bquarantined\b`, `quarantined|격리`},
	{"g-attempts", `\b(max_)?attempts\b`, `attempts|시도`},
	{"g-owner", `\bowner\b`, `owner`},
	{"g-status", `\bstatus\b`, `\bstatus\b`},
	{"g-result", `\bresults?\b`, `\bresult\b|결과`},
	{"g-deadline", `\bdeadlines?\b`, `\bdeadline\b|마감`},
	{"g-pause", `\bpaus(e|es|ed)\b`, `멈춤`},
	{"g-clock-offset", `\bclock offset\b|\bdrift`, `시계 차이|표류`},
	{"g-lock-service", `\block service\b`, `잠금 서비스`},
	{"g-storage", `\bstorage\b`, `저장소`},
	{"g-receiver", `\breceiver\b`, `수신 측`},
	{"g-idempotent", `\bidempotent\b`, `멱등`},
}

// introKeys are the simulator's introduction, i18n.js's keys: what a
// newcomer reads first there.
var introKeys = []string{"introTitle", "introLease", "introToken", "introRefused"}

var (
	timelineEl = regexp.MustCompile(`(?s)<lease-timeline.*?</lease-timeline>`)
	glossaryEl = regexp.MustCompile(`(?s)<section id="glossary".*?</section>`)
	tag        = regexp.MustCompile(`<[^>]*>`)
	codeEl     = regexp.MustCompile(`<code>([a-z_]+)</code>`)
)

// introText is the introduction's text in lang, from web/i18n.js.
func introText(t *testing.T, lang string) string {
	t.Helper()
	src := string(readTutorial(t, "i18n.js"))
	at := strings.Index(src, "\nexport const "+lang+" = {")
	if at < 0 {
		t.Fatalf("i18n.js has no catalogue %q", lang)
	}
	src = src[at:]
	var out []string
	for _, k := range introKeys {
		m := regexp.MustCompile(`\n  ` + k + `:\s*'((?:[^'\\]|\\.)*)'`).FindStringSubmatch(src)
		if m == nil {
			t.Fatalf("i18n.js's %s catalogue has no string %s", lang, k)
		}
		out = append(out, m[1])
	}
	return strings.Join(out, "\n")
}

// The glossary defines every term the tutorial's screens and the
// simulator's introduction use, in both languages: a term found in either
// text has its entry in that language's glossary, and every refusal or
// column a screen writes as code is a known term (so a word added later
// without an entry fails here).
func TestGlossary_DefinesEveryTermTheTutorialAndTheSimulatorsIntroUse(t *testing.T) {
	known := map[string]bool{}
	for _, g := range glossaryTerms {
		known[strings.TrimPrefix(g.id, "g-")] = true
	}
	refusal := map[string]bool{}
	for _, r := range engine.Refusals() {
		refusal[string(r)] = true
	}
	for lang, file := range tutorialPages {
		page := string(readTutorial(t, file))
		entries := map[string]bool{}
		for _, m := range idAttr.FindAllStringSubmatch(glossaryEl.FindString(page), -1) {
			entries[m[1]] = true
		}
		prose := glossaryEl.ReplaceAllString(timelineEl.ReplaceAllString(page, ""), "")
		texts := map[string]string{
			file + "'s screens":     html.UnescapeString(tag.ReplaceAllString(prose, " ")),
			"the simulator's intro": introText(t, lang),
		}
		for where, text := range texts {
			for _, g := range glossaryTerms {
				pattern := map[string]string{"en": g.en, "ko": g.ko}[lang]
				if w := regexp.MustCompile(`(?i)` + pattern).FindString(text); w != "" && !entries[g.id] {
					t.Errorf("%s (%s) uses %q, which %s's glossary does not define (want an entry %s)", where, lang, w, file, g.id)
				}
			}
		}
		for _, m := range codeEl.FindAllStringSubmatch(prose, -1) {
			if w := m[1]; refusal[w] && !known[w] {
				t.Errorf("%s writes the refusal %q, which no glossary term names", file, w)
			}
		}
	}
}

// koreanText is what a Korean learner reads of the front end: the
// Korean tutorial and i18n.js's Korean catalogue.
func koreanText(t *testing.T) map[string]string {
	t.Helper()
	src := string(readTutorial(t, "i18n.js"))
	at := strings.Index(src, "\nexport const ko = {")
	if at < 0 {
		t.Fatal("i18n.js has no catalogue ko")
	}
	return map[string]string{"tutorial-ko.html": string(readTutorial(t, "tutorial-ko.html")), "i18n.js's ko": src[at:]}
}

// koreanWords are the ideas a Korean text names one way: the retired
// word, and the learner's word the glossary and the engine's Korean
// sentences use (the token as the timeline text writes it, token).
var koreanWords = []struct{ retired, say string }{
	{`일시 ?정지`, "멈춤"},
	{`토큰`, "token"},
}

// The Korean texts a learner reads name each idea one way, the
// glossary's word, never a synonym besides it: a pause is 멈춤, never
// 일시 정지; a token is token, as the lanes, the tables and the engine's
// sentences write it, never 토큰. The tutorial, the simulator's words and
// its transport's Pause button alike.
func TestGlossary_KoreanNamesEachIdeaOneWay(t *testing.T) {
	for where, text := range koreanText(t) {
		for _, w := range koreanWords {
			other := regexp.MustCompile(w.retired)
			for _, line := range strings.Split(text, "\n") {
				if other.MatchString(line) {
					t.Errorf("%s writes %s where the learner's word is %s: %s", where, other.FindString(line), w.say, strings.TrimSpace(line))
				}
			}
		}
	}
}

var (
	columnsDecl = regexp.MustCompile(`(?s)\nexport const COLUMNS = [^\[]*\[(.*?)\]`)
	quoted      = regexp.MustCompile(`'([a-z_]+)'`)
	dtEl        = regexp.MustCompile(`(?s)<dt id="(g-[^"]+)">(.*?)</dt>`)
)

// jobsColumns are the columns the simulator's jobs table shows, in
// web/render.js's order: the schema's names, never translated.
func jobsColumns(t *testing.T) []string {
	t.Helper()
	m := columnsDecl.FindStringSubmatch(string(readTutorial(t, "render.js")))
	if m == nil {
		t.Fatal("render.js declares no COLUMNS")
	}
	var out []string
	for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
		out = append(out, q[1])
	}
	if len(out) < 8 {
		t.Fatalf("render.js's COLUMNS reads as %q", out)
	}
	return out
}

// Every column the jobs table shows, and every status its status column
// holds, is a term of both tutorials' glossaries: some entry's <dt> names
// it, so a column added to the table without a definition fails here.
func TestGlossary_DefinesEveryColumnAndStatusTheJobsTableShows(t *testing.T) {
	words := jobsColumns(t)
	for _, s := range []engine.Status{engine.StatusPending, engine.StatusLeased, engine.StatusDone, engine.StatusQuarantined} {
		words = append(words, string(s))
	}
	for _, file := range tutorialPages {
		terms := map[string]string{}
		for _, m := range dtEl.FindAllStringSubmatch(glossaryEl.FindString(string(readTutorial(t, file))), -1) {
			for _, w := range regexp.MustCompile(`[a-z_]+`).FindAllString(html.UnescapeString(tag.ReplaceAllString(m[2], " ")), -1) {
				terms[w] = m[1]
			}
		}
		for _, w := range words {
			if terms[w] == "" {
				t.Errorf("the jobs table shows %q, which no entry of %s's glossary names in its term (<dt>)", w, file)
			}
		}
	}
}
