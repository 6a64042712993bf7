package timeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/leaselab/leaselab/engine"
)

// phrasebook is every sentence a trace explains a step with, in one
// language. Each is a fmt format with explicit argument indexes (%[1]s), so
// a language may order the arguments its own way; the comment on each
// field lists them. To add a language, add one phrasebook to phrasebooks.
type phrasebook struct {
	list    func([]string) string // "A, B and C"
	finish  func(string) string   // a last pass over a sentence (Korean particles)
	ops     map[string]string     // op name -> the word for it
	reasons map[string]string     // quarantine reason -> the words for it

	claimed       string // actor, job, token, lease_until, cap note
	claimedNext   string // actor, job, token, lease_until, cap note
	reclaimed     string // actor, job, token, lease_until, cap note, previous owner, previous token, previous lease_until
	reclaimedSelf string // actor, job, token, lease_until, cap note, -, previous token
	capNote       string // (no arguments) the lease was cut to the deadline
	noJob         string // actor
	claimRefused  string // actor, job, why
	quarantinedBy string // actor, job, why
	writeRefused  string // actor, op, token, why
	renewed       string // actor, job, token, lease_until, cap note
	completed     string // actor, job, token, result
	released      string // actor, job, token, next token
	sent          string // actor, job, token, qty, complete instant
	sentAgain     string // actor, job, token, qty, complete instant
	sentLate      string // actor, job, complete instant, why
	sentNothing   string // actor
	sendFailed    string // actor, job, token, instant
	delivered     string // actor, job, qty, token, total
	redelivered   string // actor, job, qty, token, total
	enqueued      string // actor, job, qty
	enqueueExists string // actor, job
	stateRead     string // actor, job, row description
	stateMissing  string // actor, job
	manyWon       string // actors, job, winner, token, lease_until
	manyNone      string // actors, job, why
	manyOdd       string // actors, job, winners
	invalid       string // actor, op, error
	failed        string // actor, op, error

	// Why an operation was refused: the clause after "is refused:".
	notFound            string // job
	isDone              string // job
	quarantinedAttempts string // job, max_attempts
	quarantinedDeadline string // job, deadline
	nowAttempts         string // max_attempts
	nowDeadline         string // deadline
	held                string // owner, token, lease_until
	superseded          string // owner, token, since
	supersededSelf      string // owner, token, since
	supersededFree      string // token
	neverHeld           string // actor
	expired             string // lease_until
	deadlinePassed      string // deadline

	// A row in words, for state.
	rowPending     string // token
	rowLeased      string // owner, token, lease_until
	rowLeaseEnded  string // owner, token, lease_until
	rowDone        string // owner, token, result
	rowQuarantined string // reason, token
}

// phrasebooks are the languages a trace can be explained in.
var phrasebooks = map[string]*phrasebook{"en": &english, "ko": &korean}

