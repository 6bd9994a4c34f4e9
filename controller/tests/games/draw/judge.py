#!/usr/bin/env python3
"""The judge of "draw", strict about the log Botzone's protocol promises.

Each call: one line {"log": [...], "initdata": ...}. On the first call (an empty log) it draws
the target at random, unless initdata is {"target": T}; with initdata {"save": true} its
first answer carries initdata {"target": T, "save": true}. On every later call it reads the
target from its first answer in the log (and checks it against initdata's, when there is
one), re-derives every later output it gave from the responses, and fails (exit 1, the
reason on stderr) on anything else.
"""
import json
import random
import sys

ROUNDS = 3
ENTRY = ["verdict", "response", "time", "memory", "keep_running", "debug"]


def fail(why):
    print("draw judge: " + why, file=sys.stderr)
    sys.exit(1)


def request(target, rnd, won):
    content = {str(p): {"target": target, "round": rnd} for p in (0, 1)}
    return {"command": "request", "content": content, "display": {"round": rnd, "won": won[:]}}


def first(initdata):
    if isinstance(initdata, dict) and isinstance(initdata.get("target"), int):
        target = initdata["target"]
    elif initdata == "" or (isinstance(initdata, dict) and set(initdata) <= {"save"}):
        target = random.SystemRandom().randint(1, 1000000)
    else:
        fail("initdata is %r" % (initdata,))
    out = request(target, 1, [0, 0])
    if isinstance(initdata, dict) and initdata.get("save"):
        out["initdata"] = {"target": target, "save": True}
    return target, out


def move(entry, p):
    if not isinstance(entry, dict) or sorted(entry) != sorted(ENTRY):
        fail("player %d's entry is %r" % (p, entry))
    r = entry["response"]
    if entry["verdict"] == "OK" and isinstance(r, dict) and set(r) == {"n"} and isinstance(r["n"], int):
        return r["n"]
    return None


def step(target, rnd, won, responses):
    if not isinstance(responses, dict) or set(responses) != {"0", "1"}:
        fail("responses are %r" % (responses,))
    moves = [move(responses[str(p)], p) for p in (0, 1)]
    bad = [p for p in (0, 1) if moves[p] is None]
    if bad:
        scores = [0, 0] if len(bad) == 2 else [2 if p not in bad else 0 for p in (0, 1)]
        return {"command": "finish", "content": {str(p): scores[p] for p in (0, 1)},
                "display": {"err": "INVALID_MOVE", "loser": bad}}
    d = [abs(m - target) for m in moves]
    if d[0] != d[1]:
        won[0 if d[0] < d[1] else 1] += 1
    if rnd == ROUNDS:
        scores = [1, 1] if won[0] == won[1] else ([2, 0] if won[0] > won[1] else [0, 2])
        return {"command": "finish", "content": {str(p): scores[p] for p in (0, 1)},
                "display": {"won": won[:], "target": target}}
    return request(target, rnd + 1, won)


def main():
    full = json.loads(sys.stdin.readline())
    if not isinstance(full, dict) or set(full) != {"log", "initdata"}:
        fail("the input is %r" % (full,))
    log, initdata = full["log"], full["initdata"]
    if len(log) % 2 != 0:
        fail("the log has %d entries" % len(log))
    if not log:
        print(json.dumps(first(initdata)[1]), flush=True)
        return
    opening = log[0].get("output") if isinstance(log[0], dict) else None
    try:
        target = opening["content"]["0"]["target"]
    except (TypeError, KeyError):
        fail("log[0] is %r" % (log[0],))
    saved = isinstance(initdata, dict) and "target" in initdata
    if saved and initdata["target"] != target:
        fail("initdata's target %r is not the first request's %r" % (initdata["target"], target))
    expected = first({"target": target, "save": True} if saved else {"target": target})[1]
    if opening != expected:
        fail("log[0]'s output is %r; this judge said %r" % (opening, expected))
    won = [0, 0]
    out = None
    for i in range(1, len(log), 2):
        out = step(target, (i + 1) // 2, won, log[i])
        if i + 1 < len(log) and log[i + 1].get("output") != out:
            fail("log[%d]'s output is %r; this judge said %r" % (i + 1, log[i + 1].get("output"), out))
    print(json.dumps(out), flush=True)


main()
