package timeline

import (
	"fmt"
	"strings"

	"github.com/leaselab/leaselab/engine"
)

// goCall writes one step's statements for GoTest.
type goCall struct {
	f   *goFile
	s   *StepLine
	g   *goStep
	now string // the worker's now, as a Go literal
	ln  string // the line number, as a Go literal
	job string // the job the fields describe, as a Go expression
}

func (c *goCall) line(format string, args ...any) {
	c.g.Call = append(c.g.Call, fmt.Sprintf(format, args...))
}

func (c *goCall) check(format string, args ...any) {
	c.g.Checks = append(c.g.Checks, fmt.Sprintf(format, args...))
}

func (c *goCall) call() {
	s := c.s
	switch s.Op() {
	case engine.OpClaim, engine.OpRenew, engine.OpRelease:
		if c.f.TL.Nodes != 0 {
			c.nodes()
			break
		}
		if s.Op() == engine.OpRelease {
			c.presented()
			c.line("err := store.Release(ctx, p)")
			c.outcome()
			break
		}
		c.claimOrRenew()
	case engine.OpClaimNext:
		c.claimOrRenew()
	case engine.OpClaimMany:
		c.race()
	case engine.OpComplete:
		c.presented()
		c.line("err := store.Complete(ctx, p, %s, %s)", c.now, goQuote(s.Result))
		c.outcome()
	case engine.OpSend:
		if c.f.split { // the line's expectation is checked when it hears back
			c.send()
			return
		}
		c.send()
	case engine.OpDeliver:
		c.f.use("receiver")
		c.presented()
		c.line("var r receipt")
		c.line("err := deliver(p, &r)")
		c.outcome()
	case engine.OpEnqueue:
		c.enqueue()
	case engine.OpState:
		c.state()
	case engine.OpWrite, engine.OpRead:
		c.storage()
	case engine.OpReopen:
		c.line("store, err = %s // init_db again, over the same database", c.f.newStore())
		if c.f.TL.ServiceForgets {
			c.f.use("forgets")
			c.line("if err == nil {")
			c.line("\terr = restartEmpty() // the service kept its leases in memory")
			c.line("}")
		}
		c.outcome()
	case OpPause:
		c.g.Comment = append(c.g.Comment, fmt.Sprintf("%s does nothing until %d ms; its leases keep running out.", s.Actors[0], s.Time+s.For))
	case OpCrash:
		c.f.use("forget")
		c.line("forget(%s) // a new process under the same name holds no lease", goQuote(s.Actors[0]))
	case OpLeaderChange:
		c.leaderChange()
	case OpJump, OpDrift:
		whose := "the service's clock"
		if s.Node != "" {
			whose = s.Node + "'s clock"
		}
		c.g.Comment = append(c.g.Comment, fmt.Sprintf("%s now reads %d ms at %d ms: the steps after it pass that clock's now",
			whose, s.Time+c.f.TL.movedOffset(s.Node, s.Time, c.f.before+1), s.Time))
	default: // wait
		c.g.Comment = append(c.g.Comment, fmt.Sprintf("time passes to %d ms", s.Time))
	}
	if s.Expect != nil && len(s.Expect.Violates) > 0 {
		c.g.Comment = append(c.g.Comment, "the simulator shows this step breaking "+strings.Join(s.Expect.Violates, ", ")+
			" (its invariant checks are not part of this test)")
	}
	c.fields()
}

