"""A hostile bot of the "duel" test game speaking Botzone's simple interaction (bot.toml
simple_io = true), in a game whose [simpleio] response_to_json spins on the line "spin": it
answers "spin" to its first request. Started afresh, it reads exactly what botzone-local's
bot.py gives for a first turn (the turn number 1, then the request line "1 -1"); on anything
else it exits 1 with the reason on stderr."""
import sys


def fail(why):
    print("hostile-transform: " + why, file=sys.stderr)
    sys.exit(1)


text = sys.stdin.read()
lines = text.split("\n")
if lines[:2] != ["1", "1 -1"]:
    fail("the input is %r" % text)
print("spin", flush=True)
