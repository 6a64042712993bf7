# A Speaker's interpreter natively, for the grader's tests: the page's
# module (leaselab_inpage) behind one JSON line a call on standard input
# and output, {"m": method, "a": [args]} answered {"answer": text}, and
# the student's calls back asked as {"callback", "args"} lines.
import json
import os
import sys

sys.path.insert(0, sys.argv[1])  # leaselab_adapter.py and leaselab_inpage.py
out = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr

import leaselab_inpage as inpage  # noqa: E402


def serve(req):
    out.write(json.dumps({"answer": getattr(inpage, req["m"])(*req["a"])}) + "\n")
    out.flush()


def callback(name, args):
    """Asks the grader, which may call again before it replies (it reads
    the student's table): those calls are served on the way, as a page's
    interpreter serves calls made from inside one of its own."""
    out.write(json.dumps({"callback": name, "args": json.loads(args)}) + "\n")
    out.flush()
    while True:
        msg = json.loads(sys.stdin.readline() or "{}")
        if "m" not in msg:
            return json.dumps(msg)
        serve(msg)


inpage.CALLBACK = callback
for line in sys.stdin:
    serve(json.loads(line))
