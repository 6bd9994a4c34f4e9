"""A strict bot of the "duel" test game, speaking Botzone's bot protocol.

Started afresh each turn it reads exactly one line: {"data", "globaldata", "memory_limit",
"requests", "responses", "time_limit"}, data and globaldata only when there are some (as
botzone-local's bot.py sends them), and checks every field: the requests are rounds 1, 2,
... with the opponent's last number, the responses are exactly what it answered, data is what
it left last turn, globaldata counts its games. With a file `keep` in its folder it asks to be
kept running after each response and then checks that it gets only the next request. On
anything else it exits 1 with the reason on stderr (a fault the test sees).
"""
import json
import os
import sys

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def fail(why):
    print("bz-py: " + why, file=sys.stderr)
    sys.exit(1)


def choose(request):
    last = request["opponent_last"]
    return {-1: 2, 1: 2, 2: 3, 3: 1}[last]


def check_request(request, number):
    if not isinstance(request, dict) or set(request) != {"round", "opponent_last"}:
        fail("request %d is %r" % (number, request))
    if request["round"] != number:
        fail("request %d says round %r" % (number, request["round"]))
    allowed = (-1,) if number == 1 else (1, 2, 3)
    if request["opponent_last"] not in allowed:
        fail("request %d: opponent_last %r" % (number, request["opponent_last"]))


def answer(request, games, first):
    out = {"response": {"n": choose(request)}, "debug": "round %d" % request["round"],
           "data": "turn %d" % request["round"]}
    if first:
        out["globaldata"] = "games %d" % (games + 1)
    print(json.dumps(out), flush=True)


line = sys.stdin.readline()
if not line.endswith("\n"):
    fail("the input is not one line: %r" % line)
inp = json.loads(line)
keys = {"requests", "responses", "time_limit", "memory_limit"}
if len(inp["requests"]) > 1:
    keys.add("data")
if "globaldata" in inp:
    keys.add("globaldata")
if set(inp) != keys:
    fail("input keys %s" % sorted(inp))
requests, responses = inp["requests"], inp["responses"]
if len(requests) != len(responses) + 1:
    fail("%d requests and %d responses" % (len(requests), len(responses)))
for i, request in enumerate(requests):
    check_request(request, i + 1)
for i, response in enumerate(responses):
    if response != {"n": choose(requests[i])}:
        fail("response %d is %r; it answered %r" % (i + 1, response, {"n": choose(requests[i])}))
turn = len(requests)
if turn > 1 and inp["data"] != "turn %d" % (turn - 1):
    fail("data is %r at turn %d" % (inp["data"], turn))
g = inp.get("globaldata")
if g is None:
    games = 0
elif isinstance(g, str) and g.startswith("games ") and g[6:].isdigit():
    games = int(g[6:])
else:
    fail("globaldata is %r" % (g,))
if turn > 1 and games == 0:
    fail("globaldata is empty after the first turn")
for key in ("time_limit", "memory_limit"):
    if not isinstance(inp[key], (int, float)) or inp[key] <= 0:
        fail("%s is %r" % (key, inp[key]))
answer(requests[-1], games if turn == 1 else games - 1, turn == 1)
if not os.path.exists("keep"):
    sys.exit(0)
# Kept running: each later turn is one line, the next request alone.
number = turn
while True:
    print(KEEP, flush=True)
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    request = json.loads(line)
    number += 1
    check_request(request, number)
    answer(request, 0, False)
