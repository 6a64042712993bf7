package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine/limits"
)

// Sentinels. A *Rejection unwraps to exactly one of ErrNotFound,
// ErrSuperseded, ErrDone, ErrQuarantined, ErrHeld, ErrExpired or ErrFenced;
// the reason is the first rule the operation breaks, in this order:
//
//   - claim: not found; done; quarantined; held.
//   - renew, complete, release: not found; superseded; done; quarantined;
//     expired. The stale token is named first, whatever became of the job
//     since: a worker that comes back with an old token hears that it is
//     stale (as in Kleppmann's fencing story), not that the job is done.
//   - a storage write: fenced.
var (
	// ErrInvalid: an argument is out of its domain (ttl <= 0 or over
	// MaxTTL; a negative now, or one plainly in another unit than ms; a
	// negative qty, deadline or max_attempts; a presented lease's negative
	// token; an empty id or owner, or one longer than
	// limits.Default.NameBytes; a result longer than
	// limits.Default.ResultBytes; a nil context or database given to New
	// or NewReceiver). Nothing changed.
	ErrInvalid = errors.New("invalid argument")
	// ErrEmpty: ClaimNext found no claimable job.
	ErrEmpty = errors.New("no claimable job")
	// ErrContention: only WithoutTransactions. The operation's guarded
	// write found the row changed by another writer on every one of its
	// attempts (1 + 64 start-overs); nothing changed, and the operation may
	// be tried again later. With transactions the database serializes the
	// writers instead (a busy timeout, then ErrBusy).
	ErrContention = errors.New("contention: the row kept changing under the operation")
	// ErrBusy: the database stayed locked by another connection past its
	// busy timeout (SQLite's SQLITE_BUSY, which the driver's error reports
	// as Temporary), at the operation's BEGIN IMMEDIATE, at one of its
	// statements or at its COMMIT, and the operation committed nothing: its
	// transaction was rolled back (without transactions, it had written
	// nothing yet). Nothing changed, and it may be tried again. The error
	// wraps the driver's too. Dispatch returns it with a lease when its
	// Complete was the call refused: the claim and the send stand.
	ErrBusy = errors.New("busy: the database stayed locked by another connection; nothing changed")
	// ErrPanicked: a goroutine the store started for the call (one
	// contender of ClaimManyOutcomes) panicked; the call returns this,
	// wrapped with the contender and the panic's value, instead of the
	// process dying. A transaction the contender held was rolled back.
	// It is the server's failure, never the caller's.
	ErrPanicked = errors.New("panicked")

	// ErrNotFound: no job has that id.
	ErrNotFound = errors.New("not found")
	// ErrDone: the job is done; done is final.
	ErrDone = errors.New("done")
	// ErrQuarantined: the job is quarantined (final), or the claim found its
	// budget used up and quarantined it; Rejection.Current.Reason says why.
	ErrQuarantined = errors.New("quarantined")
	// ErrHeld: a claim met a valid lease (now < lease_until), or one that
	// ran out less than the store's lock-delay ago (WithLockDelay).
	ErrHeld = errors.New("held")
	// ErrSuperseded: the presented owner or token is not the row's: a newer
	// claim exists, the lease was released, or the caller never held it.
	ErrSuperseded = errors.New("superseded")
	// ErrExpired: the presented lease is the current one but has ended
	// (now >= lease_until, or now >= deadline).
	ErrExpired = errors.New("expired")
	// ErrFenced: a Storage write presented a token lower than the highest
	// the storage has accepted for that key.
	ErrFenced = errors.New("fenced")
)

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// busyErr is err wrapped with ErrBusy when it is the database's busy:
// a driver's error that says it is Temporary (go-sqlite3's SQLITE_BUSY or
// an interrupt) while ctx is still live, so an interrupt by ctx's end is
// not taken for one. The caller knows the operation committed nothing.
func busyErr(ctx context.Context, err error) error {
	var temp interface{ Temporary() bool }
	if err == nil || ctx.Err() != nil || errors.Is(err, ErrBusy) || !errors.As(err, &temp) || !temp.Temporary() {
		return err
	}
	return fmt.Errorf("%w: %w", ErrBusy, err)
}

