"""A duel bot kept running (bot.toml keep_running = true) that never rests: after each reply
it thinks on, spinning on the processor while it waits for the next request, and once its
input ends it spins for ever (as a Tank2S bot on Botzone did). Botzone kills such a bot when
its game ends; what it does after its last reply is not its fault.

Its first turn reads one line of JSON (requests one more than responses, no data, a
globaldata it never writes absent); each later turn one line, the next request alone. It
answers {"response": {"n": 2}} and asks to be kept running. On anything else it exits 1."""
import json
import os
import select
import sys

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def fail(why):
    print("bz-spinner: " + why, file=sys.stderr)
    sys.exit(1)


def answer():
    print(json.dumps({"response": {"n": 2}}))
    print(KEEP, flush=True)


def next_line():
    """The next line of input, spinning (never sleeping) until it comes; at the end of the
    input, spins for ever."""
    buf = b""
    while True:
        ready, _, _ = select.select([0], [], [], 0)
        if not ready:
            continue
        chunk = os.read(0, 1 << 16)
        if not chunk:
            while True:
                pass
        buf += chunk
        if buf.endswith(b"\n"):
            return buf.decode()


inp = json.loads(next_line())
if set(inp) != {"requests", "responses", "time_limit", "memory_limit"}:
    fail("input keys %s" % sorted(inp))
if len(inp["requests"]) != 1 or inp["responses"] != []:
    fail("first turn %r" % inp)
answer()
turn = 1
while True:
    request = json.loads(next_line())
    turn += 1
    if request.get("round") != turn:
        fail("request %r at turn %d" % (request, turn))
    answer()
