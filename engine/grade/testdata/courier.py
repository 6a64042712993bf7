"""A correct implementation of the courier lab's functions."""
import sqlite3


def _connect(path):
    return sqlite3.connect(path, timeout=10, isolation_level=None)


def init_db(path):
    conn = _connect(path)
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS jobs(id TEXT PRIMARY KEY, qty INTEGER NOT NULL DEFAULT 1,"
            " owner TEXT, lease_until INTEGER NOT NULL DEFAULT 0, token INTEGER NOT NULL DEFAULT 0,"
            " attempts INTEGER NOT NULL DEFAULT 0, max_attempts INTEGER NOT NULL DEFAULT 0, deadline INTEGER,"
            " status TEXT NOT NULL DEFAULT 'pending', reason TEXT, result TEXT)")
        conn.execute("CREATE TABLE IF NOT EXISTS received(business_id TEXT PRIMARY KEY, qty INTEGER NOT NULL)")
    finally:
        conn.close()


def enqueue(path, job_id, qty=1, deadline=None, max_attempts=0):
    conn = _connect(path)
    try:
        cur = conn.execute("INSERT OR IGNORE INTO jobs(id, qty, deadline, max_attempts) VALUES (?, ?, ?, ?)",
                           (job_id, qty, deadline, max_attempts))
        return cur.rowcount == 1
    finally:
        conn.close()


COLUMNS = ("id", "qty", "owner", "lease_until", "token", "attempts", "max_attempts", "deadline", "status",
           "reason", "result")


def state(path, job_id):
    conn = _connect(path)
    try:
        row = conn.execute("SELECT " + ", ".join(COLUMNS) + " FROM jobs WHERE id=?", (job_id,)).fetchone()
        if row is None:
            return None
        return dict(zip(COLUMNS, row))
    finally:
        conn.close()


def claim_next(path, owner, now, lease_ms):
    if lease_ms <= 0:
        raise ValueError("lease_ms must be positive")
    conn = _connect(path)
    try:
        conn.execute("BEGIN IMMEDIATE")
        rows = conn.execute(
            "SELECT id, qty, owner, lease_until, token, attempts, max_attempts, deadline FROM jobs"
            " WHERE status IN ('pending', 'leased') ORDER BY rowid").fetchall()
        for job_id, qty, cur_owner, until, token, attempts, max_attempts, deadline in rows:
            if cur_owner is not None and until > now:
                continue  # held by a valid lease
            if max_attempts > 0 and attempts >= max_attempts:
                conn.execute("UPDATE jobs SET status='quarantined', reason='attempts' WHERE id=?", (job_id,))
                continue
            if deadline is not None and now >= deadline:
                conn.execute("UPDATE jobs SET status='quarantined', reason='deadline' WHERE id=?", (job_id,))
                continue
            lease_until = now + lease_ms if deadline is None else min(now + lease_ms, deadline)
            conn.execute("UPDATE jobs SET owner=?, lease_until=?, token=?, attempts=?, status='leased' WHERE id=?",
                         (owner, lease_until, token + 1, attempts + 1, job_id))
            conn.execute("COMMIT")
            return {"id": job_id, "qty": qty, "owner": owner, "token": token + 1, "attempt": attempts + 1,
                    "lease_until": lease_until}
        conn.execute("COMMIT")  # the quarantines made on the way stay
        return None
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()


def finish(path, marker, now, result):
    conn = _connect(path)
    try:
        cur = conn.execute(
            "UPDATE jobs SET status='done', result=? WHERE id=? AND owner=? AND token=? AND status='leased'"
            " AND lease_until>? AND (deadline IS NULL OR deadline>?)",
            (result, marker["id"], marker["owner"], marker["token"], now, now))
        return cur.rowcount == 1
    finally:
        conn.close()


def send(path, owner, now, lease_ms, deliver):
    marker = claim_next(path, owner, now, lease_ms)  # committed: its lock is released
    if marker is None:
        return None
    delivered_at = deliver(marker)  # outside any transaction
    return finish(path, marker, delivered_at, "sent")


def receive(path, business_id, qty):
    conn = _connect(path)
    try:
        cur = conn.execute("INSERT OR IGNORE INTO received(business_id, qty) VALUES (?, ?)", (business_id, qty))
        return cur.rowcount == 1
    finally:
        conn.close()
