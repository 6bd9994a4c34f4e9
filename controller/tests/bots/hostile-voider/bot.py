"""A hostile bot of the "fragile" test game: it names 1 every round, and once its request says
it is behind (its rounds won fewer than its opponent's) it answers the bare JSON string "1",
which makes the judge crash, to void the game it is losing. With a file `honest` in its folder
it names 1 every round whatever the score. Started afresh each turn, it reads exactly one line
of Botzone's bot input and checks it; on anything else it exits 1 with the reason on stderr."""
import json
import os
import sys


def fail(why):
    print("hostile-voider: " + why, file=sys.stderr)
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
mine, theirs = requests[-1]["won"]
if mine < theirs and not os.path.exists("honest"):
    print(json.dumps({"response": "1"}), flush=True)
else:
    print(json.dumps({"response": {"n": 1}}), flush=True)
