#!/usr/bin/env python3
"""The judge of "fragile": one line {"log", "initdata"} in, one output out (started afresh each
call). Each round asks player 0, then player 1, one at a time. It reads each response as
`response["n"]` without looking at its type, as botzone-local's C++ judges index a jsoncpp
value: a bare string response raises TypeError and the judge exits 1 with the traceback on
stderr. It also fails on its own, reading no new response: at its first call when initdata
says `crash_first`, and after a step whose player faulted twice in a row."""
import json
import sys


def request(player, rnd, won):
    return {"command": "request",
            "content": {str(player): {"round": rnd, "won": [won[player], won[1 - player]]}},
            "display": {"round": rnd, "won": won}}


def finish(scores, display):
    return {"command": "finish", "content": {str(p): scores[p] for p in (0, 1)},
            "display": display}


def main():
    full = json.loads(sys.stdin.readline())
    initdata = full["initdata"]
    if isinstance(initdata, str):
        initdata = json.loads(initdata) if initdata else {}
    if initdata.get("crash_first"):
        raise RuntimeError("fragile judge: told to fail at its first call")
    rounds = initdata["rounds"]
    log = full["log"]
    won = [0, 0]
    out = request(0, 1, won)
    out["initdata"] = {"rounds": rounds}
    moves = []
    for i in range(1, len(log), 2):
        (key, entry), = log[i].items()
        player = int(key)
        rnd = len(moves) // 2 + 1
        if entry["verdict"] != "OK":
            if player == 1 and moves[-1] is None:
                # A bug of its own: it reads no new response here.
                raise RuntimeError("fragile judge: both players faulted")
            n = None
        else:
            # No type check: a string response raises TypeError here.
            n = entry["response"]["n"]
            if n not in (1, 2, 3):
                n = None
        moves.append(n)
        if player == 0:
            out = request(1, rnd, won)
            continue
        bad = [p for p in (0, 1) if moves[-2 + p] is None]
        if bad:
            scores = [0, 0] if len(bad) == 2 else [0 if p in bad else 2 for p in (0, 1)]
            out = finish(scores, {"err": "INVALID_MOVE", "loser": bad})
            break
        a, b = moves[-2], moves[-1]
        if a > b:
            won[0] += 1
        elif b > a:
            won[1] += 1
        if rnd == rounds:
            scores = [1, 1] if won[0] == won[1] else ([2, 0] if won[0] > won[1] else [0, 2])
            out = finish(scores, {"won": won})
            break
        out = request(0, rnd + 1, won)
    print(json.dumps(out), flush=True)


main()