func (c *goCall) claimOrRenew() {
	s := c.s
	c.f.use("hold")
	switch s.Op() {
	case engine.OpClaim:
		if c.f.TL.Takeover != "" {
			c.f.use("ttls", "observe")
			reading := s.Time + c.f.TL.ownOffset(s.Actors[0], s.Time, c.f.before)
			c.line("l, err := observe(%s, %s, %d, %s, %s) // %s's clock reads %d ms", goQuote(s.Actors[0]), goQuote(s.Job), reading, c.now, goInt(s.TTL), s.Actors[0], reading)
			break
		}
		c.line("l, err := store.Claim(ctx, %s, %s, %s, %s)", goQuote(s.Job), goQuote(s.Actors[0]), c.now, goInt(s.TTL))
	case engine.OpClaimNext:
		c.line("l, err := store.ClaimNext(ctx, %s, %s, %s)", goQuote(s.Actors[0]), c.now, goInt(s.TTL))
		c.job = "l.JobID"
	default:
		c.presented()
		c.line("l, err := store.Renew(ctx, p, %s, %s)", c.now, goInt(s.TTL))
	}
	c.line("if err == nil {")
	c.line("\thold(l)")
	c.noteTTL("\t", "l.JobID")
	c.line("}")
	c.outcome()
}

// noteTTL records, in a file whose lock service changes leader and resets
// its leases, the ttl the step's grant or renew of job asked for: the new
// leader renews the lease for it.
func (c *goCall) noteTTL(indent, job string) {
	if c.f.tracksTTL {
		c.f.use("ttls")
		c.line("%sttls[%s] = %s", indent, job, goInt(c.s.TTL))
	}
}

// race is a concurrent claim.
func (c *goCall) race() {
	s := c.s
	c.f.use("race")
	owners := make([]string, len(s.Actors))
	for i, a := range s.Actors {
		owners[i] = goQuote(a)
	}
	c.line("won, heard := race(%s, []string{%s}, %s, %s)", goQuote(s.Job), strings.Join(owners, ", "), c.now, goInt(s.TTL))
	if c.f.tracksTTL {
		c.f.use("ttls")
		c.line("if len(won) > 0 {")
		c.line("\tttls[%s] = %s", goQuote(s.Job), goInt(s.TTL))
		c.line("}")
	}
	cond, what := c.outcomeCond()
	switch what {
	case "":
	case "ok":
		c.check("if len(won) == 0 {")
		c.check("\tt.Errorf(\"line %s: nobody won (%%v), want ok\", heard[%s])", c.ln, goQuote(s.Actors[0]))
		c.check("}")
	default:
		c.check("if err := heard[%s]; len(won) > 0 || %s {", goQuote(s.Actors[0]), cond)
		c.check("\tt.Errorf(\"line %s: won by %%v (%%v), want %s\", won, err)", c.ln, what)
		c.check("}")
	}
}

func (c *goCall) send() {
	s := c.s
	if c.f.split { // the courier hears back at a later step (goFile.heard)
		c.f.use("sending", "hold", "receiver")
		c.line("l, err := store.ClaimNext(ctx, %s, %s, %s)", goQuote(s.Actors[0]), c.now, goInt(s.TTL))
		c.line("var r receipt")
		c.line("if err == nil {")
		c.line("	hold(l)")
		c.noteTTL("\t", "l.JobID")
		if !s.Fail {
			c.line("	err = deliver(l, &r)")
		}
		c.line("	sending[%s] = sent{l, r}", c.ln)
		c.line("}")
		c.line("if err != nil {")
		c.line("\tt.Logf(\"line %s: %%v\", err)", c.ln)
		c.line("}")
		c.g.Comment = append(c.g.Comment, fmt.Sprintf("%s hears back at %d ms; the steps in between come first", s.Actors[0], s.End()))
		return
	}
	c.f.use("send", "hold")
	c.line("clock.Set(%s)", c.now)
	c.line("var r receipt")
	c.line("l, err := store.Dispatch(ctx, %s, &clock, %s, send(%s, %t, &r))", goQuote(s.Actors[0]), goInt(s.TTL), goInt(s.Took), s.Fail)
	c.line("if l.JobID != \"\" {")
	c.line("\thold(l)")
	c.noteTTL("\t", "l.JobID")
	c.line("}")
	c.outcome()
	c.job = "l.JobID"
}