// openArgs refuses a nil context or database for opening a store or a
// receiver.
func openArgs(ctx context.Context, db *sql.DB) error {
	switch {
	case ctx == nil:
		return invalid("nil context.Context")
	case db == nil:
		return invalid("nil *sql.DB")
	}
	return nil
}

// checkName refuses a job id or an owner (what) that is empty or longer
// than limits.Default.NameBytes.
func checkName(what, name string) error {
	switch n := len(name); {
	case n == 0:
		return invalid("empty %s", what)
	case n > limits.Default.NameBytes:
		return invalid("%s of %d bytes over the limit %s", what, n, limits.Default.Row("name_bytes"))
	}
	return nil
}

// Rejection is a refusal by one of the contract's rules. It is a value the
// caller can show: the op, the rule (Reason), what the caller presented and
// the row as it stood at the refusal.
type Rejection struct {
	Op        string // "claim", "renew", "complete", "release" (the Op constants); "write" for Storage
	Reason    error  // one of the sentinels
	Presented Lease  // what the caller presented (owner and job id for a claim; the key as JobID for a write)
	Current   Job    // the row as it stood when the operation was refused (a write: the stored value as ID=key, Owner, Token, Result=value)
	Now       int64  // 0 for release, which takes no time
}

// Refusal names the rule that refused the operation (RefusalOf(r.Reason)).
func (r *Rejection) Refusal() Refusal { return RefusalOf(r.Reason) }

// Error names the op, the reason, what was presented next to what is
// current, and now, e.g.
//
//	complete refused (superseded): presented A#1, current B#2 until 2000, now 1001
func (r *Rejection) Error() string {
	var b strings.Builder
	b.WriteString(r.Op)
	b.WriteString(" refused (")
	if r.Reason != nil {
		b.WriteString(r.Reason.Error())
	}
	b.WriteString("): presented ")
	if r.Op == string(OpWrite) && errors.Is(r.Reason, ErrFenced) {
		r.writeStorage(&b)
		return b.String()
	}
	if r.Op == string(OpClaim) {
		b.WriteString(name(r.Presented.Owner))
		b.WriteString(" for ")
		b.WriteString(r.Presented.JobID)
	} else {
		b.WriteString(name(r.Presented.Owner))
		b.WriteString("#")
		b.WriteString(strconv.FormatInt(r.Presented.Token, 10))
	}
	b.WriteString(", ")
	if errors.Is(r.Reason, ErrNotFound) {
		b.WriteString("no job ")
		b.WriteString(strconv.Quote(r.Presented.JobID))
	} else {
		c := r.Current
		b.WriteString("current ")
		b.WriteString(name(c.Owner))
		b.WriteString("#")
		b.WriteString(strconv.FormatInt(c.Token, 10))
		b.WriteString(" until ")
		b.WriteString(strconv.FormatInt(c.LeaseUntil, 10))
		switch c.Status {
		case StatusDone:
			b.WriteString(" done")
		case StatusQuarantined:
			b.WriteString(" quarantined")
			if c.Reason != "" {
				b.WriteString(" (" + c.Reason + ")")
			}
		}
		if c.Deadline > 0 {
			b.WriteString(" deadline ")
			b.WriteString(strconv.FormatInt(c.Deadline, 10))
		}
		if c.MaxAttempts > 0 {
			fmt.Fprintf(&b, " attempts %d/%d", c.Attempts, c.MaxAttempts)
		}
	}
	if r.Op != string(OpRelease) {
		b.WriteString(", now ")
		b.WriteString(strconv.FormatInt(r.Now, 10))
	}
	return b.String()
}

// writeStorage words a storage write's refusal:
//
//	write refused (fenced): presented client1#33 for file-f, stored client2#34
//
// A storage write takes no time, so it names no instant.
func (r *Rejection) writeStorage(b *strings.Builder) {
	fmt.Fprintf(b, "%s#%d for %s, stored %s#%d", name(r.Presented.Owner), r.Presented.Token,
		r.Presented.JobID, name(r.Current.Owner), r.Current.Token)
}

// Unwrap returns the sentinel, so errors.Is(err, ErrSuperseded) works.
func (r *Rejection) Unwrap() error { return r.Reason }

func name(owner string) string {
	if owner == "" {
		return "nobody"
	}
	return owner
}
