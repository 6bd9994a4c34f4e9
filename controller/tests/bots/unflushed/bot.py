# unflushed: src-python's strict player of the default protocol, started by its own launch
# with plain python3 (buffered output into a pipe): it prints its replies and never flushes.
import re
import sys


def verdict(text):
    with open('verdicts.txt', 'a') as f:
        f.write(text + '\n')


def fail(why):
    verdict('FAIL ' + why)
    print('unflushed: ' + why, file=sys.stderr)
    sys.exit(3)


def line():
    s = sys.stdin.readline()
    if not s.endswith('\n'):
        fail('input ended early or without newline: %r' % s)
    return s[:-1]


def words(s, word, count=None):
    if not re.fullmatch(word + r'( \d+)*', s):
        fail('expected %s, got %r' % (word, s))
    nums = [int(w) for w in s.split(' ')[1:]]
    if count is not None and len(nums) != count:
        fail('%r: expected %d numbers' % (s, count))
    return nums


def board(s):
    words(s, 'count', 4)
    words(line(), 'cows', 4)
    words(line(), 'top', 4)


hand = words(line(), 'cards', 10)
players = None
s = line()
for turn in range(10):
    board(s)
    card = min(hand)
    hand.remove(card)
    print(card)
    players = len(words(line(), 'used', players))
    while True:
        s = line()
        if s == 'pickrow':
            board(line())
            print(0)
        elif s.startswith('cardgain '):
            words(line(), 'cowgain', 1)
        else:
            break
words(s, 'score', 1)
words(line(), 'others', players - 1)
if sys.stdin.readline():
    fail('more input after others')
verdict('ok')
