"""Reversi's rules for take6's test judge and bot: the board is a dict {(x, y): 1 | -1}."""

EIGHT = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def start():
    return {(3, 4): 1, (4, 3): 1, (3, 3): -1, (4, 4): -1}


def flips(board, x, y, colour):
    if not (0 <= x < 8 and 0 <= y < 8) or (x, y) in board:
        return []
    turned = []
    for dx, dy in EIGHT:
        line, cx, cy = [], x + dx, y + dy
        while board.get((cx, cy)) == -colour:
            line.append((cx, cy))
            cx, cy = cx + dx, cy + dy
        if line and board.get((cx, cy)) == colour:
            turned += line
    return turned


def moves(board, colour):
    return [(x, y) for y in range(8) for x in range(8) if flips(board, x, y, colour)]


def play(board, x, y, colour):
    for c in flips(board, x, y, colour) + [(x, y)]:
        board[c] = colour
