"""A strict TicTacToe bot: started afresh each turn, it reads exactly one line of Botzone's bot
input ({"requests", "responses", "time_limit", "memory_limit"}, "data" and "globaldata" when
there are some), checks that the requests and its own responses make a game (the opponent's
moves onto empty squares, its responses the ones it would give), and answers the first empty
square (by y, then x) with a debug line. On anything else it exits 1 with the reason."""
import json
import sys


def fail(why):
    print("ttt-first: " + why, file=sys.stderr)
    sys.exit(1)


def choose(taken):
    return next({"x": x, "y": y} for y in range(3) for x in range(3) if (x, y) not in taken)


line = sys.stdin.readline()
if not line.endswith("\n") or sys.stdin.read() != "":
    fail("the input is not one line")
inp = json.loads(line)
keys = set(inp)
if not {"requests", "responses", "time_limit", "memory_limit"} <= keys <= {
        "requests", "responses", "time_limit", "memory_limit", "data", "globaldata"}:
    fail("input keys %s" % sorted(keys))
requests, responses = inp["requests"], inp["responses"]
if len(requests) != len(responses) + 1:
    fail("%d requests and %d responses" % (len(requests), len(responses)))
taken = set()
for i, request in enumerate(requests):
    if not isinstance(request, dict) or set(request) != {"x", "y"}:
        fail("request %d is %r" % (i + 1, request))
    move = (request["x"], request["y"])
    if move != (-1, -1) or i > 0:
        if move in taken or not all(0 <= c < 3 for c in move):
            fail("request %d: the opponent's move %r" % (i + 1, move))
        taken.add(move)
    if i < len(responses):
        if responses[i] != choose(taken):
            fail("response %d is %r" % (i + 1, responses[i]))
        taken.add((responses[i]["x"], responses[i]["y"]))
move = choose(taken)
print(json.dumps({"response": move, "debug": "turn %d: %d taken" % (len(requests), len(taken))}))
