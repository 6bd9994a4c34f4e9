/* NAME: a Kingdomino bot for take6 (CodinGame's protocol: docs/kingdomino.md), written by
 * `take6 new`. It puts its tile at the first legal place it finds and picks the lowest free
 * tile. Both lines are sent on every turn: `PUT 0 0 0` on turn 1 (nothing to place) and
 * `PICK -1` on the last (nothing to pick). Put your strategy in choose_put and choose_pick. */
#include <stdio.h>
#include <string.h>

static const int DX[4] = {1, 0, -1, 0}, DY[4] = {0, 1, 0, -1}; /* right, below, left, above */
static char grid[9][9]; /* its own kingdom: each square's terrain, '_' empty, '*' castle */

static int inside(int x, int y) { return x >= 0 && x < 9 && y >= 0 && y < 9; }

/* Whether terrains a, b fit at x, y with rotation r: on empty squares, the kingdom within
 * 5x5 (castle included), touching the castle or its own terrain. */
static int legal(char a, char b, int x, int y, int r) {
    int cx[2] = {x, x + DX[r]}, cy[2] = {y, y + DY[r]};
    char t[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (!inside(cx[i], cy[i]) || grid[cy[i]][cx[i]] != '_') return 0;
    int x0 = cx[0] < cx[1] ? cx[0] : cx[1], x1 = cx[0] + cx[1] - x0;
    int y0 = cy[0] < cy[1] ? cy[0] : cy[1], y1 = cy[0] + cy[1] - y0;
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 9; i++)
            if (grid[j][i] != '_') {
                if (i < x0) x0 = i;
                if (i > x1) x1 = i;
                if (j < y0) y0 = j;
                if (j > y1) y1 = j;
            }
    if (x1 - x0 >= 5 || y1 - y0 >= 5) return 0;
    for (int i = 0; i < 2; i++)
        for (int d = 0; d < 4; d++) {
            int nx = cx[i] + DX[d], ny = cy[i] + DY[d];
            if (inside(nx, ny) && (grid[ny][nx] == '*' || grid[ny][nx] == t[i])) return 1;
        }
    return 0;
}

/* Where to put the tile of terrains a, b: the first legal place. */
static void choose_put(char a, char b, int *x, int *y, int *r) {
    for (*y = 0; *y < 9; (*y)++)
        for (*x = 0; *x < 9; (*x)++)
            for (*r = 0; *r < 4; (*r)++)
                if (legal(a, b, *x, *y, *r)) return;
    *x = *y = *r = 0; /* it fits nowhere: discarded, the values are ignored */
}

/* The tile to pick among the free ids of the offer. */
static int choose_pick(const int *free, int n) {
    int best = free[0];
    for (int i = 1; i < n; i++)
        if (free[i] < best) best = free[i];
    return best;
}

int main(void) {
    int players, nb;
    char line[256];
    if (scanf("%d %d", &players, &nb) != 2) return 0;
    for (;;) {
        for (int row = 0; row < 9 * players; row++) {
            if (scanf("%255s", line) != 1) return 0; /* the game is over */
            if (row < 9)
                for (int i = 0; i < 9; i++) grid[row][i] = line[2 * i];
        }
        char a = 0, b = 0;
        for (int i = 0; i < nb; i++) {
            int id, owner, current;
            char s1[8], s2[8];
            scanf("%d %7s %7s %d %d", &id, s1, s2, &owner, &current);
            if (current == 1) a = s1[0], b = s2[0]; /* the tile this turn places */
        }
        int free[4], nfree = 0;
        for (int i = 0; i < nb; i++) {
            int id, owner;
            char s1[8], s2[8];
            scanf("%d %7s %7s %d", &id, s1, s2, &owner);
            if (owner == -1 && id != 0) free[nfree++] = id;
        }
        int x = 0, y = 0, r = 0;
        if (a) choose_put(a, b, &x, &y, &r);
        printf("PUT %d %d %d\nPICK %d\n", x, y, r, nfree ? choose_pick(free, nfree) : -1);
        fflush(stdout);
    }
}
