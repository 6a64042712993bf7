"""A student's own protocol loop, as a student in another language writes
one: read a request a line, call the function, write the answer."""
import json
import sys

import correct

print(json.dumps({"ready": True, "missing": []}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    try:
        ret = getattr(correct, req["fn"])(*req["args"])
        print(json.dumps({"return": ret}), flush=True)
    except ValueError as e:
        print(json.dumps({"error": "ValueError", "message": str(e)}), flush=True)
