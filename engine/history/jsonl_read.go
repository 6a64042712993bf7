package history

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/leaselab/leaselab/engine"
)

// lineFields are a line's fields, all required.
var lineFields = []string{"client", "call", "args", "invoke", "return", "answer"}

// readLine reads line n as one call.
func readLine(line []byte, n int) (Operation, error) {
	p := &lineReader{line: line, n: n, dec: jsontext.NewDecoder(bytes.NewReader(line),
		jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false))}
	var o Operation
	if len(bytes.TrimSpace(line)) == 0 {
		return o, p.fail(0, "an empty line: want one JSON object a call")
	}
	top, args, answer := fields{}, fields{}, fields{}
	var argsAt, answerAt int64
	start, err := p.object("the line", func(name string, at pos) error {
		top[name] = at
		var err error
		switch name {
		case "client":
			o.Client, err = p.str(name)
		case "call":
			var s string
			s, err = p.str(name)
			o.Call = engine.Op(s)
		case "args":
			argsAt, err = p.object(name, func(name string, at pos) error { args[name] = at; return p.arg(&o.Args, name, at) })
		case "invoke":
			o.Invoke, err = p.integer(name)
		case "return":
			o.Return, err = p.integer(name)
		case "answer":
			answerAt, err = p.object(name, func(name string, at pos) error {
				answer[name] = at
				return p.answerField(&o.Answer, name, at)
			})
		default:
			return p.fail(at.name, "unknown field %q: a line has %s", name, strings.Join(lineFields, ", "))
		}
		return err
	})
	if err != nil {
		return o, err
	}
	if end := p.at(); !errors.Is(p.dec.SkipValue(), io.EOF) {
		return o, p.fail(end, "more after the line's object: one JSON object a line")
	}
	if err := p.check("the line", start, top, lineFields, lineFields, "a call"); err != nil {
		return o, err
	}
	if err := p.checkCall(&o, top, args, argsAt); err != nil {
		return o, err
	}
	if err := p.checkAnswer(&o, answer, answerAt); err != nil {
		return o, err
	}
	if err := p.checkInterval(&o, top); err != nil {
		return o, err
	}
	if err := o.validate(); err != nil {
		return o, p.fail(0, "%v", err)
	}
	return o, nil
}

// checkInterval refuses an invoke below 0 at its value, and a return
// before the invoke or at int64's maximum at its value.
func (p *lineReader) checkInterval(o *Operation, top fields) error {
	const want = "want 0 <= invoke <= return < 2^63-1"
	switch {
	case o.Invoke < 0:
		return p.fail(top["invoke"].value, "invoke: %d: %s", o.Invoke, want)
	case o.Return < o.Invoke:
		return p.fail(top["return"].value, "return: %d is before invoke %d: %s", o.Return, o.Invoke, want)
	case o.Return > maxTime:
		return p.fail(top["return"].value, "return: %d: %s", o.Return, want)
	}
	return nil
}

// checkCall refuses an unknown call, an empty client, and arguments the
// call does not take or needs.
func (p *lineReader) checkCall(o *Operation, top, args fields, argsAt int64) error {
	allowed, _, found := callSpec(o.Call)
	if !found {
		names := make([]string, len(calls))
		for i, c := range calls {
			names[i] = string(c.op)
		}
		return p.fail(top["call"].value, "call: unknown call %q: the calls are %s", o.Call, strings.Join(names, ", "))
	}
	if o.Client == "" {
		return p.fail(top["client"].value, "client: empty: name the client that made the call")
	}
	required := slices.DeleteFunc(slices.Clone(allowed), func(name string) bool { return optionalArg(o.Call, name) })
	return p.check("args", argsAt, args, allowed, required, string(o.Call))
}

// checkAnswer refuses an unknown outcome or refusal, and fields the call
// and outcome do not take or need.
func (p *lineReader) checkAnswer(o *Operation, answer fields, answerAt int64) error {
	a := &o.Answer
	allowed, required := []string{"outcome"}, []string{"outcome"}
	switch a.Outcome {
	case engine.OutcomeOK:
		_, okFields, _ := callSpec(o.Call)
		allowed = append(allowed, okFields...)
		required = append(required, slices.DeleteFunc(slices.Clone(okFields), func(f string) bool { return f == "job" })...)
	case engine.OutcomeRefused:
		allowed = append(allowed, "refusal")
		if a.Refusal != "" && !a.Refusal.Valid() {
			return p.fail(answer["refusal"].value, "refusal: unknown refusal %q", a.Refusal)
		}
	case engine.OutcomeError:
		allowed = append(allowed, "error")
	case engine.OutcomeEmpty, engine.OutcomeInvalid:
	default:
		if _, ok := answer["outcome"]; ok {
			return p.fail(answer["outcome"].value, "outcome: unknown outcome %q: ok, refused, empty, invalid or error", a.Outcome)
		}
	}
	return p.check("answer", answerAt, answer, allowed, required, string(o.Call)+" "+string(a.Outcome))
}

// arg reads the argument called name.
func (p *lineReader) arg(a *Args, name string, at pos) error {
	var err error
	switch name {
	case "job":
		a.Job, err = p.str(name)
	case "owner":
		a.Owner, err = p.str(name)
	case "result":
		a.Result, err = p.str(name)
	case "token", "now", "ttl", "qty", "deadline", "max_attempts":
		*a.int(name), err = p.integer(name)
	default:
		return p.fail(at.name, "args: unknown argument %q: the arguments are %s", name, strings.Join(argNames, ", "))
	}
	return err
}

// answerFields are an answer's fields.
var answerFields = []string{"outcome", "refusal", "error", "job", "token", "lease_until", "created", "row"}

// answerField reads the answer's field called name.
func (p *lineReader) answerField(a *Answer, name string, at pos) error {
	var err error
	var s string
	switch name {
	case "outcome":
		s, err = p.str(name)
		a.Outcome = engine.Outcome(s)
	case "refusal":
		s, err = p.str(name)
		a.Refusal = engine.Refusal(s)
	case "error":
		a.Error, err = p.str(name)
	case "job":
		a.Job, err = p.str(name)
	case "token":
		a.Token, err = p.integer(name)
	case "lease_until":
		a.LeaseUntil, err = p.integer(name)
	case "created":
		a.Created, err = p.boolean(name)
	case "row":
		a.Row = &engine.Job{}
		err = p.row(a.Row)
	default:
		return p.fail(at.name, "answer: unknown field %q: an answer has %s", name, strings.Join(answerFields, ", "))
	}
	return err
}

// row reads a state answer's row: every field of rowFields, a status of
// the engine's.
func (p *lineReader) row(j *engine.Job) error {
	got := fields{}
	start, err := p.object("row", func(name string, at pos) error {
		got[name] = at
		if !slices.Contains(rowFields, name) {
			return p.fail(at.name, "row: unknown field %q: a row has %s", name, strings.Join(rowFields, ", "))
		}
		var err error
		if s, ok := rowStr(j, name); ok {
			*s, err = p.str(name)
		} else {
			*rowInt(j, name), err = p.integer(name)
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := p.check("row", start, got, rowFields, rowFields, "a row"); err != nil {
		return err
	}
	switch j.Status {
	case engine.StatusPending, engine.StatusLeased, engine.StatusDone, engine.StatusQuarantined:
		return nil
	}
	return p.fail(got["status"].value, "row: status %q: pending, leased, done or quarantined", j.Status)
}
