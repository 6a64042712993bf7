package grade

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/timeline"
)

// DefaultSimulator is the simulator page leaselab serve serves, which a
// report's link opens unless told another.
const DefaultSimulator = "http://127.0.0.1:8080/"

// whereLine is a Where of a timeline's step, NAME:LINE; whereCall one of
// a numbered call of an extra check ("send 2").
var (
	whereLine = regexp.MustCompile(`^(.+):(\d+)$`)
	whereCall = regexp.MustCompile(`^send (\d+)$`)
)

// Link is a link to the simulator page at simulator that opens the
// failure's timeline, in language l, with its cursor on the step where
// the student's code parted from the contract (the step played) and a
// note on that step saying what the student answered beside the
// contract's answer. It is the page's share format: #name=, src= (the
// text, unpadded base64url), lang= (unless English) and step= (the
// cursor). "" when no timeline reproduces the failure.
func (f *Failure) Link(simulator, l string) string {
	if f == nil || f.Timeline == "" {
		return ""
	}
	text, name, cursor := f.Timeline, "difference.tl", -1
	if m := whereLine.FindStringSubmatch(f.Where); m != nil {
		name = m[1]
		line, _ := strconv.Atoi(m[2])
		text, cursor = noted(text, name, line, f.note(l))
	} else if m := whereCall.FindStringSubmatch(f.Where); m != nil {
		cursor, _ = strconv.Atoi(m[1])
	}
	p := url.Values{}
	p.Set("name", name)
	p.Set("src", base64.RawURLEncoding.EncodeToString([]byte(text)))
	if l != "" && l != "en" {
		p.Set("lang", l)
	}
	if cursor >= 0 {
		p.Set("step", strconv.Itoa(cursor))
	}
	return strings.TrimSuffix(simulator, "#") + "#" + p.Encode()
}

// note is what the player shows on the step that differs.
func (f *Failure) note(l string) string {
	got, _, _ := strings.Cut(f.Got, "\n")
	want, _, _ := strings.Cut(pick(f.want, f.Want, l), "\n")
	return lang.P("Here your code answered %s where the contract answers %s.", got, want).In(l)
}

// noted is text with note as a comment on the step at line (the player
// shows a step's comments as its notes), and the cursor that shows that
// step played; text and -1 when no step is at line.
func noted(text, name string, line int, note string) (string, int) {
	tl, err := timeline.Parse(name, text)
	if err != nil {
		return text, -1
	}
	for i, s := range tl.Steps {
		if s.Line != line {
			continue
		}
		lines := strings.Split(text, "\n")
		if line < 1 || line > len(lines) {
			return text, -1
		}
		lines = append(lines[:line-1], append([]string{"# " + note}, lines[line-1:]...)...)
		return strings.Join(lines, "\n"), i + 1
	}
	return text, -1
}
