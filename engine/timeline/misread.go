package timeline

import (
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine/internal/lang"
)

// What parses but is likely not what the author meant gets a warning
// (Timeline.Warnings): a duration with no unit, a clock offset with no
// sign, a clock for a worker that never acts. What cannot be read gets one
// error that says what was meant, and the line is still read as meant so
// that nothing later cascades from it: a misspelt header word, a unit the
// language does not have, a fraction of a millisecond.

// warnf records a warning at col of the current line.
func (p *parser) warnf(col int, format string, args ...any) {
	p.warns = append(p.warns, newError(p.name, p.line, col, lang.P(format, args...)))
}

// duration reads a duration (lease, ttl=, took=, pause), written as
// written (for the message: "ttl=2", "pause 2"), and warns when it has no
// unit: "pause 2" is 2 ms, and a reader likely meant 2 s.
func (p *parser) duration(t token, key, written string) (int64, bool) {
	n, ok := p.millis(t, key)
	if ok && n != 0 && allDigits(t.text) {
		p.warnf(t.col, "%s has no unit and is read as %d ms: write %sms, or %ss for seconds",
			written, n, t.text, t.text)
	}
	return n, ok
}

// millisHint says why text is no time the language reads, when it can
// tell: a unit it does not have, or a fraction of a millisecond; "" else.
func millisHint(text string) lang.Phrase {
	num := strings.TrimRight(text, "abcdefghijklmnopqrstuvwxyz")
	unit := text[len(num):]
	if d := strings.TrimPrefix(num, "+"); d == "" || d[0] < '0' || d[0] > '9' {
		return lang.P("")
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(num, "+"), 10, 64)
	switch {
	case unit == "ms" || unit == "":
		if strings.Contains(num, ".") {
			return lang.P("times are whole milliseconds (0.5s is 500ms)")
		}
	case unit == "m" || unit == "min":
		if err == nil && n < 1<<40 {
			if n == 1 {
				return lang.P("the units are ms and s: write 60s for 1 minute")
			}
			return lang.P("the units are ms and s: write %ds for %d minutes", n*60, n)
		}
		return lang.P("the units are ms and s")
	case unit == "h":
		if err == nil && n < 1<<40 {
			if n == 1 {
				return lang.P("the units are ms and s: write 3600s for 1 hour")
			}
			return lang.P("the units are ms and s: write %ds for %d hours", n*3600, n)
		}
		return lang.P("the units are ms and s")
	case unit == "s":
	default:
		return lang.P("%q is not a unit: the units are ms and s", unit)
	}
	return lang.P("")
}

// malformedTime is the message for text that is no time: why, when
// millisHint can tell, else the shapes a time takes (usual).
func malformedTime(what, text string, usual lang.Phrase) lang.Phrase {
	if h := millisHint(text); h.Format() != "" {
		return lang.P("malformed %s %q: %s", lang.Word(what), text, h)
	}
	return lang.P("malformed %s %q: %s", lang.Word(what), text, usual)
}

// headerTypo is the header word a line's first word was meant to be — a
// header word with a colon or "=" after it ("lease:"), or one edit or two
// from lease, clock or epoch ("lese") — or "" when it is none.
func headerTypo(word string) string {
	bare := strings.TrimRight(word, ":=")
	if bare != word && isHeaderWord(bare) {
		return bare
	}
	if len([]rune(word)) < 4 {
		return ""
	}
	return suggest(word, []string{"lease", "clock", "epoch", "service", "storage", "receiver"})
}

// typoHeader reports a misspelt header word, one error, and reads the line
// as the header it was meant to be, so that a lease or a job it declares
// is known to the lines after it.
func (p *parser) typoHeader(ll lexed, meant string) {
	w := ll.words[0]
	if strings.TrimRight(w.text, ":=") == meant {
		p.errorf(w.col, "a header line is `%s VALUE` with no %q: write `%s %s`",
			meant, w.text[len(meant):], meant, strings.Join(texts(ll.words[1:]), " "))
	} else {
		p.errorf(w.col, "unknown header word %q (did you mean %s?)", w.text, meant)
	}
	ll.words = append([]token{{text: meant, col: w.col}}, ll.words[1:]...)
	p.header(ll)
}

func texts(ts []token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.text
	}
	return out
}

// idleClocks warns of each clock line whose worker never acts: its offset
// changes nothing, and the author likely misnamed the worker.
func idleClocks(tl *Timeline) []*Error {
	var out []*Error
	for _, c := range tl.Clocks {
		if containsString(tl.Actors, c.Worker) {
			continue
		}
		hint := lang.P("")
		if len([]rune(c.Worker)) > 2 {
			hint = didYouMean(c.Worker, tl.Actors)
		}
		out = append(out, newError(tl.Name, c.Line, 1, lang.P(
			"%s's clock is set, but %s never acts: the clock changes nothing%s", c.Worker, c.Worker, hint)))
	}
	return out
}
