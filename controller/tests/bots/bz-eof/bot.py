"""A duel bot that reads its whole input to the end of file, as many Botzone bots do
(`json.loads(sys.stdin.read())`): started afresh each turn, its input must be exactly one line
and then the end, as Botzone gives a bot that did not enable keep-running. It checks the
line's keys and that its requests and responses match; on anything else it exits 1 with the
reason on stderr."""
import json
import sys


def fail(why):
    print("bz-eof: " + why, file=sys.stderr)
    sys.exit(1)


text = sys.stdin.read()
if text.count("\n") != 1 or not text.endswith("\n"):
    fail("the input is not one line then the end: %r" % text[:200])
inp = json.loads(text)
# It never leaves data or globaldata: those keys are absent, as bot.py sends them.
keys = {"requests", "responses", "time_limit", "memory_limit"}
if set(inp) != keys:
    fail("input keys %s" % sorted(inp))
if len(inp["requests"]) != len(inp["responses"]) + 1:
    fail("%d requests and %d responses" % (len(inp["requests"]), len(inp["responses"])))
if any(r != {"n": 2} for r in inp["responses"]):
    fail("responses %r" % inp["responses"])
print(json.dumps({"response": {"n": 2}}))
