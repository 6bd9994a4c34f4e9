"""A player of "ledger": started afresh each turn, it reads exactly one line of Botzone's bot
input ({"requests", "responses", "time_limit", "memory_limit"}: rounds 1, 2, ..., its own
earlier responses) and answers {"n": N}, N its file `n` (1 unless there is one). On anything
else it exits 1 with the reason on stderr."""
import json
import os
import sys


def fail(why):
    print("ledger bot: " + why, file=sys.stderr)
    sys.exit(1)


here = os.path.dirname(os.path.abspath(__file__))
n = int(open(os.path.join(here, "n")).read()) if os.path.exists(os.path.join(here, "n")) else 1
line = sys.stdin.readline()
if not line.endswith("\n") or sys.stdin.read() != "":
    fail("the input is not exactly one line")
inp = json.loads(line)
if set(inp) != {"requests", "responses", "time_limit", "memory_limit"}:
    fail("input keys %s" % sorted(inp))
requests, responses = inp["requests"], inp["responses"]
if requests != [{"round": i + 1} for i in range(len(requests))]:
    fail("requests %r" % (requests,))
if responses != [{"n": n}] * (len(requests) - 1):
    fail("responses %r" % (responses,))
print(json.dumps({"response": {"n": n}}), flush=True)
