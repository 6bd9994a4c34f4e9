"""The strict honest bot: every line must be the one the `default` protocol promises next.

A file `cpu-ms` in the working copy (written by a test: "MS REPLIES") makes it burn MS
milliseconds of CPU time before each of its first REPLIES replies of a game, to stand for a bot
that thinks. It also writes a temporary file, as many programs do."""
import os
import sys
import tempfile
import time


def fail(why):
    sys.stderr.write("honest: protocol violation: %s\n" % why)
    sys.exit(3)


def numbers(line, word, count=None):
    parts = line.split(" ")
    if not line.endswith("\n") or parts[0] != word:
        fail("expected %r, got %r" % (word, line))
    parts[-1] = parts[-1][:-1]
    try:
        values = [int(p) for p in parts[1:]]
    except ValueError:
        fail("not numbers: %r" % line)
    if count is not None and len(values) != count:
        fail("expected %d numbers: %r" % (count, line))
    return values


def read():
    line = sys.stdin.readline()
    if not line:
        fail("unexpected end of input")
    if line == "invalid\n":
        sys.exit(0)
    return line


def board(first):
    count = numbers(first, "count", 4)
    cows = numbers(read(), "cows", 4)
    top = numbers(read(), "top", 4)
    if not all(1 <= c <= 5 for c in count) or not all(1 <= t <= 104 for t in top):
        fail("impossible board")
    return cows


replies = 0


def think():
    global replies
    replies += 1
    try:
        with open("cpu-ms") as f:
            ms, count = f.read().split()
    except FileNotFoundError:
        return
    if replies > int(count):
        return
    budget = int(ms) / 1000.0
    start = time.process_time()
    while time.process_time() - start < budget:
        pass


def reply(value):
    think()
    sys.stdout.write("%d\n" % value)
    sys.stdout.flush()


def scratch():
    """Uses a temporary file, as many programs do: $TMPDIR must be writable."""
    with tempfile.TemporaryFile(dir=os.environ.get("TMPDIR", "/tmp")) as f:
        f.write(b"scratch")


def main():
    scratch()
    hand = numbers(read(), "cards", 10)
    if len(set(hand)) != 10 or not all(1 <= c <= 104 for c in hand):
        fail("bad hand %r" % hand)
    line = read()
    for turn in range(10):
        board(line)
        card = min(hand)
        hand.remove(card)
        reply(card)
        used = numbers(read(), "used")
        if card not in used or len(used) < 2:
            fail("own card %d not in %r" % (card, used))
        line = read()
        if line == "pickrow\n":
            cows = board(read())
            reply(cows.index(min(cows)))
            line = read()
        if line.startswith("cardgain "):
            numbers(line, "cardgain")
            numbers(read(), "cowgain", 1)
            line = read()
    numbers(line, "score", 1)
    numbers(read(), "others", len(used) - 1)
    rest = sys.stdin.read()
    if rest:
        fail("more after others: %r" % rest[:80])


main()
