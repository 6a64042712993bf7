package timeline

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/limits"
)

// Parse reads a timeline and validates it whole: unknown verbs, fields and
// jobs, times going backwards, malformed numbers, steps by a paused worker,
// implicit tokens for a job the actor never claimed and every bound of
// limits.Default are all reported here, as an ErrorList of NAME:LINE:COL:
// message holding every mistake, before anything runs. name is the source
// name used in messages. Parse never panics, whatever src holds.
func Parse(name, src string) (*Timeline, error) {
	return ParseLimits(name, src, limits.Default)
}

// ParseLimits is Parse under other limits.
func ParseLimits(name, src string, lim limits.Limits) (*Timeline, error) {
	p := &parser{name: name, lim: lim, tl: &Timeline{Name: name}, actorSeen: map[string]bool{},
		known: map[string]int{}, paused: map[string]pause{}, offsets: map[string]int64{}}
	if len(src) > lim.TextBytes {
		p.line, p.col = lineColAt(src, lim.TextBytes)
		p.limitf(p.col, lim.Row("text_bytes"), "the text is %d bytes", len(src))
	} else {
		p.parse(src)
	}
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool {
			if p.errs[i].Line != p.errs[j].Line {
				return p.errs[i].Line < p.errs[j].Line
			}
			return p.errs[i].Col < p.errs[j].Col
		})
		return nil, p.errs
	}
	p.tl.Warnings = append(append(p.warns, idleClocks(p.tl)...), lookAlikes(p.tl, p.known)...)
	sort.SliceStable(p.tl.Warnings, func(i, j int) bool {
		a, b := p.tl.Warnings[i], p.tl.Warnings[j]
		return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col)
	})
	return p.tl, nil
}

// lineColAt is the line and column (in characters) of byte offset off.
func lineColAt(src string, off int) (line, col int) {
	before := src[:off]
	line = strings.Count(before, "\n") + 1
	return line, len([]rune(before[strings.LastIndexByte(before, '\n')+1:])) + 1
}

type parser struct {
	name  string
	lim   limits.Limits
	tl    *Timeline
	errs  ErrorList
	warns []*Error
	line  int
	col   int // where the text went over its limit

	leaseLine    int
	receiverLine int   // the receiver line's, 0 before one
	prevEnd      int64 // the clock after the previous good step: where +D counts from
	prevTime     int64 // the previous good step's instant: no step comes before it
	steps        int   // step lines seen, good or bad
	lineBad      bool  // the current line has an error already
	note         []string
	actorSeen    map[string]bool
	known        map[string]int      // job id -> the line that declared or enqueued it
	paused       map[string]pause    // actor -> its latest pause
	offsets      map[string]int64    // worker -> clock offset
	overLimit    map[limits.Row]bool // limits already reported
	// jobRefs are the jobs steps name, checked against the declared and
	// enqueued jobs once every line is read.
	jobRefs []jobRef
	// tokenRefs are the implicit tokens, checked once every line is read.
	tokenRefs []tokenRef
}

// pause is an interval in which a worker does nothing: [from, to).
type pause struct {
	from, to int64
	line     int
	sending  bool // a send waiting to hear back, not a pause
}

type jobRef struct {
	id        string
	line, col int
}

type tokenRef struct {
	actor, job string
	line, col  int
	step       int
}

// errorf records a mistake at col of the current line. Only the first
// mistake of a line is recorded: what follows it on the line is read in
// the light of it, and would only repeat it.
func (p *parser) errorf(col int, format string, args ...any) {
	if p.lineBad {
		return
	}
	p.lineBad = true
	p.errs = append(p.errs, newError(p.name, p.line, col, lang.P(format, args...)))
}

// limitf records that the text goes over a limit, naming it and its value,
// once per limit.
func (p *parser) limitf(col int, lim limits.Row, format string, args ...any) {
	if p.overLimit == nil {
		p.overLimit = map[limits.Row]bool{}
	}
	if p.overLimit[lim] {
		p.lineBad = true
		return
	}
	p.overLimit[lim] = true
	p.errorf(col, "%s: over the limit %s", lang.P(format, args...), lim)
}

// Title returns the title Parse gives src (Timeline.Title): its first
// comment-only line before its first step line, without "#", or "" when a
// step comes first. It reads src only up to that line, so a list of titles
// (the library's) does not parse every timeline; for a src that Parse
// refuses it still returns what that line says.
func Title(src string) string {
	p := &parser{}
	for rest := strings.TrimPrefix(src, byteOrderMark); rest != ""; {
		raw, after, lf := strings.Cut(rest, "\n")
		if rest = after; lf {
			raw = strings.TrimSuffix(raw, "\r")
		}
		p.lineBad = false
		ll, ok := p.lex(raw)
		switch {
		case isStep(ll):
			return ""
		case ok && isComment(ll):
			return ll.comment
		}
	}
	return ""
}

// isStep reports whether a lexed line counts as a step, good or bad (lex
// may have refused it): its first word is not a header's.
func isStep(ll lexed) bool {
	return len(ll.words) > 0 && !isHeaderWord(ll.words[0].text) && headerTypo(ll.words[0].text) == "" && !unknownHeader(ll)
}

// isComment reports whether ll is a comment-only line that says something
// (a blank line, or a bare "#", is not).
func isComment(ll lexed) bool {
	return len(ll.words) == 0 && ll.arrow == 0 && ll.comment != ""
}

