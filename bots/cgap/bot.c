/*
 * cgap -- sample Take 6! bot in C (default protocol).
 *
 * Strategy ("high safe, else dump low"):
 *   * A card is safe if it would land on a row that currently has fewer than
 *     5 cards (not as a 6th card, and not below every row's top).  Among the
 *     safe cards play the HIGHEST one whose gap to its row's top is at most
 *     10 (it keeps the low cards for later and rarely lets others overtake
 *     it); if no safe card is that close, play the safe card with the
 *     smallest gap.
 *   * With no safe card, play the lowest card when the cheapest row costs no
 *     more than the cheapest 6th-card take, otherwise the card that takes
 *     the cheapest full row.
 * pickrow: the row with the fewest cows (ties: fewer cards, lower index).
 *
 * I/O: parses lines by their first word, ignores unknown lines, keeps its
 * own hand, stdout is line buffered and flushed after every reply.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hand[16], nhand;
static int count[4] = {1, 1, 1, 1}, cows[4] = {1, 1, 1, 1}, top[4];

static int read4(const char *s, int *v)
{
    int t[4];
    if (sscanf(s, "%d %d %d %d", &t[0], &t[1], &t[2], &t[3]) != 4)
        return 0;
    memcpy(v, t, sizeof t);
    return 1;
}

static int cheapest_row(void)
{
    int r, best = 0;
    for (r = 1; r < 4; r++)
        if (cows[r] < cows[best] || (cows[r] == cows[best] && count[r] < count[best]))
            best = r;
    return best;
}

static int target_row(int c)
{
    int r, row = -1;
    for (r = 0; r < 4; r++)
        if (top[r] < c && (row < 0 || top[r] > top[row]))
            row = r;
    return row;
}

static int choose_card(void)
{
    int i, close = -1, nearest = -1, nearest_gap = 1000;
    int lowest = -1, take = -1, take_cost = 1000;
    if (nhand == 0)
        return 0;
    for (i = 0; i < nhand; i++) {
        int c = hand[i], r = target_row(c);
        if (lowest < 0 || c < hand[lowest])
            lowest = i;
        if (r < 0)
            continue;
        if (count[r] >= 5) {
            if (cows[r] < take_cost) {
                take_cost = cows[r];
                take = i;
            }
            continue;
        }
        if (c - top[r] <= 10 && (close < 0 || c > hand[close]))
            close = i;
        if (c - top[r] < nearest_gap) {
            nearest_gap = c - top[r];
            nearest = i;
        }
    }
    if (close >= 0)
        return close;
    if (nearest >= 0)
        return nearest;
    if (take >= 0 && take_cost < cows[cheapest_row()])
        return take;
    return lowest;
}

int main(void)
{
    char line[4096];
    int picking = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        char word[32];
        int n = 0;
        if (sscanf(line, "%31s%n", word, &n) != 1)
            continue;
        if (strcmp(word, "cards") == 0) {
            char *p = line + n, *end;
            nhand = 0;
            for (;;) {
                long v = strtol(p, &end, 10);
                if (end == p || nhand >= 16)
                    break;
                hand[nhand++] = (int)v;
                p = end;
            }
        } else if (strcmp(word, "count") == 0) {
            read4(line + n, count);
        } else if (strcmp(word, "cows") == 0) {
            read4(line + n, cows);
        } else if (strcmp(word, "top") == 0) {
            read4(line + n, top);
            if (picking) {
                picking = 0;
                printf("%d\n", cheapest_row());
            } else {
                int i = choose_card(), c = nhand ? hand[i] : 0;
                if (nhand)
                    hand[i] = hand[--nhand];
                printf("%d\n", c);
            }
            fflush(stdout);
        } else if (strcmp(word, "pickrow") == 0) {
            picking = 1;
        } else if (strcmp(word, "invalid") == 0) {
            break;
        }
        /* used, cardgain, cowgain, score, others, unknown: ignored */
        if (!strchr(line, '\n')) {      /* over-long line: skip the rest */
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n')
                ;
        }
    }
    return 0;
}
