import os
import sys
import time

AFTER = int(open('after-last-ms').read()) if os.path.exists('after-last-ms') else None
BURN = 0 if AFTER is not None else 1500


def fail(why):
    sys.stderr.write('hostile-background: %s\n' % why)
    sys.exit(3)


def line():
    s = sys.stdin.readline()
    if not s.endswith('\n'):
        fail('input ended early' if not s else 'line without newline: %r' % s)
    return s[:-1]


def words(s, word):
    parts = s.split(' ')
    if parts[0] != word or not all(p.isdigit() for p in parts[1:]):
        fail('expected %r, got %r' % (word, s))
    return [int(p) for p in parts[1:]]


def burn(ms):
    end = time.process_time() + ms / 1000
    while time.process_time() < end:
        pass


child = None


def reply(text):
    """Waits for the thinking child, answers, and starts the next one."""
    global child
    if child is not None:
        os.waitpid(child, 0)
        with open('thought.txt', 'a') as f:
            f.write('burned %d ms\n' % BURN)
    print(text, flush=True)
    child = None
    if BURN:
        child = os.fork()
        if child == 0:
            burn(BURN)
            os._exit(0)


hand = words(line(), 'cards')
s = None
for turn in range(10):
    words(s if s is not None else line(), 'count')
    words(line(), 'cows')
    words(line(), 'top')
    card = min(hand)
    hand.remove(card)
    reply(card)
    words(line(), 'used')
    while True:
        s = line()
        if s == 'pickrow':
            words(line(), 'count')
            words(line(), 'cows')
            words(line(), 'top')
            reply(0)
        elif s.startswith('cardgain '):
            words(s, 'cardgain')
            words(line(), 'cowgain')
        else:
            break
words(s, 'score')
words(line(), 'others')
if AFTER:
    burn(AFTER)
    with open('thought.txt', 'a') as f:
        f.write('burned %d ms after the last message\n' % AFTER)
