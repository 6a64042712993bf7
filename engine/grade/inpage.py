# The adapter's side in a page: one interpreter (a browser's Pyodide) in
# the grader's own thread, with no standard input or output to speak on.
# The grader calls start, call, rows and sql, each taking and answering
# JSON text, and the student's calls back reach the grader through
# CALLBACK. Within those calls it is leaselab_adapter's protocol: the same
# import, the same answers, the same errors.
#
# What a page cannot do is made to run one way here, each said in the
# report: threads run one after another at start (Pyodide starts none);
# each call may run for at most its budget, past which it is stopped
# where it stands (a line of the student's Python, a statement of
# SQLite) and answered as stopped.
import concurrent.futures
import concurrent.futures.thread
import json
import os
import sqlite3
import sys
import threading
import time

import leaselab_adapter as adapter

# CALLBACK(name, args_json) -> reply_json asks the grader on the student's
# call back (the courier's deliver); the page sets it.
CALLBACK = None


class Stopped(BaseException):
    """The call ran past its budget. A BaseException, so that the
    student's `except Exception` does not hide it."""


_module = None
_path = ""
_deadline = None
_over = ""
_sql = []
# The most statements a call's record keeps.
MAX_SQL = 50


def _check():
    global _over
    if _deadline is not None and time.monotonic() > _deadline[0]:
        _over = _deadline[1]
        raise Stopped(_over)


def _trace(frame, event, arg):
    _check()
    return _line


def _line(frame, event, arg):
    _check()
    return _line


_connect = sqlite3.connect


def _connected(*args, **kwargs):
    """sqlite3.connect, with the call's budget over SQLite's own work and a
    record of the statements it runs."""
    conn = _connect(*args, **kwargs)
    conn.set_progress_handler(lambda: 1 if _deadline is not None and time.monotonic() > _deadline[0] else 0, 1000)
    conn.set_trace_callback(lambda s: len(_sql) < MAX_SQL and _sql.append(s))
    return conn


class SequentialExecutor(concurrent.futures.Executor):
    """ThreadPoolExecutor where no thread can start: each submitted call
    runs at once, in the caller's thread, in the order submitted."""

    def __init__(self, max_workers=None, thread_name_prefix="", initializer=None, initargs=()):
        if initializer is not None:
            initializer(*initargs)

    def submit(self, fn, /, *args, **kwargs):
        f = concurrent.futures.Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except Stopped:
            raise
        except BaseException as e:
            f.set_exception(e)
        return f


def _run_at_start(self):
    """Thread.start where no thread can start: the thread's work, now."""
    self._leaselab_done = True
    self.run()


def _install():
    sqlite3.connect = _connected
    concurrent.futures.ThreadPoolExecutor = SequentialExecutor
    concurrent.futures.thread.ThreadPoolExecutor = SequentialExecutor
    threading.Thread.start = _run_at_start
    threading.Thread.join = lambda self, timeout=None: None
    threading.Thread.is_alive = lambda self: False


def _callback(name):
    def call(*args):
        reply = json.loads(CALLBACK(name, json.dumps(list(args))) or "{}")
        if "error" in reply or "return" not in reply:
            raise RuntimeError(reply.get("message", "the grader did not answer " + name))
        return reply["return"]
    return call


def _budget(ms, what):
    global _deadline, _over
    _over = ""
    _deadline = (time.monotonic() + ms / 1000, what)
    sys.settrace(_trace)


def _unbudget():
    global _deadline
    sys.settrace(None)
    _deadline = None


def start(request):
    """Imports the student's module afresh: request is {"path", "functions",
    "ms"}; the answer is the protocol's first line."""
    global _module, _path
    r = json.loads(request)
    _path = r["path"]
    sys.modules.pop("student", None)
    _budget(r["ms"], "the module's import ran longer than %d ms: an endless loop at its top level?" % r["ms"])
    try:
        _module, first = adapter.load(_path, r["functions"])
    except Stopped:
        _module, first = None, {"error": "Stopped", "message": _over, "stopped": _over}
    finally:
        _unbudget()
    return json.dumps(first)


def call(request):
    """One request of the grader's, {"fn", "args", "ms"}: its answer line,
    or {"stopped": why} when the call ran past ms."""
    r = json.loads(request)
    _sql.clear()
    _budget(r["ms"], "the call ran longer than %d ms: an endless loop?" % r["ms"])
    try:
        a = adapter.handle(_module, _path, r, _callback)
    except Stopped:
        a = {"error": "Stopped", "message": _over, "stopped": _over}
    finally:
        _unbudget()
    if _over and "stopped" not in a:  # stopped inside, and the student's code caught it
        a = {"error": "Stopped", "message": _over, "stopped": _over}
    return json.dumps(a)


def sql():
    """The statements the last call ran, as JSON (at most MAX_SQL)."""
    return json.dumps(_sql)


def rows(request):
    """The rows of a query on a database file, {"path", "query"}, read on a
    connection of the grader's: {"columns", "rows"} or {"error"}. The
    query BEGIN IMMEDIATE asks whether the write lock is free: no rows, or
    the error of a lock another connection holds."""
    r = json.loads(request)
    if not os.path.exists(r["path"]):
        return json.dumps({"error": "no such file: " + r["path"]})
    try:
        conn = _connect(r["path"], timeout=0, isolation_level=None)
        try:
            if r["query"] == "BEGIN IMMEDIATE":  # is the write lock free?
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("ROLLBACK")
                return json.dumps({"columns": [], "rows": []})
            cur = conn.execute(r["query"])
            return json.dumps({"columns": [d[0] for d in cur.description], "rows": cur.fetchall()})
        finally:
            conn.close()
    except sqlite3.Error as e:
        return json.dumps({"error": str(e)})


_install()