func (p *parser) parse(src string) {
	lines := strings.Split(strings.TrimPrefix(src, byteOrderMark), "\n")
	for i, raw := range lines {
		p.line, p.lineBad = i+1, false
		if i < len(lines)-1 {
			raw = strings.TrimSuffix(raw, "\r")
		}
		p.controls(raw)
		ll, ok := p.lex(raw)
		if !ok {
			p.note = nil
			if isStep(ll) {
				p.steps++
			}
			continue
		}
		p.line1(ll, strings.TrimSpace(raw))
	}
	p.resolve()
}

// byteOrderMark may start a text (some editors save UTF-8 with one); it is
// not part of the text. Anywhere else it is a control character.
const byteOrderMark = "\ufeff"

// controls records the first character of a line (its CR of a CRLF
// removed) that is not text: a carriage return that ends no line, a
// control character other than tab, a Unicode line or paragraph separator,
// a byte order mark, or a byte that is not UTF-8. Such a character would
// reach a title, a comment or a step's source in the answers raw (a
// terminal obeys an escape; an editor breaks a line the parser does not),
// so the text is refused at its column. The line is still read, so its
// step counts.
func (p *parser) controls(line string) {
	col := 0
	for i, r := range line {
		col++
		switch {
		case r == '\t':
		case r == '\r':
			p.errorf(col, "a carriage return (\\r) that ends no line: a line ends with LF or CRLF")
		case r == utf8.RuneError && !strings.HasPrefix(line[i:], "\ufffd"):
			p.errorf(col, "the byte %s is not UTF-8: save the text as UTF-8", fmt.Sprintf(`'\x%02x'`, line[i]))
		case unicode.IsControl(r), r == '\u2028', r == '\u2029', r == '\ufeff':
			p.errorf(col, "control character %q: only printable characters and tabs (inside quotes, write an escape like \\x1b)", r)
		default:
			continue
		}
		return
	}
}

// line1 reads one lexed line.
func (p *parser) line1(ll lexed, source string) {
	switch {
	case len(ll.words) == 0 && ll.arrow == 0 && ll.comment == "" && !ll.hasCode:
		p.note = nil // a blank line ends a note
	case isComment(ll): // Title reads its title by the same test
		if p.tl.Title == "" && p.steps == 0 {
			p.tl.Title = ll.comment
			return
		}
		p.note = append(p.note, ll.comment)
	case len(ll.words) == 0:
		p.errorf(ll.arrow, "an expectation needs a step before it")
	case isHeaderWord(ll.words[0].text):
		p.note = nil
		p.header(ll)
	case headerTypo(ll.words[0].text) != "":
		p.note = nil
		p.typoHeader(ll, headerTypo(ll.words[0].text))
	case p.steps == 0 && unknownHeader(ll):
		// Before the first step, a line that starts with a word is a header
		// the language does not have: one error, and the header lines after
		// it are still read as headers.
		p.note = nil
		p.errorf(ll.words[0].col, "unknown header word %q (the header lines are %s; a step starts with a time)",
			ll.words[0].text, strings.Join(headerWords, ", "))
	default:
		p.steps++
		note := p.note
		if ll.comment != "" {
			note = append(note, ll.comment)
		}
		p.note = nil
		if p.steps > p.lim.Steps {
			p.limitf(ll.words[0].col, p.lim.Row("steps"), "step %d", p.steps)
			return
		}
		p.step(ll, source, strings.Join(note, "\n"))
	}
}

// resolve checks what needs the whole text: that every job a step names is
// declared or enqueued somewhere, and that every implicit token has a claim
// before it that could have given it.
func (p *parser) resolve() {
	for _, r := range p.jobRefs {
		if _, ok := p.known[r.id]; !ok {
			p.line, p.lineBad = r.line, p.lineHasError(r.line)
			p.errorf(r.col, "unknown job %s: declare it with a `job %s` line or enqueue it%s",
				r.id, r.id, didYouMean(r.id, p.knownJobs()))
		}
	}
	// claimed[actor] holds the jobs the actor claimed by id before a step,
	// and "" once it has claimed the next job or sent (either may give it
	// any job). A crash empties it: the new process holds nothing.
	claimed := map[string]map[string]bool{}
	refs := p.tokenRefs
	for i, s := range p.tl.Steps {
		for len(refs) > 0 && refs[0].step == i {
			r := refs[0]
			refs = refs[1:]
			if c := claimed[r.actor]; !c[r.job] && !c[""] {
				p.line, p.lineBad = r.line, p.lineHasError(r.line)
				p.errorf(r.col, "%s holds no token for %s at this line (it never claimed it, or it crashed since): claim it first, or say token=N", r.actor, r.job)
			}
		}
		switch s.Verb {
		case VerbClaim, VerbSend:
			for _, a := range s.Actors {
				if claimed[a] == nil {
					claimed[a] = map[string]bool{}
				}
				claimed[a][s.Job] = true
			}
		case VerbCrash:
			delete(claimed, s.Actors[0])
		}
	}
}

func (p *parser) lineHasError(line int) bool {
	for _, e := range p.errs {
		if e.Line == line {
			return true
		}
	}
	return false
}

func (p *parser) knownJobs() []string {
	out := make([]string, 0, len(p.known))
	for id := range p.known {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// knowJob records a job declared or enqueued at the current line, counting
// it against the limit jobs. It reports whether the job may be used.
func (p *parser) knowJob(id string, col int) bool {
	if _, ok := p.known[id]; ok {
		return true
	}
	if len(p.known) >= p.lim.Jobs {
		p.limitf(col, p.lim.Row("jobs"), "job %d (%s)", len(p.known)+1, id)
		return false
	}
	p.known[id] = p.line
	return true
}
