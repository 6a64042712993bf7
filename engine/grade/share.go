package grade

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/limits"
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
// cursor), and impl= (RunParam) when the failure holds the student's run
// of the timeline, which the page shows beside the engine's, step by
// step. For a race's round that no order fits (a failure with a
// History) it is HistoryLink's link to the round's calls drawn instead.
// "" when no timeline reproduces the failure and it has no history (or
// one too long for a link).
func (f *Failure) Link(simulator, l string) string {
	if f != nil && f.History != "" {
		link, _ := HistoryLink(simulator, []byte(f.History), l)
		return link
	}
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
	if impl := f.RunParam(); impl != "" {
		p.Set("impl", impl)
	}
	return strings.TrimSuffix(simulator, "#") + "#" + p.Encode()
}

// HistoryLink is a link to the simulator page at simulator that draws
// text, a concurrent history in the JSON lines format (package
// engine/history), checked: a lane a client, each call an interval on
// one time axis, the calls no order fits marked and the model's order
// beside them. It is the page's share format for a history: #history=
// (history.LinkParam: the text deflated, unpadded base64url) and lang=
// (unless English). An error when the text passes grade_link_run_bytes.
func HistoryLink(simulator string, text []byte, l string) (string, error) {
	param, err := history.LinkParam(text)
	if err != nil {
		return "", err
	}
	p := url.Values{}
	p.Set("history", param)
	if l != "" && l != "en" {
		p.Set("lang", l)
	}
	return strings.TrimSuffix(simulator, "#") + "#" + p.Encode(), nil
}

// note is what the player shows on the step that differs.
func (f *Failure) note(l string) string {
	if f.Broken == nil && agree(f.Want, f.Got) {
		return lang.P("Here your code answered as the contract does, and its table differs.").In(l)
	}
	got, _, _ := strings.Cut(pick(f.got, f.Got, l), "\n")
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

// linkRun is the student's run as a link carries it: the lab table's
// columns, the cursor of the step that differs, and each step's calls
// (Played.Calls) and rows, a row's cells in the columns' order (NULL is
// null).
type linkRun struct {
	V     int        `json:"v"`
	Cols  []string   `json:"cols"`
	Diff  int        `json:"diff"`
	Steps []linkStep `json:"steps"`
}

type linkStep struct {
	Calls []string `json:"calls"`
	Rows  [][]any  `json:"rows"`
}

// RunParam is the failure's Run as the link's impl= parameter: its JSON
// (linkRun), deflated (raw DEFLATE, no header) and written as unpadded
// base64url. Step k of the run is the page's cursor k: 0 is init_db and
// the header's jobs, the last the step that differs. "" when the failure
// holds no run, or when the JSON or the parameter would pass
// grade_link_run_bytes (the link then shows the engine's run only).
func (f *Failure) RunParam() string {
	if f == nil || len(f.Run) == 0 {
		return ""
	}
	cols, row := labColumns, labCells
	if f.Lab == Courier {
		cols, row = strings.Split(courierColumns, ", "), courierCells
	}
	r := linkRun{V: 1, Cols: cols, Diff: len(f.Run) - 1, Steps: make([]linkStep, len(f.Run))}
	for i, p := range f.Run {
		s := linkStep{Calls: p.Calls, Rows: make([][]any, len(p.Rows))}
		if s.Calls == nil {
			s.Calls = []string{}
		}
		for j := range p.Rows {
			s.Rows[j] = row(&p.Rows[j])
		}
		r.Steps[i] = s
	}
	js, err := json.Marshal(r)
	most := limits.DefaultGrading.LinkRunBytes
	if err != nil || len(js) > most {
		return ""
	}
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(js)
	w.Close()
	out := base64.RawURLEncoding.EncodeToString(b.Bytes())
	if len(out) > most {
		return ""
	}
	return out
}

// labColumns are the fencing lab table's columns.
var labColumns = []string{"id", "owner", "until", "fence", "result", "done"}

// labCells is a row in labColumns, as labRow prints it.
func labCells(j *engine.Job) []any {
	var owner, result any
	if j.Owner != "" {
		owner = j.Owner
	}
	if j.Result != "" || j.Status == engine.StatusDone {
		result = j.Result
	}
	done := 0
	if j.Status == engine.StatusDone {
		done = 1
	}
	return []any{j.ID, owner, j.LeaseUntil, j.Token, result, done}
}

// courierCells is a row in courierColumns, as courierRowText prints it.
func courierCells(j *engine.Job) []any {
	opt := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	var deadline, result any
	if j.Deadline != 0 {
		deadline = j.Deadline
	}
	if j.Result != "" || j.Status == engine.StatusDone {
		result = j.Result
	}
	return []any{j.ID, j.Qty, opt(j.Owner), j.LeaseUntil, j.Token, j.Attempts, j.MaxAttempts, deadline,
		string(j.Status), opt(j.Reason), result}
}
