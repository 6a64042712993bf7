// @ts-check
// exercise-python.js holds the starting code of <lease-exercise
// language="python">: the fencing lab's and the courier lab's functions in
// Python, as leaselab grade grades them natively (engine/grade), each
// body saying what the contract wants and the first lines saying where to
// begin.

/** The fencing lab's starting code. */
export const PY_FENCING = `# The fencing lab in Python, on Python's own sqlite3. Each function takes
# path, a database file: open a connection in each call (sqlite3.connect(
# path, isolation_level=None)) and close it before you return.
# The table: jobs(id, owner, until, fence, result, done).
# Where to begin: init_db. Check runs the steps in order; the first FAIL
# is the next function to write. Raise ValueError when ttl <= 0.
import sqlite3
from concurrent.futures import ThreadPoolExecutor


def init_db(path):
    # make the table if it is missing; keep every row
    pass


def enqueue(path, job_id):
    # add the job (owner NULL, until 0, fence 0, done 0): True; False if it exists
    pass


def state(path, job_id):
    # the row as a dict {id, owner, until, fence, result, done}, or None
    pass


def claim(path, job_id, owner, now, ttl):
    # None for a missing or done job, or while until > now; else, in one
    # BEGIN IMMEDIATE: owner, until = now + ttl, fence + 1; return the new fence
    pass


def renew(path, job_id, owner, fence, now, ttl):
    # True and until = now + ttl, only for the row's owner and fence, not done, until > now
    pass


def complete(path, job_id, owner, fence, now, result):
    # the same check as renew; result stored and done = 1
    pass


def release(path, job_id, owner, fence):
    # for the row's owner and fence, not done: owner NULL, until 0, the fence kept
    pass


def claim_many(path, job_id, owners, now, ttl):
    # every owner's claim at once (ThreadPoolExecutor); the answers in the owners' order
    pass
`;

/** The courier lab's starting code. */
export const PY_COURIER = `# The courier lab in Python, on Python's own sqlite3. Each function takes
# path, a database file: open a connection in each call (sqlite3.connect(
# path, isolation_level=None)) and close it before you return.
# The tables: jobs(id, qty, owner, lease_until, token, attempts,
# max_attempts, deadline, status, reason, result) and received(business_id, qty).
# Where to begin: init_db. Check runs the steps in order; the first FAIL
# is the next function to write. Raise ValueError when lease_ms <= 0.
import sqlite3


def init_db(path):
    # make both tables if they are missing; keep every row
    pass


def enqueue(path, job_id, qty=1, deadline=None, max_attempts=0):
    # add the job (status 'pending'): True; False if it exists
    pass


def state(path, job_id):
    # the row as a dict by column name, or None
    pass


def claim_next(path, owner, now, lease_ms):
    # in one BEGIN IMMEDIATE, the first job in enqueue order that is pending, or
    # leased with its lease ended: quarantine it (reason 'attempts' or 'deadline')
    # if it has no attempt or time left, else lease it until min(now + lease_ms,
    # deadline), token + 1, attempts + 1; return the marker {id, qty, owner,
    # token, attempt, lease_until}, or None when no job can be claimed
    pass


def finish(path, marker, now, result):
    # done, with result, only for the marker's owner and token, still leased,
    # before lease_until and before the deadline: True; else False
    pass


def send(path, owner, now, lease_ms, deliver):
    # claim_next; None when nothing to send. Then, outside any transaction,
    # delivered_at = deliver(marker), and finish the marker at delivered_at
    pass


def receive(path, business_id, qty):
    # the receiver keeps the first delivery of each business_id: True; a resend False
    pass
`;
