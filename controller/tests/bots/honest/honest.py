"""The strict honest bot: every line must be the one the `default` protocol promises next.

A file `cpu-ms` in the working copy (written by a test: "MS REPLIES") makes it burn MS
milliseconds of CPU time before each of its first REPLIES replies of a game, to stand for a bot
that thinks. It keeps its hand in a temporary file during its game, as many programs keep
scratch files, and faults if that file is gone or changed."""
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
    check_scratch()
    think()
    sys.stdout.write("%d\n" % value)
    sys.stdout.flush()


scratch = None


def keep(hand):
    """Keeps its hand in a temporary file for the game, as many programs keep scratch files:
    $TMPDIR must be writable and stay as the bot left it until its game ends."""
    global scratch
    tmp = os.environ.get("TMPDIR", "/tmp")
    # Named after the marker argument: a test removes what a killed honest bot leaves.
    prefix = sys.argv[1] + "-" if len(sys.argv) > 1 else "honest-"
    with tempfile.NamedTemporaryFile("w", dir=tmp, prefix=prefix, delete=False) as f:
        f.write(" ".join(map(str, hand)))
        scratch = (f.name, " ".join(map(str, hand)))


def check_scratch():
    try:
        with open(scratch[0]) as f:
            if f.read() == scratch[1]:
                return
    except OSError as e:
        fail("temporary file %s: %s" % (scratch[0], e))
    fail("temporary file %s changed" % scratch[0])


def main():
    hand = numbers(read(), "cards", 10)
    if len(set(hand)) != 10 or not all(1 <= c <= 104 for c in hand):
        fail("bad hand %r" % hand)
    keep(hand)
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
    os.unlink(scratch[0])


main()
