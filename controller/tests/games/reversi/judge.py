"""Reversi's judge, speaking Botzone's judge protocol with the outputs of botzone-local's
Reversi judge: it reads one line {"initdata", "log"}, replays the log and prints its next
output. Written for take6's tests; it fails (exit 1) on a log of the wrong shape."""
import json
import sys

EIGHT = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def start():
    return {(3, 4): 1, (4, 3): 1, (3, 3): -1, (4, 4): -1}


def flips(board, x, y, colour):
    if not (0 <= x < 8 and 0 <= y < 8) or (x, y) in board:
        return []
    turned = []
    for dx, dy in EIGHT:
        line, cx, cy = [], x + dx, y + dy
        while board.get((cx, cy)) == -colour:
            line.append((cx, cy))
            cx, cy = cx + dx, cy + dy
        if line and board.get((cx, cy)) == colour:
            turned += line
    return turned


def moves(board, colour):
    return [(x, y) for y in range(8) for x in range(8) if flips(board, x, y, colour)]


def play(board, x, y, colour):
    for c in flips(board, x, y, colour) + [(x, y)]:
        board[c] = colour


def fail(why):
    print("reversi judge: " + why, file=sys.stderr)
    sys.exit(1)


def main():
    log = json.loads(sys.stdin.readline())["log"]
    if len(log) % 2:
        fail("a log of %d entries" % len(log))
    if not log:
        return {"command": "request", "content": {"0": {"x": -1, "y": -1}}, "display": ""}
    board = start()
    for i in range(1, len(log), 2):
        seat = (i // 2) % 2
        colour, other = (1, 1) if seat == 0 else (-1, 0)
        if set(log[i]) != {str(seat)}:
            fail("step %d answered by %s" % (i // 2 + 1, sorted(log[i])))
        answer = log[i][str(seat)]
        move = answer.get("response")
        last = i == len(log) - 1
        lost = {"command": "finish", "content": {str(seat): 0, str(other): 2}}
        if not (isinstance(move, dict) and isinstance(move.get("x"), int) and isinstance(move.get("y"), int)):
            if not last:
                fail("an earlier step was no move")
            lost["display"] = {"err": "INVALID_INPUT_VERDICT_" + answer.get("verdict", ""), "winner": other}
            return lost
        x, y = move["x"], move["y"]
        if x == -1:
            if moves(board, colour):
                if not last:
                    fail("an earlier pass was not allowed")
                lost["display"] = {"err": "HE_THOUGHT_THAT_HE_COULDNOT_MOVE_BUT_IN_FACT_HE_CAN", "winner": other}
                return lost
            if last:
                return {"command": "request", "content": {str(other): {"x": -1, "y": -1}},
                        "display": {"x": -1, "y": -1}}
            continue
        if (x, y) not in moves(board, colour):
            if not last:
                fail("an earlier move was not legal")
            lost["display"] = {"err": "INVALID_MOVE", "winner": other}
            return lost
        play(board, x, y, colour)
        if last:
            out = {"display": {"x": x, "y": y}}
            if moves(board, 1) or moves(board, -1):
                out.update(command="request", content={str(other): {"x": x, "y": y}})
                return out
            black = sum(1 for c in board.values() if c == 1)
            white = len(board) - black
            if black != white:
                out["display"]["winner"] = 0 if black > white else 1
            out.update(command="finish", content={"0": 2 if black > white else 0 if black < white else 1,
                                                  "1": 2 if white > black else 0 if white < black else 1})
            return out
    fail("the log goes on after the game ended")


print(json.dumps(main()))
