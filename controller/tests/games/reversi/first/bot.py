"""A strict Reversi bot: started afresh each turn, it reads exactly one line of Botzone's bot
input ({"requests", "responses", "time_limit", "memory_limit"}, "data" and "globaldata" when
there are some), replays the game from the requests (the opponent's moves) and its own
responses, failing on any move the rules refuse, and answers its first legal move (by y, then
x), or passes, with a debug line. On anything else it exits 1 with the reason."""
import json
import sys

from rules import moves, play, start


def fail(why):
    print("reversi-first: " + why, file=sys.stderr)
    sys.exit(1)


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
first = requests[0] == {"x": -1, "y": -1}
me = 1 if first else -1
board = start()


def apply(move, colour, what):
    if not isinstance(move, dict) or set(move) != {"x", "y"}:
        fail("%s is %r" % (what, move))
    if move["x"] == -1:
        if moves(board, colour):
            fail("%s passes with a move left" % what)
        return
    if (move["x"], move["y"]) not in moves(board, colour):
        fail("%s %r is not legal" % (what, move))
    play(board, move["x"], move["y"], colour)


for i, request in enumerate(requests):
    if i > 0 or not first:
        apply(request, -me, "request %d" % (i + 1))
    if i < len(responses):
        apply(responses[i], me, "response %d" % (i + 1))
legal = moves(board, me)
move = {"x": legal[0][0], "y": legal[0][1]} if legal else {"x": -1, "y": -1}
print(json.dumps({"response": move, "debug": "%d legal moves" % len(legal)}))
