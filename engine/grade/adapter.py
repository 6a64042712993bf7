# The Python side of leaselab grade's protocol: it imports the student's
# module and answers one JSON request a line on standard input with one JSON
# answer a line on standard output. It keeps both to itself, on private
# copies of their file descriptors: the student's code, and the C code and
# programs it runs, write to standard error whatever they write to
# standard output, and read nothing from standard input.
import importlib.util
import json
import os
import sys
import traceback

# The lab's functions: the fencing lab's unless the grader names others
# (comma-separated, after the module's path).
FUNCTIONS = ("init_db", "enqueue", "state", "claim", "renew", "complete", "release", "claim_many")


def answer(out, obj):
    out.write(json.dumps(obj) + "\n")
    out.flush()


def protocol():
    """The protocol's input and output, on private copies of file descriptors
    0 and 1; fd 1 (and sys.stdout) then is standard error, and fd 0 (and
    sys.stdin) empty, for the student's code and every program it starts."""
    inp = os.fdopen(os.dup(0), "r", encoding="utf-8")
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    return inp, out


def callback(inp, out, name):
    """A function the student calls back (the courier's deliver): it asks the
    grader on the protocol and returns the grader's answer."""
    def call(*args):
        answer(out, {"callback": name, "args": list(args)})
        reply = json.loads(inp.readline() or "{}")
        if "error" in reply or "return" not in reply:
            raise RuntimeError(reply.get("message", "the grader did not answer " + name))
        return reply["return"]
    return call


def theirs(path, e):
    """The frames of e's traceback in the student's own files (the import
    machinery's and this adapter's left out)."""
    home = os.path.dirname(os.path.abspath(path))
    return [f for f in traceback.extract_tb(e.__traceback__)
            if os.path.abspath(f.filename).startswith(home + os.sep) and f.filename != __file__]


def where(path, e):
    """' (FILE line N, in FN)', the innermost of the student's frames, or ''."""
    frames = theirs(path, e)
    if not frames:
        return ""
    f = frames[-1]
    return " (%s line %d, in %s)" % (os.path.basename(f.filename), f.lineno, f.name)


def load(path, functions):
    """Imports the student's module at path: (module, the protocol's first
    answer), {"ready": true, "missing": [...]}, or (None, the import's error)."""
    sys.path.insert(0, os.path.dirname(path))  # the student's own helper modules
    try:
        spec = importlib.util.spec_from_file_location("student", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["student"] = mod
        spec.loader.exec_module(mod)
    except BaseException as e:  # the student's import failed: say why and stop
        lines = traceback.format_list(theirs(path, e)[-3:]) + traceback.format_exception_only(type(e), e)
        return None, {"error": type(e).__name__, "message": "".join(lines)}
    missing = [f for f in functions if not callable(getattr(mod, f, None))]
    return mod, {"ready": True, "missing": missing}


def handle(mod, path, req, callback):
    """The answer to one request of the grader's, req ({"fn", "args"}), on
    the student's module mod; callback(name) is the function that asks the
    grader when the student calls name back."""
    fn = getattr(mod, req["fn"], None)
    if not callable(fn):
        return {"error": "AttributeError", "message": os.path.basename(path) + " defines no " + req["fn"]}
    try:
        ret = fn(*[callback(a["callback"]) if isinstance(a, dict) and list(a) == ["callback"] else a
                   for a in req["args"]])
    except Exception as e:  # a ValueError of the student's own kind is still one
        if isinstance(e, ValueError):  # the contract's own refusal of a bad argument
            return {"error": "ValueError", "message": str(e)}
        return {"error": type(e).__name__, "message": str(e) + where(path, e)}
    try:
        json.dumps(ret)
    except (TypeError, ValueError) as e:
        return {"error": "TypeError", "message": "the return value is not JSON: " + str(e)}
    return {"return": ret}


def main():
    inp, out = protocol()
    path = sys.argv[1]
    functions = sys.argv[2].split(",") if len(sys.argv) > 2 else FUNCTIONS
    mod, first = load(path, functions)
    answer(out, first)
    if mod is None:
        return
    while True:
        line = inp.readline()
        if not line:
            return
        line = line.strip()
        if not line:
            continue
        answer(out, handle(mod, path, json.loads(line), lambda name: callback(inp, out, name)))


if __name__ == "__main__":
    main()
