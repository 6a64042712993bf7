"""The fencing lab with one mistake: claim boundary."""
import sqlite3
from concurrent.futures import ThreadPoolExecutor


def _connect(path):
    conn = sqlite3.connect(path, timeout=10, isolation_level=None)
    return conn


def init_db(path):
    conn = _connect(path)
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS jobs(id TEXT PRIMARY KEY, owner TEXT, until REAL NOT NULL DEFAULT 0,"
            " fence INTEGER NOT NULL DEFAULT 0, result TEXT, done INTEGER NOT NULL DEFAULT 0)")
    finally:
        conn.close()


def enqueue(path, job_id):
    conn = _connect(path)
    try:
        cur = conn.execute("INSERT OR IGNORE INTO jobs(id) VALUES (?)", (job_id,))
        return cur.rowcount == 1
    finally:
        conn.close()


def state(path, job_id):
    conn = _connect(path)
    try:
        row = conn.execute("SELECT id, owner, until, fence, result, done FROM jobs WHERE id=?", (job_id,)).fetchone()
        if row is None:
            return None
        return dict(zip(("id", "owner", "until", "fence", "result", "done"), row))
    finally:
        conn.close()


def claim(path, job_id, owner, now, ttl):
    if ttl <= 0:
        raise ValueError("ttl must be positive")
    conn = _connect(path)
    try:
        conn.execute("BEGIN IMMEDIATE")
        row = conn.execute("SELECT until, fence, done FROM jobs WHERE id=?", (job_id,)).fetchone()
        if row is None or row[2] or row[0] >= now:
            conn.execute("ROLLBACK")
            return None
        fence = row[1] + 1
        conn.execute("UPDATE jobs SET owner=?, until=?, fence=? WHERE id=?", (owner, now + ttl, fence, job_id))
        conn.execute("COMMIT")
        return fence
    finally:
        conn.close()


def renew(path, job_id, owner, fence, now, ttl):
    if ttl <= 0:
        raise ValueError("ttl must be positive")
    conn = _connect(path)
    try:
        cur = conn.execute(
            "UPDATE jobs SET until=? WHERE id=? AND owner=? AND fence=? AND done=0 AND until>?",
            (now + ttl, job_id, owner, fence, now))
        return cur.rowcount == 1
    finally:
        conn.close()


def complete(path, job_id, owner, fence, now, result):
    conn = _connect(path)
    try:
        cur = conn.execute(
            "UPDATE jobs SET result=?, done=1 WHERE id=? AND owner=? AND fence=? AND done=0 AND until>?",
            (result, job_id, owner, fence, now))
        return cur.rowcount == 1
    finally:
        conn.close()


def release(path, job_id, owner, fence):
    conn = _connect(path)
    try:
        cur = conn.execute(
            "UPDATE jobs SET owner=NULL, until=0 WHERE id=? AND owner=? AND fence=? AND done=0",
            (job_id, owner, fence))
        return cur.rowcount == 1
    finally:
        conn.close()


def claim_many(path, job_id, owners, now, ttl):
    with ThreadPoolExecutor(max_workers=len(owners) or 1) as pool:
        return list(pool.map(lambda o: claim(path, job_id, o, now, ttl), owners))