// Langs lists the languages Options.Lang accepts.
func Langs() []string {
	out := make([]string, 0, len(phrasebooks))
	for l := range phrasebooks {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

var english = phrasebook{
	list: func(names []string) string {
		if len(names) < 2 {
			return strings.Join(names, "")
		}
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	},
	finish:  func(s string) string { return s },
	ops:     map[string]string{"claim": "claim", "renew": "renew", "complete": "complete", "release": "release", "send": "send", "deliver": "delivery", "enqueue": "enqueue", "state": "read", "claim-next": "claim", "claim-many": "claim"},
	reasons: map[string]string{engine.ReasonAttempts: "attempts used up", engine.ReasonDeadline: "deadline passed"},

	claimed:       "%[1]s claims %[2]s and gets token %[3]d; the lease runs until %[4]d ms%[5]s.",
	claimedNext:   "%[1]s claims the oldest claimable job, %[2]s, and gets token %[3]d; the lease runs until %[4]d ms%[5]s.",
	reclaimed:     "%[1]s claims %[2]s, whose lease by %[6]s with token %[7]d ended at %[8]d ms, and gets token %[3]d; the lease runs until %[4]d ms%[5]s.",
	reclaimedSelf: "%[1]s claims %[2]s again and gets token %[3]d, so its own token %[7]d is stale now; the lease runs until %[4]d ms%[5]s.",
	capNote:       ", cut to the job's deadline",
	noJob:         "%[1]s finds no claimable job.",
	claimRefused:  "%[1]s's claim of %[2]s is refused: %[3]s.",
	quarantinedBy: "%[1]s's claim of %[2]s is refused, and the claim quarantines the job: %[3]s.",
	writeRefused:  "%[1]s's %[2]s with token %[3]d is refused: %[4]s.",
	renewed:       "%[1]s renews %[2]s with token %[3]d; the lease now runs until %[4]d ms%[5]s.",
	completed:     "%[1]s completes %[2]s with token %[3]d; the job is done with result %[4]q.",
	released:      "%[1]s releases %[2]s; the token stays %[3]d, so the next claim gets token %[4]d.",
	sent:          "%[1]s sends %[2]s with token %[3]d: the receiver records qty %[4]d, and the complete at %[5]d ms marks it done.",
	sentAgain:     "%[1]s sends %[2]s with token %[3]d: the receiver already has it and adds nothing, and the complete at %[5]d ms marks it done.",
	sentLate:      "%[1]s's send of %[2]s reached the receiver, but its complete at %[3]d ms is refused: %[4]s.",
	sentNothing:   "%[1]s finds nothing to send.",
	sendFailed:    "%[1]s's send of %[2]s fails at %[4]d ms; the lease is released and the token stays %[3]d.",
	delivered:     "The receiver records %[2]s (qty %[3]d) from %[1]s with token %[4]d; its total is %[5]d.",
	redelivered:   "The receiver already has %[2]s: %[1]s's resend with token %[4]d adds nothing, and its total stays %[5]d.",
	enqueued:      "%[1]s enqueues %[2]s (qty %[3]d).",
	enqueueExists: "%[2]s already exists: %[1]s's enqueue changes nothing.",
	stateRead:     "%[1]s reads %[2]s: %[3]s.",
	stateMissing:  "%[1]s reads %[2]s: there is no such job.",
	manyWon:       "%[1]s claim %[2]s at the same instant: only %[3]s gets it (token %[4]d, until %[5]d ms), and the others are refused.",
	manyNone:      "%[1]s claim %[2]s at the same instant, and all are refused: %[3]s.",
	manyOdd:       "%[1]s claim %[2]s at the same instant, and %[3]s get it.",
	invalid:       "%[1]s's %[2]s is invalid (%[3]s); nothing changes.",
	failed:        "%[1]s's %[2]s failed: %[3]s.",

	notFound:            "there is no job %[1]s",
	isDone:              "%[1]s is done",
	quarantinedAttempts: "%[1]s is quarantined, all %[2]d attempts used up",
	quarantinedDeadline: "%[1]s is quarantined, its deadline %[2]d ms passed",
	nowAttempts:         "all %[1]d attempts are used up",
	nowDeadline:         "its deadline %[1]d ms has passed",
	held:                "%[1]s holds it with token %[2]d until %[3]d ms",
	superseded:          "%[1]s has held token %[2]d since %[3]d ms",
	supersededSelf:      "%[1]s claimed it again and has held token %[2]d since %[3]d ms",
	supersededFree:      "the lease was given back and nobody holds it now (token %[1]d)",
	neverHeld:           "%[1]s holds no lease of it",
	expired:             "its lease ended at %[1]d ms",
	deadlinePassed:      "the job's deadline %[1]d ms has passed",

	rowPending:     "pending, token %[1]d",
	rowLeased:      "leased by %[1]s with token %[2]d until %[3]d ms",
	rowLeaseEnded:  "leased by %[1]s with token %[2]d, a lease that ended at %[3]d ms",
	rowDone:        "done by %[1]s with token %[2]d, result %[3]q",
	rowQuarantined: "quarantined (%[1]s) at token %[2]d",
}

var korean = phrasebook{
	list:    func(names []string) string { return strings.Join(names, ", ") },
	finish:  josa,
	ops:     map[string]string{"claim": "선점", "renew": "연장", "complete": "완료", "release": "반납", "send": "전송", "deliver": "전달", "enqueue": "접수", "state": "조회", "claim-next": "선점", "claim-many": "선점"},
	reasons: map[string]string{engine.ReasonAttempts: "시도 소진", engine.ReasonDeadline: "마감 지남"},

	claimed:       "%[1]s(이)가 %[2]s(을)를 선점하고 token %[3]d(을)를 받습니다. 임대는 %[4]d ms까지입니다%[5]s.",
	claimedNext:   "%[1]s(이)가 선점할 수 있는 가장 오래된 일 %[2]s(을)를 선점하고 token %[3]d(을)를 받습니다. 임대는 %[4]d ms까지입니다%[5]s.",
	reclaimed:     "%[6]s의 임대(token %[7]d)가 %[8]d ms에 끝난 %[2]s(을)를 %[1]s(이)가 선점하고 token %[3]d(을)를 받습니다. 임대는 %[4]d ms까지입니다%[5]s.",
	reclaimedSelf: "%[1]s(이)가 %[2]s(을)를 다시 선점하고 token %[3]d(을)를 받습니다. 자신의 이전 token %[7]d(은)는 이제 낡은 토큰이고, 임대는 %[4]d ms까지입니다%[5]s.",
	capNote:       "(업무 마감에 맞춰 줄어듦)",
	noJob:         "%[1]s(이)가 선점할 수 있는 일을 찾지 못합니다.",
	claimRefused:  "%[1]s의 %[2]s 선점은 거절됩니다: %[3]s.",
	quarantinedBy: "%[1]s의 %[2]s 선점은 거절되고, 이 선점이 일을 격리합니다: %[3]s.",
	writeRefused:  "%[1]s의 token %[3]d %[2]s 요청은 거절됩니다: %[4]s.",
	renewed:       "%[1]s(이)가 token %[3]d(으)로 %[2]s의 임대를 연장합니다. 이제 %[4]d ms까지입니다%[5]s.",
	completed:     "%[1]s(이)가 token %[3]d(으)로 %[2]s(을)를 완료합니다. 결과는 %[4]q입니다.",
	released:      "%[1]s(이)가 %[2]s(을)를 반납합니다. token은 %[3]d(으)로 남으므로 다음 선점은 token %[4]d(을)를 받습니다.",
	sent:          "%[1]s(이)가 token %[3]d(으)로 %[2]s(을)를 전송합니다. 수신 측이 수량 %[4]d(을)를 기록하고, %[5]d ms의 완료로 끝납니다.",
	sentAgain:     "%[1]s(이)가 token %[3]d(으)로 %[2]s(을)를 전송합니다. 수신 측은 이미 받았으므로 아무것도 더하지 않고, %[5]d ms의 완료로 끝납니다.",
	sentLate:      "%[1]s의 %[2]s 전송은 수신 측에 도착했지만 %[3]d ms의 완료는 거절됩니다: %[4]s.",
	sentNothing:   "%[1]s(이)가 보낼 일을 찾지 못합니다.",
	sendFailed:    "%[1]s의 %[2]s 전송이 %[4]d ms에 실패합니다. 임대는 반납되고 token은 %[3]d(으)로 남습니다.",
	delivered:     "수신 측이 %[1]s(이)가 token %[4]d(으)로 보낸 %[2]s(을)를 기록합니다(수량 %[3]d). 합계는 %[5]d입니다.",
	redelivered:   "수신 측은 이미 %[2]s(을)를 받았습니다. %[1]s의 재전송(token %[4]d)은 아무것도 더하지 않고, 합계는 %[5]d 그대로입니다.",
	enqueued:      "%[1]s(이)가 %[2]s(을)를 접수합니다(수량 %[3]d).",
	enqueueExists: "%[2]s(은)는 이미 있습니다. %[1]s의 접수는 아무것도 바꾸지 않습니다.",
	stateRead:     "%[1]s(이)가 %[2]s(을)를 조회합니다: %[3]s.",
	stateMissing:  "%[1]s(이)가 %[2]s(을)를 조회합니다: 그런 일은 없습니다.",
	manyWon:       "%[1]s(이)가 같은 순간 %[2]s(을)를 선점합니다. %[3]s만 받고(token %[4]d, %[5]d ms까지) 나머지는 거절됩니다.",
	manyNone:      "%[1]s(이)가 같은 순간 %[2]s(을)를 선점하지만 모두 거절됩니다: %[3]s.",
	manyOdd:       "%[1]s(이)가 같은 순간 %[2]s(을)를 선점하고, %[3]s(이)가 받습니다.",
	invalid:       "%[1]s의 %[2]s 요청은 잘못된 인자라서(%[3]s) 아무것도 바뀌지 않습니다.",
	failed:        "%[1]s의 %[2]s 요청이 실패했습니다: %[3]s.",

	notFound:            "%[1]s(이)라는 일이 없습니다",
	isDone:              "%[1]s(은)는 이미 완료되었습니다",
	quarantinedAttempts: "%[1]s(은)는 시도 %[2]d번을 모두 써서 격리되었습니다",
	quarantinedDeadline: "%[1]s(은)는 마감 %[2]d ms가 지나 격리되었습니다",
	nowAttempts:         "시도 %[1]d번을 모두 썼습니다",
	nowDeadline:         "마감 %[1]d ms가 지났습니다",
	held:                "%[1]s(이)가 token %[2]d(으)로 %[3]d ms까지 갖고 있습니다",
	superseded:          "%[1]s(이)가 %[3]d ms부터 token %[2]d(을)를 갖고 있습니다",
	supersededSelf:      "%[1]s(이)가 %[3]d ms에 다시 선점해 token %[2]d(을)를 갖고 있습니다",
	supersededFree:      "임대가 반납되어 지금은 아무도 갖고 있지 않습니다(token %[1]d)",
	neverHeld:           "%[1]s(은)는 이 일의 임대를 가진 적이 없습니다",
	expired:             "임대가 %[1]d ms에 끝났습니다",
	deadlinePassed:      "업무 마감 %[1]d ms가 지났습니다",

	rowPending:     "대기 중, token %[1]d",
	rowLeased:      "%[1]s(이)가 token %[2]d(으)로 %[3]d ms까지 임대 중",
	rowLeaseEnded:  "%[1]s의 임대(token %[2]d)는 %[3]d ms에 끝났음",
	rowDone:        "%[1]s(이)가 token %[2]d(으)로 완료, 결과 %[3]q",
	rowQuarantined: "격리됨(%[1]s), token %[2]d",
}

// josa picks each Korean particle written as a pair — "(이)가", "(은)는",
// "(을)를", "(과)와", "(으)로", "(이)라" — by the sound that ends the word
// before it: the first form after a final consonant, the second after a
// vowel ("(으)로": 로 after ㄹ too).
func josa(s string) string {
	pairs := []struct{ marker, after, vowel string }{
		{"(이)가", "이", "가"}, {"(은)는", "은", "는"}, {"(을)를", "을", "를"},
		{"(과)와", "과", "와"}, {"(으)로", "으로", "로"}, {"(이)라", "이라", "라"},
	}
	for _, p := range pairs {
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(rest, p.marker)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			before := rest[:i]
			b.WriteString(before)
			last := []rune(before)
			var r rune
			if len(last) > 0 {
				r = last[len(last)-1]
			}
			final, rieul := finalConsonant(r)
			if final && !(p.marker == "(으)로" && rieul) {
				b.WriteString(p.after)
			} else {
				b.WriteString(p.vowel)
			}
			rest = rest[i+len(p.marker):]
		}
		s = b.String()
	}
	return s
}

// finalConsonant reports whether r, read aloud in Korean, ends in a
// consonant, and whether that consonant is ㄹ.
func finalConsonant(r rune) (final, rieul bool) {
	switch {
	case r >= 0xAC00 && r <= 0xD7A3:
		f := (r - 0xAC00) % 28
		return f != 0, f == 8
	case r >= '0' && r <= '9':
		// 영 일 이 삼 사 오 육 칠 팔 구
		return strings.ContainsRune("013678", r), strings.ContainsRune("178", r)
	}
	switch r {
	case 'L', 'l', 'R', 'r': // 엘, 알
		return true, true
	case 'M', 'm', 'N', 'n': // 엠, 엔
		return true, false
	}
	return false, false
}

// explain says in one sentence what the step did and why.
func (r *runner) explain(s *StepLine, st *Step, before []engine.Job) string {
	b := r.book
	say := func(format string, args ...any) string { return b.finish(fmt.Sprintf(format, args...)) }
	actor := s.Actors[0]
	op := b.ops[st.Op]
	var prev *engine.Job
	for i := range before {
		if before[i].ID == st.Job {
			prev = &before[i]
		}
	}
	switch st.Outcome.Kind {
	case "invalid":
		return say(b.invalid, actor, op, st.Outcome.Error)
	case "error":
		who := actor
		if st.Op == "claim-many" {
			who = b.list(s.Actors)
		}
		return say(b.failed, who, op, st.Outcome.Error)
	}
	switch st.Op {
	case "claim", "claim-next":
		switch st.Outcome.Kind {
		case "empty":
			return say(b.noJob, actor)
		case "refused":
			return r.refusedClaim(actor, st.Job, st.Rejection, prev)
		}
		return r.claimed(s, st, actor, prev)
	case "claim-many":
		names := b.list(s.Actors)
		w := winners(st)
		switch {
		case len(w) == 1:
			return say(b.manyWon, names, st.Job, w[0], st.Lease.Token, st.Lease.LeaseUntil)
		case len(w) > 1:
			return say(b.manyOdd, names, st.Job, b.list(w))
		case st.Rejection != nil:
			return say(b.manyNone, names, st.Job, r.why(actor, st.Rejection, prev))
		}
		return say(b.failed, names, op, outcomeText(st.Contenders[0].Outcome))
	case "renew", "complete", "release":
		if st.Outcome.Kind == "refused" {
			return say(b.writeRefused, actor, op, st.Presented.Token, r.why(actor, st.Rejection, prev))
		}
		switch st.Op {
		case "renew":
			return say(b.renewed, actor, st.Job, st.Lease.Token, st.Lease.LeaseUntil, r.capNote(st.Lease.LeaseUntil, s, st))
		case "complete":
			return say(b.completed, actor, st.Job, st.Presented.Token, s.Result)
		}
		return say(b.released, actor, st.Job, st.Presented.Token, st.Presented.Token+1)
	case "send":
		switch st.Outcome.Kind {
		case "empty":
			return say(b.sentNothing, actor)
		case "failed":
			return say(b.sendFailed, actor, st.Job, st.Lease.Token, st.End)
		case "refused":
			return say(b.sentLate, actor, st.Job, st.End, r.why(actor, st.Rejection, prev))
		}
		rc := st.Receipt
		if rc == nil {
			return say(b.failed, actor, op, "no receipt")
		}
		if rc.Delivered {
			return say(b.sent, actor, st.Job, rc.Token, rc.Qty, st.End)
		}
		return say(b.sentAgain, actor, st.Job, rc.Token, rc.Qty, st.End)
	case "deliver":
		rc := st.Receipt
		if rc.Delivered {
			return say(b.delivered, actor, rc.Job, rc.Qty, rc.Token, rc.Total)
		}
		return say(b.redelivered, actor, rc.Job, rc.Qty, rc.Token, rc.Total)
	case "enqueue":
		if *st.Enqueued {
			q := s.Qty
			if q == 0 {
				q = 1
			}
			return say(b.enqueued, actor, st.Job, q)
		}
		return say(b.enqueueExists, actor, st.Job)
	case "state":
		if st.State == nil {
			return say(b.stateMissing, actor, st.Job)
		}
		return say(b.stateRead, actor, st.Job, r.describe(*st.State, s.Time))
	}
	return ""
}

func (r *runner) claimed(s *StepLine, st *Step, actor string, prev *engine.Job) string {
	b := r.book
	l := st.Lease
	capped := r.capNote(l.LeaseUntil, s, st)
	if prev != nil && prev.Owner != "" && prev.Status == engine.StatusLeased && prev.LeaseUntil <= s.Time {
		format := b.reclaimed
		if prev.Owner == actor {
			format = b.reclaimedSelf
		}
		return b.finish(fmt.Sprintf(format, actor, l.Job, l.Token, l.LeaseUntil, capped, prev.Owner, prev.Token, prev.LeaseUntil))
	}
	format := b.claimed
	if st.Op == "claim-next" {
		format = b.claimedNext
	}
	return b.finish(fmt.Sprintf(format, actor, l.Job, l.Token, l.LeaseUntil, capped))
}

// capNote is the note for a lease cut to its job's deadline.
func (r *runner) capNote(until int64, s *StepLine, st *Step) string {
	row := rowByID(st.Rows, st.Job)
	if row != nil && row.Deadline > 0 && until == row.Deadline && until < s.Time+s.TTL {
		return r.book.capNote
	}
	return ""
}

func (r *runner) refusedClaim(actor, job string, rej *Rejection, prev *engine.Job) string {
	b := r.book
	if rej.Reason == "quarantined" && prev != nil && prev.Status != engine.StatusQuarantined {
		why := fmt.Sprintf(b.nowDeadline, rej.Current.Deadline)
		if rej.Current.Reason == engine.ReasonAttempts {
			why = fmt.Sprintf(b.nowAttempts, rej.Current.MaxAttempts)
		}
		return b.finish(fmt.Sprintf(b.quarantinedBy, actor, job, why))
	}
	return b.finish(fmt.Sprintf(b.claimRefused, actor, job, r.why(actor, rej, prev)))
}

// why is the clause that says why an operation was refused.
func (r *runner) why(actor string, rej *Rejection, prev *engine.Job) string {
	b := r.book
	cur := rej.Current
	job := rej.Presented.Job
	switch rej.Reason {
	case "not-found":
		return fmt.Sprintf(b.notFound, job)
	case "done":
		return fmt.Sprintf(b.isDone, job)
	case "quarantined":
		if cur.Reason == engine.ReasonAttempts {
			return fmt.Sprintf(b.quarantinedAttempts, job, cur.MaxAttempts)
		}
		return fmt.Sprintf(b.quarantinedDeadline, job, cur.Deadline)
	case "held":
		return fmt.Sprintf(b.held, cur.Owner, cur.Token, cur.LeaseUntil)
	case "superseded":
		switch {
		case rej.Presented.Token == 0 && cur.Owner != actor:
			return fmt.Sprintf(b.neverHeld, actor)
		case cur.Owner == "":
			return fmt.Sprintf(b.supersededFree, cur.Token)
		case cur.Owner == actor:
			return fmt.Sprintf(b.supersededSelf, cur.Owner, cur.Token, r.granted[job])
		}
		return fmt.Sprintf(b.superseded, cur.Owner, cur.Token, r.granted[job])
	case "expired":
		if rej.Now >= cur.LeaseUntil {
			return fmt.Sprintf(b.expired, cur.LeaseUntil)
		}
		return fmt.Sprintf(b.deadlinePassed, cur.Deadline)
	}
	return rej.Message
}

// describe puts a row in words, as it stands at now.
func (r *runner) describe(row Row, now int64) string {
	b := r.book
	switch row.Status {
	case string(engine.StatusDone):
		return fmt.Sprintf(b.rowDone, row.Owner, row.Token, row.Result)
	case string(engine.StatusQuarantined):
		return fmt.Sprintf(b.rowQuarantined, b.reasons[row.Reason], row.Token)
	case string(engine.StatusLeased):
		if now >= row.LeaseUntil {
			return fmt.Sprintf(b.rowLeaseEnded, row.Owner, row.Token, row.LeaseUntil)
		}
		return fmt.Sprintf(b.rowLeased, row.Owner, row.Token, row.LeaseUntil)
	}
	return fmt.Sprintf(b.rowPending, row.Token)
}
