"""A strict bot of the "draw" test game, speaking Botzone's bot protocol, started afresh
each turn: it reads exactly one line {"requests", "responses", "time_limit", "memory_limit"}
(no "data": it saves none), checks that every request names the same target and the
rounds 1, 2, ..., and that the responses are what it answered; it answers the target plus
the number in its file `offset` (0 when there is none). On anything else it exits 1 with the
reason on stderr."""
import json
import os
import sys


def fail(why):
    print("near: " + why, file=sys.stderr)
    sys.exit(1)


here = os.path.dirname(os.path.abspath(__file__))
try:
    offset = int(open(os.path.join(here, "offset")).read())
except FileNotFoundError:
    offset = 0
line = sys.stdin.readline()
if not line.endswith("\n") or sys.stdin.read() != "":
    fail("the input is not one line")
inp = json.loads(line)
requests, responses = inp.get("requests"), inp.get("responses")
if set(inp) != {"requests", "responses", "time_limit", "memory_limit"}:
    fail("input keys %s" % sorted(inp))
if len(requests) != len(responses) + 1:
    fail("%d requests and %d responses" % (len(requests), len(responses)))
target = requests[0].get("target") if isinstance(requests[0], dict) else None
if not isinstance(target, int) or not 1 <= target <= 1000000:
    fail("the first request is %r" % (requests[0],))
for i, r in enumerate(requests):
    if r != {"target": target, "round": i + 1}:
        fail("request %d is %r" % (i + 1, r))
for i, r in enumerate(responses):
    if r != {"n": target + offset}:
        fail("response %d is %r" % (i + 1, r))
print(json.dumps({"response": {"n": target + offset}}), flush=True)