func (c *goCall) enqueue() {
	s := c.s
	fields := []string{"ID: " + goQuote(s.Job)}
	if s.Qty != 0 {
		fields = append(fields, "Qty: "+goInt(s.Qty))
	}
	if s.Deadline != 0 {
		fields = append(fields, "Deadline: "+goInt(s.Deadline))
	}
	if s.MaxAttempts != 0 {
		fields = append(fields, "MaxAttempts: "+goInt(s.MaxAttempts))
	}
	created := "_"
	if c.wants("enqueued") {
		created = "created"
	}
	c.line("%s, err := store.Enqueue(ctx, engine.NewJob{%s})", created, strings.Join(fields, ", "))
	c.outcome()
}

func (c *goCall) state() {
	got := "_"
	outcome := c.expectOutcome()
	if outcome == engine.OutcomeOK || outcome == engine.OutcomeEmpty {
		got = "got"
	}
	c.line("%s, err := store.Get(ctx, %s)", got, goQuote(c.s.Job))
	c.present(outcome, "got", "the job exists", "no such job")
}

// present checks a read that found something (ok) or nothing (empty).
func (c *goCall) present(outcome engine.Outcome, v, ok, empty string) {
	switch outcome {
	case engine.OutcomeOK:
		c.check("if err != nil || %s == nil {", v)
		c.check("\tt.Errorf(\"line %s: %%v, %%v; want ok: %s\", %s, err)", c.ln, ok, v)
		c.check("}")
	case engine.OutcomeEmpty:
		c.check("if err != nil || %s != nil {", v)
		c.check("\tt.Errorf(\"line %s: %%+v, %%v; want empty: %s\", %s, err)", c.ln, empty, v)
		c.check("}")
	default:
		c.outcome()
	}
}

// storage writes to or reads the fenced storage.
func (c *goCall) storage() {
	s := c.s
	switch c.f.TL.Storage {
	case StorageUnfenced:
		c.f.use("storageUnfenced")
	case StorageSequencer:
		c.f.use("storage", "sequencer")
	default:
		c.f.use("storage")
	}
	if s.Verb == VerbRead {
		v, outcome := "_", c.expectOutcome()
		if outcome == engine.OutcomeOK || outcome == engine.OutcomeEmpty || c.wantsPrefix("storage.") {
			v = "v"
		}
		c.line("%s, err := storage.Read(ctx, %s)", v, goQuote(s.Key))
		c.present(outcome, "v", "a value is stored", "nothing is stored")
		return
	}
	c.presented()
	if c.f.TL.Storage == StorageSequencer {
		c.line("err := sequencer(%s, p, %s)", goQuote(s.Job), c.now)
		c.line("if err == nil {")
		c.line("\terr = storage.Write(ctx, %s, p, %s)", goQuote(s.Key), goQuote(s.Value))
		c.line("}")
	} else {
		c.line("err := storage.Write(ctx, %s, p, %s)", goQuote(s.Key), goQuote(s.Value))
	}
	c.outcome()
	if c.wantsPrefix("storage.") {
		c.line("v, _ := storage.Read(ctx, %s)", goQuote(s.Key))
	}
}

// presented declares p, the lease the step's actor presents.
func (c *goCall) presented() {
	c.f.use("lease")
	if c.f.arriving != 0 {
		c.line("p := inFlight[%d] // the lease the message left with", c.f.arriving)
		return
	}
	c.line("p := lease(%s, %s)", goQuote(c.s.Actors[0]), goQuote(c.s.Job))
	if c.s.HasToken {
		c.line("p.Token = %s", goInt(c.s.Token))
	}
}

func (c *goCall) expectOutcome() engine.Outcome {
	if c.s.Expect == nil {
		return ""
	}
	return c.s.Expect.Outcome
}

