package timeline

import (
	"strings"

	"github.com/leaselab/leaselab/engine"
)

var english = phrasebook{
	list: func(names []string) string {
		if len(names) < 2 {
			return strings.Join(names, "")
		}
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	},
	finish: func(s string) string { return s },
	ops: map[string]string{"claim": "claim", "renew": "renew", "complete": "complete", "release": "release", "send": "send",
		"deliver": "delivery", "enqueue": "enqueue", "state": "read", "claim_next": "claim", "claim_many": "claim",
		"write": "write", "read": "read", "reopen": "reopen"},
	reasons: map[string]string{engine.ReasonAttempts: "attempts used up", engine.ReasonDeadline: "deadline passed"},

	claimed:        "%[1]s claims %[2]s and gets token %[3]d; the lease runs until %[4]d ms%[5]s.",
	claimedNext:    "%[1]s claims the oldest claimable job, %[2]s, and gets token %[3]d; the lease runs until %[4]d ms%[5]s.",
	reclaimed:      "%[1]s claims %[2]s, whose lease by %[6]s with token %[7]d ended at %[8]d ms, and gets token %[3]d; the lease runs until %[4]d ms%[5]s.",
	reclaimedSelf:  "%[1]s claims %[2]s again and gets token %[3]d, so its own token %[7]d is stale now; the lease runs until %[4]d ms%[5]s.",
	reclaimedClock: "%[1]s claims %[2]s, whose lease by %[6]s with token %[7]d ended at %[8]d ms on %[6]s's clock (true time %[9]d ms), and gets token %[3]d; the lease runs until %[4]d ms%[5]s.",
	reclaimedEarly: "%[1]s claims %[2]s and gets token %[3]d, though %[6]s's lease with token %[7]d runs until %[8]d ms on %[6]s's clock (true time %[9]d ms): it has not ended, but %[1]s's clock says it has; the lease runs until %[4]d ms%[5]s.",
	capNote:        ", cut to the job's deadline",
	noJob:          "%[1]s finds no claimable job.",
	claimRefused:   "%[1]s's claim of %[2]s is refused: %[3]s.",
	quarantinedBy:  "%[1]s's claim of %[2]s is refused, and the claim quarantines the job: %[3]s.",
	writeRefused:   "%[1]s's %[2]s with token %[3]d is refused: %[4]s.",
	renewed:        "%[1]s renews %[2]s with token %[3]d; the lease now runs until %[4]d ms%[5]s.",
	completed:      "%[1]s completes %[2]s with token %[3]d; the job is done with result %[4]q.",
	released:       "%[1]s releases %[2]s; the token stays %[3]d, so the next claim gets token %[4]d.",
	sent:           "%[1]s sends %[2]s with token %[3]d: the receiver records qty %[4]d, and the complete at %[5]d ms marks it done.",
	sentAgain:      "%[1]s sends %[2]s with token %[3]d: the receiver already has it and adds nothing, and the complete at %[5]d ms marks it done.",
	sentLate:       "%[1]s's send of %[2]s reached the receiver, but its complete at %[3]d ms is refused: %[4]s.",
	sentNothing:    "%[1]s finds nothing to send.",
	sendFailed:     "%[1]s's send of %[2]s fails at %[4]d ms; the lease is released and the token stays %[3]d.",
	delivered:      "The receiver records %[2]s (qty %[3]d) from %[1]s with token %[4]d; its total is %[5]d.",
	appliedAgain:   "The receiver, which is not idempotent, applies %[2]s again (qty %[3]d) from %[1]s with token %[4]d: it does not recognise a resend, and its total is %[5]d.",
	redelivered:    "The receiver already has %[2]s: %[1]s's delivery with token %[4]d adds nothing, and its total stays %[5]d.",
	enqueued:       "%[1]s enqueues %[2]s (qty %[3]d).",
	enqueueExists:  "%[2]s already exists: %[1]s's enqueue changes nothing.",
	stateRead:      "%[1]s reads %[2]s: %[3]s.",
	stateMissing:   "%[1]s reads %[2]s: there is no such job.",
	manyWon:        "%[1]s claim %[2]s at the same instant: only %[3]s gets it (token %[4]d, until %[5]d ms), and the others are refused.",
	manyNone:       "%[1]s claim %[2]s at the same instant, and all are refused: %[3]s.",
	manyOdd:        "%[1]s claim %[2]s at the same instant, and %[3]s get it.",
	invalid:        "%[1]s's %[2]s is invalid (%[3]s); nothing changes.",
	failed:         "%[1]s's %[2]s failed: %[3]s.",

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

	supersededDone: "%[1]s holds token %[2]d since %[3]d ms and has written its result",
	ownClock:       " (on %[1]s's clock, which reads %[2]d ms: %[3]s)",
	serviceClock:   " (on the service's clock, which reads %[1]d ms: %[2]s)",
	believes:       "; %[1]s's own clock reads %[2]d ms, so %[1]s believes its lease runs until %[3]d ms by it",
	ahead:          "%d ms ahead",
	behind:         "%d ms behind",
	paused:         "%[1]s stops from %[2]d ms to %[3]d ms (a GC pause, a stalled network): it does nothing, and its leases keep running out.",
	crashed:        "%[1]s crashes and forgets its leases (%[2]s); the rows still name it until they end. Its next step is a new process under the same name.",
	crashedEmpty:   "%[1]s crashes; it held no lease. Its next step is a new process under the same name.",
	waited:         "Time passes to %[1]d ms.",
	reopened:       "%[1]s opens the store again (init_db runs again): every row and token stays as it was.",
	reopenedForgot: "%[1]s restarts the lock service, which kept its leases in memory: every lease and every token is gone, and each job starts again, pending at token 0.",
	reopenedLost:   "%[1]s opens the store again, and init_db resets it: %[2]s gone, every token with them.",
	wrote:          "%[1]s writes %[2]s with token %[3]d: the storage accepts it (no higher token wrote there before) and holds %[4]q.",
	wroteStale:     "%[1]s writes %[2]s with token %[3]d and the storage accepts it, holding %[4]q: no higher token wrote there before, so it cannot tell that %[5]s has since been granted token %[6]d. This write is stale.",
	wroteEnded:     "%[1]s writes %[2]s with token %[3]d and the storage accepts it, holding %[4]q, though %[1]s's lease ended at %[5]d ms: the storage fences only by tokens it has seen.",
	alsoChanged:    "The step changes %[1]s too: %[2]s.",
	inFlight:       " (the message was sent at %[1]d ms and arrives %[2]d ms later)",
	wroteChecked:   "%[1]s's write of %[2]s with token %[3]d is refused: the storage asks the lock service, and %[4]s.",
	wroteSequenced: "%[1]s writes %[2]s with token %[3]d: the storage asks the lock service, which says token %[3]d is the current, live lease, and holds %[4]q.",
	wroteUnfenced:  "%[1]s writes %[2]s with token %[3]d, and the storage, which does not fence, holds %[4]q whatever token wrote there before.",
	wroteFenced:    "%[1]s's write of %[2]s with token %[3]d is refused: the storage already accepted token %[5]d from %[4]s, and a lower token is stale.",
	readValue:      "%[1]s reads %[2]s from the storage: %[3]q, written by %[4]s with token %[5]d.",
	readMissing:    "%[1]s reads %[2]s from the storage: nothing is stored there.",
}
