"""The padding bot of "fragile": started afresh each turn, it reads exactly one line of
Botzone's bot input ({"requests", "responses", "time_limit", "memory_limit"}, rounds 1, 2, ...
with the scores so far, its own earlier responses {"n": 2}) and answers {"n": 2}. On anything
else it exits 1 with the reason on stderr."""
import json
import sys


def fail(why):
    print("steady: " + why, file=sys.stderr)
    sys.exit(1)


line = sys.stdin.readline()
if not line.endswith("\n") or sys.stdin.read() != "":
    fail("the input is not exactly one line")
inp = json.loads(line)
if set(inp) - {"data", "globaldata"} != {"requests", "responses", "time_limit", "memory_limit"}:
    fail("input keys %s" % sorted(inp))
requests, responses = inp["requests"], inp["responses"]
if len(requests) != len(responses) + 1:
    fail("%d requests and %d responses" % (len(requests), len(responses)))
for i, request in enumerate(requests):
    if set(request) != {"round", "won"} or request["round"] != i + 1:
        fail("request %d is %r" % (i + 1, request))
for response in responses:
    if response != {"n": 2}:
        fail("a response of its own is %r" % (response,))
print(json.dumps({"response": {"n": 2}}), flush=True)
