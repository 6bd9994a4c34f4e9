"""A strict bot of the "duel" test game speaking Botzone's simple interaction (bot.toml
simple_io = true), through the game's [simpleio] functions (a request is the line "ROUND
OPPONENT_LAST", a response the line "N").

Started afresh each turn, its input is exactly what botzone-local's bot.py gives, then the
end: the turn number n, its n requests and n - 1 responses alternately (each response what
it answered), then its data (from its second turn: "turn N-1") and its globaldata (once it
has some: "games K", counted at each game's first turn). It answers its response line, a
debug line, a data line and, at a game's first turn, a globaldata line.

With a file `keep` in its folder (and keep_running = true in bot.toml) it leaves no data or
globaldata, asks to be kept running after each response, and then reads exactly one line per
turn, the next request alone. With a file `crash` in its folder, started afresh, it exits 3 at
its third turn once it has checked its input. On anything else it exits 1 with the reason on
stderr."""
import os
import sys

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def fail(why):
    print("bz-simple: " + why, file=sys.stderr)
    sys.exit(1)


def choose(last):
    return {-1: 2, 1: 2, 2: 3, 3: 1}[last]


def check_request(line, number):
    parts = line.split(" ")
    if len(parts) != 2 or parts[0] != str(number):
        fail("request %d is %r" % (number, line))
    last = int(parts[1])
    if last not in ((-1,) if number == 1 else (1, 2, 3)):
        fail("request %d: opponent_last %r" % (number, line))
    return last


def kept():
    line = sys.stdin.readline()
    if line != "1\n":
        fail("first line %r, expected the turn number 1" % line)
    number = 1
    line = sys.stdin.readline()
    while True:
        if not line.endswith("\n"):
            fail("request %d is not a line: %r" % (number, line))
        print(choose(check_request(line[:-1], number)))
        print("round %d" % number)
        print(KEEP, flush=True)
        line = sys.stdin.readline()
        if not line:
            sys.exit(0)
        number += 1


def afresh():
    text = sys.stdin.read()
    if not text.endswith("\n"):
        fail("the input does not end with a line feed: %r" % text)
    lines = text[:-1].split("\n")
    n = int(lines[0])
    history = lines[1:2 * n]
    if len(history) != 2 * n - 1:
        fail("turn %d: %d lines of history" % (n, len(history)))
    for i in range(n):
        last = check_request(history[2 * i], i + 1)
        if i + 1 < n and history[2 * i + 1] != str(choose(last)):
            fail("response %d is %r" % (i + 1, history[2 * i + 1]))
    extra = lines[2 * n:]
    if n > 1:
        if not extra or extra[0] != "turn %d" % (n - 1):
            fail("data at turn %d: %r" % (n, extra))
        extra = extra[1:]
    games = 0
    if extra:
        g = extra[0]
        if len(extra) != 1 or not g.startswith("games ") or not g[6:].isdigit():
            fail("after the history: %r" % (extra,))
        games = int(g[6:])
    if n > 1 and games == 0:
        fail("no globaldata after the first turn")
    if n == 3 and os.path.exists("crash"):
        sys.exit(3)
    out = [str(choose(check_request(history[-1], n))), "round %d" % n, "turn %d" % n]
    if n == 1:
        out.append("games %d" % (games + 1))
    print("\n".join(out), flush=True)


if os.path.exists("keep"):
    kept()
else:
    afresh()