// outcomeCond is the condition under which err is not the expected
// outcome, and the outcome in words; both "" when the line expects none.
func (c *goCall) outcomeCond() (cond, what string) {
	if c.s.Expect == nil {
		return "", ""
	}
	reason := c.s.Expect.Reason
	switch c.s.Expect.Outcome {
	case engine.OutcomeOK:
		return "err != nil", "ok"
	case engine.OutcomeRefused:
		c.f.use("errors")
		if reason != "" {
			return "!errors.Is(err, " + sentinel(reason) + ")", "refused " + string(reason)
		}
		return "!errors.As(err, new(*engine.Rejection))", "refused"
	case engine.OutcomeEmpty:
		c.f.use("errors")
		return "!errors.Is(err, engine.ErrEmpty)", "empty"
	case engine.OutcomeInvalid:
		c.f.use("errors")
		return "!errors.Is(err, engine.ErrInvalid)", "invalid"
	case engine.OutcomeFailed:
		c.f.use("errors")
		return "!errors.Is(err, errSendFailed)", "failed"
	}
	return "", ""
}

// outcome checks err against the expected outcome (and reason), or logs it
// when the line expects no outcome.
func (c *goCall) outcome() {
	cond, what := c.outcomeCond()
	if what == "" {
		c.check("if err != nil {")
		c.check("\tt.Logf(\"line %s: %%v\", err)", c.ln)
		c.check("}")
		return
	}
	c.check("if %s {", cond)
	c.check("\tt.Errorf(\"line %s: %s: %%v, want %s\", err)", c.ln, c.s.Op(), what)
	c.check("}")
}

func (c *goCall) wants(key string) bool {
	if c.s.Expect == nil {
		return false
	}
	for _, f := range c.s.Expect.Fields {
		if f.Key == key {
			return true
		}
	}
	return false
}

func (c *goCall) wantsPrefix(prefix string) bool {
	if c.s.Expect == nil {
		return false
	}
	for _, f := range c.s.Expect.Fields {
		if strings.HasPrefix(f.Key, prefix) {
			return true
		}
	}
	return false
}

// leaderChange is a `service leader-change`: with reset, newLeader renews
// every valid lease for its ttl at the step's instant on the clock its
// owner's operations are judged on; with keep, nothing runs.
func (c *goCall) leaderChange() {
	s := c.s
	if s.Leases != LeasesReset {
		c.g.Comment = append(c.g.Comment, "a new leader takes over the lock service; its leases are checkpointed, so each keeps the time it had left")
		return
	}
	c.f.use("ttls", "newLeader")
	var offs []string
	for _, a := range c.f.TL.Actors {
		if off := c.f.TL.JudgeAt(a, s.Time, c.f.before); off != 0 {
			offs = append(offs, fmt.Sprintf("%s: %d", goQuote(a), off))
		}
	}
	c.line("if err := newLeader(%d, map[string]int64{%s}); err != nil {", s.Time, strings.Join(offs, ", "))
	c.line("\tt.Fatalf(\"line %s: the new leader's renewals: %%v\", err)", c.ln)
	c.line("}")
}

// nodes is a claim, renew or release of a lock under `service nodes`: the
// rows the step reaches ("" for one it does not) at each node's clock.
func (c *goCall) nodes() {
	s := c.s
	c.f.use("held")
	var rows, nows []string
	for _, node := range c.f.TL.NodeNames() {
		row := ""
		if s.reaches(node) {
			row = NodeJob(s.Job, node)
		}
		rows = append(rows, goQuote(row))
		nows = append(nows, goInt(s.Time+c.f.TL.NodeOffset(node, s.Time, c.f.before)))
	}
	rowList, nowList := "[]string{"+strings.Join(rows, ", ")+"}", "[]int64{"+strings.Join(nows, ", ")+"}"
	switch s.Verb {
	case VerbClaim:
		c.f.use("hold", "acquire", "cmp")
		c.line("err := acquire(%s, %s, %s, %s)", goQuote(s.Actors[0]), rowList, nowList, goInt(s.TTL))
	case VerbRenew:
		c.f.use("hold", "extend", "cmp")
		c.line("err := extend(%s, %s, %s, %s)", goQuote(s.Actors[0]), rowList, nowList, goInt(s.TTL))
	default:
		c.f.use("unlock", "errors")
		c.line("err := unlock(%s, %s)", goQuote(s.Actors[0]), rowList)
	}
	c.outcome()
}
