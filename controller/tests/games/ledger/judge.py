#!/usr/bin/env python3
"""The judge of "ledger", started afresh each call: one line {"log", "initdata"} in, one output
out. It re-derives every output it gave from the responses and fails (exit 1, the reason on
stderr) on anything else: a log of the wrong shape, an output it did not give, a step that
asked no player whose responses are not exactly {}."""
import json
import sys

ENTRY = {"verdict", "response", "time", "memory", "keep_running", "debug"}


def fail(why):
    print("ledger judge: " + why, file=sys.stderr)
    sys.exit(1)


class Game:
    def __init__(self, initdata):
        if not isinstance(initdata, dict) or set(initdata) != {"rounds", "idle"}:
            fail("initdata is %r" % (initdata,))
        self.rounds, self.idle = initdata["rounds"], initdata["idle"]
        self.round, self.waiting, self.sums = 1, 0, [0, 0]

    def ask(self):
        return {"command": "request",
                "content": {str(p): {"round": self.round} for p in (0, 1)},
                "display": {"round": self.round, "sums": self.sums[:]}}

    def first(self):
        out = self.ask()
        out["initdata"] = {"rounds": self.rounds, "idle": self.idle}
        return out

    def step(self, responses):
        if self.waiting != 0:
            if responses != {}:
                fail("a step that asked no player was answered %r" % (responses,))
            self.waiting -= 1
        else:
            if not isinstance(responses, dict) or set(responses) != {"0", "1"}:
                fail("responses %r" % (responses,))
            for p in (0, 1):
                entry = responses[str(p)]
                if set(entry) != ENTRY:
                    fail("player %d's entry is %r" % (p, entry))
                n = entry["response"].get("n") if entry["verdict"] == "OK" else 0
                self.sums[p] += n if n in (1, 2, 3) else 0
            self.round += 1
            self.waiting = self.idle
        if self.waiting != 0:
            return {"command": "request", "content": {}, "display": {"idle": self.waiting}}
        if self.round > self.rounds:
            return {"command": "finish",
                    "content": {str(p): self.sums[p] * 1.25 - 2.37 for p in (0, 1)},
                    "display": {"sums": self.sums}}
        return self.ask()


def main():
    full = json.loads(sys.stdin.readline())
    if set(full) != {"log", "initdata"} or len(full["log"]) % 2 != 0:
        fail("the input is %r" % (full,))
    log = full["log"]
    game = Game(full["initdata"] if not log else log[0]["output"]["initdata"])
    out = game.first()
    for i in range(0, len(log), 2):
        if log[i]["output"] != out:
            fail("log[%d]'s output is %r; this judge said %r" % (i, log[i]["output"], out))
        out = game.step(log[i + 1])
    print(json.dumps(out), flush=True)


main()
