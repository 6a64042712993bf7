"""The correct fencing lab, talking as it works: every function prints,
writes to file descriptor 1 itself (as C code does) and reads its standard
input; init_db runs a program that writes to its standard output too. None
of it may reach the grader's protocol."""
import functools
import os
import subprocess
import sys

import correct


def _chatty(fn):
    @functools.wraps(fn)
    def talk(*args):
        print("calling", fn.__name__, args[1:])
        os.write(1, b"a write to file descriptor 1 in " + fn.__name__.encode() + b"\n")
        sys.stdin.readline()  # nothing to read: the grader's requests are not the student's
        return fn(*args)
    return talk


@_chatty
def init_db(path):
    subprocess.run(["echo", "a program init_db runs writes to its standard output"], check=True)
    return correct.init_db(path)


enqueue = _chatty(correct.enqueue)
state = _chatty(correct.state)
claim = _chatty(correct.claim)
renew = _chatty(correct.renew)
complete = _chatty(correct.complete)
release = _chatty(correct.release)
claim_many = _chatty(correct.claim_many)
