"""The fencing lab with a claim that reads, closes, then writes: two claims
that read at once both win."""
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor

from correct import init_db, enqueue, state, renew, complete, release  # noqa: F401


def claim(path, job_id, owner, now, ttl):
    if ttl <= 0:
        raise ValueError("ttl must be positive")
    conn = sqlite3.connect(path, timeout=10)
    row = conn.execute("SELECT until, fence, done FROM jobs WHERE id=?", (job_id,)).fetchone()
    conn.close()
    if row is None or row[2] or row[0] > now:
        return None
    time.sleep(0.02)  # the window the lock should have closed
    conn = sqlite3.connect(path, timeout=10)
    with conn:
        conn.execute("UPDATE jobs SET owner=?, until=?, fence=? WHERE id=?", (owner, now + ttl, row[1] + 1, job_id))
    conn.close()
    return row[1] + 1


def claim_many(path, job_id, owners, now, ttl):
    with ThreadPoolExecutor(max_workers=len(owners) or 1) as pool:
        return list(pool.map(lambda o: claim(path, job_id, o, now, ttl), owners))
