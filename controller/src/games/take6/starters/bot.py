#!/usr/bin/env python3
# NAME: a Take 6! bot for take6 (the default protocol: docs/protocol.md), written by `take6 new`.
# It plays the lowest card of its hand and, asked for a row, takes the one with the fewest cows.
# Put your strategy in choose_card and choose_row; the rest reads the protocol.
import sys


def choose_card(hand, count, cows, top):
    """The card to play: one of `hand`. Per row 0-3: its cards, its cows, its last card."""
    return min(hand)


def choose_row(count, cows, top):
    """The row to take (0-3) when the card played is lower than every row's last card."""
    return min(range(4), key=lambda r: cows[r])


def main():
    hand, count, cows, picking = [], [], [], False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        word, numbers = words[0], [int(w) for w in words[1:]]
        if word == 'cards':
            hand = numbers
        elif word == 'count':
            count = numbers
        elif word == 'cows':
            cows = numbers
        elif word == 'pickrow':
            picking = True
        elif word == 'top':  # the last line of a question: reply now, and flush
            if picking:
                print(choose_row(count, cows, numbers), flush=True)
                picking = False
            else:
                card = choose_card(hand, count, cows, numbers)
                hand.remove(card)
                print(card, flush=True)
        elif word == 'invalid':
            return
        # used, cardgain, cowgain, score, others: news, no reply.


main()
