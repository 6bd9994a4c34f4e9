#!/usr/bin/env python3
"""The judge of "duel", strict about the log Botzone's protocol promises.

Each call: one line {"log": [...], "initdata": ...}. The log alternates this judge's own
outputs, wrapped ({"keep_running", "memory", "time", "verdict": "OK", "output"}), and the
players' responses keyed by player ({"0": {"verdict": "OK", "response": ..., "time": 0,
"memory": 0, "keep_running": ..., "debug": ...}}; a player that faulted has its verdict and a
null response). The judge re-derives every output it gave from the responses and fails (exit 1, the
reason on stderr) on anything else: a log of the wrong shape, an output it did not give.

Kept running (initdata "keep": true, with game.toml's [judge] keep_running), it prints
>>>BOTZONE_REQUEST_KEEP_RUNNING<<< after each output and then reads only the responses.
"""
import json
import sys

VERDICTS = {"TLE", "MLE", "RE", "OLE", "NJ"}
KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
ENTRY = ["verdict", "response", "time", "memory", "keep_running", "debug"]


def fail(why):
    print("duel judge: " + why, file=sys.stderr)
    sys.exit(1)


def check_keys(what, obj, keys):
    if not isinstance(obj, dict) or set(obj) != set(keys):
        fail("%s has keys %s, expected %s" % (what, sorted(obj) if isinstance(obj, dict) else type(obj).__name__, sorted(keys)))


def beats(a, b):
    return (a == 1 and b == 3) or (a > b and not (a == 3 and b == 1))


class Game:
    def __init__(self, initdata):
        if not isinstance(initdata, dict) or not isinstance(initdata.get("rounds"), int):
            fail("initdata is %r, expected {\"rounds\": N, ...}" % (initdata,))
        self.rounds = initdata["rounds"]
        self.keep = initdata.get("keep", False)
        self.won = [0, 0]
        self.last = [-1, -1]
        self.round = 1

    def request(self):
        content = {str(p): {"round": self.round, "opponent_last": self.last[1 - p]} for p in (0, 1)}
        return {"command": "request", "content": content,
                "display": {"round": self.round, "won": self.won[:]}}

    def first(self):
        out = self.request()
        out["initdata"] = {"rounds": self.rounds, "keep": self.keep}
        return out

    def step(self, responses):
        check_keys("responses", responses, ["0", "1"])
        moves = []
        for p in (0, 1):
            r = responses[str(p)]
            if not isinstance(r, dict) or "verdict" not in r:
                fail("player %d's entry is %r" % (p, r))
            # Botzone's fields, whatever the verdict (a faulted player's response is null).
            check_keys("player %d's entry" % p, r, ENTRY)
            if r["time"] != 0 or r["memory"] != 0 or not isinstance(r["keep_running"], bool):
                fail("player %d's entry is %r" % (p, r))
            if r["verdict"] == "OK":
                resp = r["response"]
                if isinstance(resp, dict) and set(resp) == {"n"} and resp["n"] in (1, 2, 3):
                    moves.append(resp["n"])
                else:
                    moves.append(None)
            else:
                if r["response"] is not None or r["keep_running"]:
                    fail("player %d faulted, and its entry is %r" % (p, r))
                if r["verdict"] not in VERDICTS:
                    fail("player %d's verdict is %r" % (p, r["verdict"]))
                moves.append(None)
        bad = [p for p in (0, 1) if moves[p] is None]
        if bad:
            scores = [0, 0] if len(bad) == 2 else [2 if p not in bad else 0 for p in (0, 1)]
            # As Botzone's judges say why: an invalid move, or the verdict of a fault.
            verdict = responses[str(bad[0])]["verdict"]
            err = "INVALID_MOVE" if verdict == "OK" else "INVALID_INPUT_VERDICT_" + verdict
            return {"command": "finish", "content": {str(p): scores[p] for p in (0, 1)},
                    "display": {"loser": bad, "err": err, "responses": responses}}
        a, b = moves
        if beats(a, b):
            self.won[0] += 1
        elif beats(b, a):
            self.won[1] += 1
        self.last = moves
        self.round += 1
        if self.round > self.rounds:
            w = self.won
            scores = [1, 1] if w[0] == w[1] else ([2, 0] if w[0] > w[1] else [0, 2])
            return {"command": "finish", "content": {str(p): scores[p] for p in (0, 1)},
                    "display": {"won": w}}
        return self.request()


def replay(full):
    check_keys("the input", full, ["log", "initdata"])
    log = full["log"]
    if len(log) % 2 != 0:
        fail("the log has %d entries; a judge is called after the responses" % len(log))
    game = None
    for i in range(0, len(log), 2):
        entry = log[i]
        check_keys("log[%d]" % i, entry, ["keep_running", "memory", "time", "verdict", "output"])
        if entry["verdict"] != "OK" or not isinstance(entry["keep_running"], bool):
            fail("log[%d] is %r" % (i, entry))
        if i == 0:
            game = Game(full["initdata"])
            expected = game.first()
        else:
            expected = game.step(log[i - 1])
        if entry["output"] != expected:
            fail("log[%d]'s output is %r; this judge said %r" % (i, entry["output"], expected))
    if game is None:
        game = Game(full["initdata"])
        return game, game.first()
    return game, game.step(log[-1])


def main():
    line = sys.stdin.readline()
    game, out = replay(json.loads(line))
    while True:
        print(json.dumps(out))
        if out["command"] == "finish" or not game.keep:
            sys.stdout.flush()
            return
        print(KEEP, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        out = game.step(json.loads(line))


main()
