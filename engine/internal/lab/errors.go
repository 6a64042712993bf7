package lab

import (
	"errors"
	"strconv"
	"strings"
)

// ErrBadInput is what every parse and validation error matches with
// errors.Is: the lab's text is wrong, and nothing has run.
var ErrBadInput = errors.New("lab: bad input")

// Error is one mistake in a lab's text, at a line and a column (1-based;
// the column counts characters, not bytes).
type Error struct {
	Name      string // the source name given to Parse
	Line, Col int
	Msg       string
	Err       error // the cause: a *limits.ExceededError when the text passes a limit, else nil
}

// Error formats as NAME:LINE:COL: message.
func (e *Error) Error() string {
	return e.Name + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
}

// Is makes errors.Is(err, ErrBadInput) true.
func (e *Error) Is(target error) bool { return target == ErrBadInput }

// Unwrap is the cause, or nil.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList is every mistake Parse found, in line order, one a line.
type ErrorList []*Error

// Error is the mistakes one per line.
func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap exposes each *Error to errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// closest is the candidate nearest to w by edit distance, if it is near
// enough to be what was meant (at most a third of w's length, and 2),
// else "".
func closest(w string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(w), c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD > 2 || bestD > (len([]rune(w))+2)/3 {
		return ""
	}
	return best
}

// didYouMean is " (did you mean X?)" for the closest candidate, or "".
func didYouMean(w string, candidates []string) string {
	if c := closest(w, candidates); c != "" {
		return " (did you mean " + c + "?)"
	}
	return " (one of " + strings.Join(candidates, ", ") + ")"
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
