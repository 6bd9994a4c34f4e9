#!/usr/bin/env python3
# NAME: a Kingdomino bot for take6 (CodinGame's protocol: docs/kingdomino.md), written by
# `take6 new`. It puts its tile at the first legal place it finds and picks the lowest free
# tile. Both lines are sent on every turn: `PUT 0 0 0` on turn 1 (nothing to place) and
# `PICK -1` on the last (nothing to pick). Put your strategy in choose_put and choose_pick.
import sys

STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # rotation 0-3: second square right, below, left, above


def legal(grid, squares, x, y, r):
    """Whether the tile's squares fit at x, y with rotation r: on empty squares of the 9x9 grid,
    the kingdom within 5x5 (castle included), touching the castle or its own terrain."""
    cells = [(x, y, squares[0]), (x + STEPS[r][0], y + STEPS[r][1], squares[1])]
    if not all(0 <= cx < 9 and 0 <= cy < 9 and grid[cy][cx][0] == '_' for cx, cy, _ in cells):
        return False
    used = [(cx, cy) for cy in range(9) for cx in range(9) if grid[cy][cx][0] != '_']
    xs = [c[0] for c in used] + [c[0] for c in cells]
    ys = [c[1] for c in used] + [c[1] for c in cells]
    if max(xs) - min(xs) >= 5 or max(ys) - min(ys) >= 5:
        return False
    for cx, cy, square in cells:
        for dx, dy in STEPS:
            nx, ny = cx + dx, cy + dy
            if 0 <= nx < 9 and 0 <= ny < 9 and grid[ny][nx][0] in ('*', square[0]):
                return True
    return False


def choose_put(grid, squares):
    """Where to put the tile (its two squares, e.g. ['c0', 'f1']): the first legal place."""
    for y in range(9):
        for x in range(9):
            for r in range(4):
                if legal(grid, squares, x, y, r):
                    return x, y, r
    return 0, 0, 0  # it fits nowhere: discarded, the values are ignored


def choose_pick(free):
    """The tile to pick among the free ids of the offer."""
    return min(free)


def main():
    players, nb_tiles = int(sys.stdin.readline()), int(sys.stdin.readline())
    while True:
        first = sys.stdin.readline()
        if not first:
            return  # the game is over
        rows = [first] + [sys.stdin.readline() for _ in range(9 * players - 1)]
        grid = [[row[2 * i:2 * i + 2] for i in range(9)] for row in rows[:9]]  # its own first
        in_play = [sys.stdin.readline().split() for _ in range(nb_tiles)]
        offer = [sys.stdin.readline().split() for _ in range(nb_tiles)]
        mine = [t for t in in_play if t[4] == '1']  # the tile this turn places (none on turn 1)
        x, y, r = choose_put(grid, mine[0][1:3]) if mine else (0, 0, 0)
        free = [int(t[0]) for t in offer if t[3] == '-1' and t[0] != '0']
        pick = choose_pick(free) if free else -1  # none on the last turn
        print('PUT %d %d %d' % (x, y, r))
        print('PICK %d' % pick, flush=True)


main()
