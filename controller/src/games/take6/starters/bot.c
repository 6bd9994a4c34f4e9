/* NAME: a Take 6! bot for take6 (the default protocol: docs/protocol.md), written by
 * `take6 new`. It plays the lowest card of its hand and, asked for a row, takes the one with
 * the fewest cows. Put your strategy in choose_card and choose_row; the rest reads the
 * protocol. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hand[10], nhand, count[4], cows[4], top[4];

/* The index in hand of the card to play. Per row 0-3: its cards, its cows, its last card. */
static int choose_card(void) {
    int best = 0;
    for (int i = 1; i < nhand; i++)
        if (hand[i] < hand[best]) best = i;
    return best;
}

/* The row to take (0-3) when the card played is lower than every row's last card. */
static int choose_row(void) {
    int best = 0;
    for (int r = 1; r < 4; r++)
        if (cows[r] < cows[best]) best = r;
    return best;
}

static int numbers(char *text, int *out, int max) {
    int n = 0;
    char *end;
    for (long v = strtol(text, &end, 10); end != text && n < max; v = strtol(text, &end, 10)) {
        out[n++] = (int)v;
        text = end;
    }
    return n;
}

int main(void) {
    char line[4096], word[32];
    int picking = 0, at;
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "%31s%n", word, &at) != 1) continue;
        char *rest = line + at;
        if (!strcmp(word, "cards")) nhand = numbers(rest, hand, 10);
        else if (!strcmp(word, "count")) numbers(rest, count, 4);
        else if (!strcmp(word, "cows")) numbers(rest, cows, 4);
        else if (!strcmp(word, "pickrow")) picking = 1;
        else if (!strcmp(word, "top")) { /* the last line of a question: reply, and flush */
            numbers(rest, top, 4);
            if (picking) {
                printf("%d\n", choose_row());
                picking = 0;
            } else {
                int i = choose_card();
                printf("%d\n", hand[i]);
                hand[i] = hand[--nhand];
            }
            fflush(stdout);
        } else if (!strcmp(word, "invalid")) return 0;
        /* used, cardgain, cowgain, score, others: news, no reply. */
    }
    return 0;
}
