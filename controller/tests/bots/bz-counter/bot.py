"""A duel bot that counts its turns in Botzone's globaldata: started afresh each turn, it reads
one line, checks that globaldata is "count N" (its folder starts with "count 0"), and answers
n = 2 with globaldata "count N+1" after a pause (so that its turns at two tables overlap).
After a series its working copy's globaldata says how many turns it played, unless an update
was lost. On anything else it exits 1 with the reason on stderr."""
import json
import sys
import time


def fail(why):
    print("bz-counter: " + why, file=sys.stderr)
    sys.exit(1)


line = sys.stdin.readline()
if not line.endswith("\n"):
    fail("the input is not one line: %r" % line)
inp = json.loads(line)
g = inp["globaldata"]
if not (isinstance(g, str) and g.startswith("count ") and g[6:].isdigit()):
    fail("globaldata is %r" % (g,))
time.sleep(0.2)
print(json.dumps({"response": {"n": 2}, "globaldata": "count %d" % (int(g[6:]) + 1)}))
