"""TicTacToe's judge, speaking Botzone's judge protocol with the outputs of botzone-local's
TicTacToe judge: it reads one line {"initdata", "log"}, replays the log and prints its next
output. Written for take6's tests; it fails (exit 1) on a log of the wrong shape."""
import json
import sys


def fail(why):
    print("tictactoe judge: " + why, file=sys.stderr)
    sys.exit(1)


def line_of(grid):
    lines = [[(x, y) for x in range(3)] for y in range(3)] + [[(x, y) for y in range(3)] for x in range(3)]
    lines += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
    for l in lines:
        s = sum(grid.get(c, 0) for c in l)
        if abs(s) == 3:
            return 1 if s > 0 else -1
    return 0


def main():
    line = sys.stdin.readline()
    log = json.loads(line)["log"]
    if len(log) % 2:
        fail("a log of %d entries" % len(log))
    if not log:
        return {"command": "request", "content": {"0": {"x": -1, "y": -1}}, "display": ""}
    grid = {}
    for i in range(1, len(log), 2):
        seat = (i // 2) % 2
        entry = log[i]
        if set(entry) != {str(seat)}:
            fail("step %d answered by %s" % (i // 2 + 1, sorted(entry)))
        answer = entry[str(seat)]
        move = answer.get("response")
        last = i == len(log) - 1
        other = 1 - seat
        lost = {"command": "finish", "content": {str(seat): 0, str(other): 2}}
        if not (isinstance(move, dict) and isinstance(move.get("x"), int) and isinstance(move.get("y"), int)):
            if not last:
                fail("an earlier step was no move")
            lost["display"] = {"err": "INVALID_INPUT_VERDICT_" + answer.get("verdict", ""), "winner": other}
            return lost
        x, y = move["x"], move["y"]
        if not (0 <= x < 3 and 0 <= y < 3) or (x, y) in grid:
            if not last:
                fail("an earlier move was not legal")
            lost["display"] = {"err": "INVALIDMOVE", "winner": other}
            return lost
        grid[(x, y)] = 1 if seat == 0 else -1
        if last:
            won = line_of(grid)
            out = {"display": {"x": x, "y": y}}
            if won:
                out["display"]["winner"] = seat
                out.update(command="finish", content={str(seat): 2, str(other): 0})
            elif len(grid) == 9:
                out.update(command="finish", content={"0": 1, "1": 1})
            else:
                out.update(command="request", content={str(other): {"x": x, "y": y}})
            return out
    fail("the log goes on after the game ended")


print(json.dumps(main()))
