/* kdfirst: a small Kingdomino bot for the CodinGame wire, in C. Each block it reads its own
 * grid (the first 9 lines), places the tile marked current at the first legal spot in reading
 * order (x, then y, then rotation) that touches the castle or its own terrain, and picks the
 * free tile with the most crowns (the lowest id on ties). It is the bot the Kingdomino
 * benchmark runs (scripts/bench-floor with GAME=kingdomino), and a start for a C author. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char grid[9][20];                 /* own grid, 9 squares of 2 chars per line */
static const int DX[4] = {1, 0, -1, 0}, DY[4] = {0, 1, 0, -1};

static int empty(int x, int y) { return x >= 0 && x < 9 && y >= 0 && y < 9 && grid[y][2 * x] == '_'; }

static int touches(int x, int y, char t)
{
    for (int d = 0; d < 4; d++) {
        int a = x + DX[d], b = y + DY[d];
        if (a >= 0 && a < 9 && b >= 0 && b < 9 && (grid[b][2 * a] == '*' || grid[b][2 * a] == t))
            return 1;
    }
    return 0;
}

/* Whether the territory stays within 5 x 5 with squares (x1,y1) and (x2,y2) added. */
static int fits(int x1, int y1, int x2, int y2)
{
    int lx = x1 < x2 ? x1 : x2, hx = x1 > x2 ? x1 : x2, ly = y1 < y2 ? y1 : y2, hy = y1 > y2 ? y1 : y2;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++)
            if (grid[y][2 * x] != '_') {
                if (x < lx) lx = x;
                if (x > hx) hx = x;
                if (y < ly) ly = y;
                if (y > hy) hy = y;
            }
    return hx - lx < 5 && hy - ly < 5;
}

int main(void)
{
    int players, tiles;
    char line[256];
    if (scanf("%d %d", &players, &tiles) != 2)
        return 0;
    for (;;) {
        for (int p = 0; p < players; p++)
            for (int y = 0; y < 9; y++)
                if (scanf("%19s", p == 0 ? grid[y] : line) != 1)
                    return 0;
        char a[3] = "_0", b[3] = "_0";
        int have = 0;
        for (int i = 0; i < tiles; i++) {
            int id, owner, current;
            char s1[3], s2[3];
            if (scanf("%d %2s %2s %d %d", &id, s1, s2, &owner, &current) != 5)
                return 0;
            if (current) {
                memcpy(a, s1, 3);
                memcpy(b, s2, 3);
                have = 1;
            }
        }
        int pick = 0, best = -1;
        for (int i = 0; i < tiles; i++) {
            int id, owner;
            char s1[3], s2[3];
            if (scanf("%d %2s %2s %d", &id, s1, s2, &owner) != 4)
                return 0;
            int crowns = (s1[1] - '0') + (s2[1] - '0');
            if (owner == -1 && crowns > best) {
                best = crowns;
                pick = id;
            }
        }
        int px = 0, py = 0, pr = 0, found = 0;
        for (int y = 0; y < 9 && have && !found; y++)
            for (int x = 0; x < 9 && !found; x++)
                for (int r = 0; r < 4 && !found; r++) {
                    int x2 = x + DX[r], y2 = y + DY[r];
                    if (empty(x, y) && empty(x2, y2) && fits(x, y, x2, y2) &&
                        (touches(x, y, a[0]) || touches(x2, y2, b[0]))) {
                        px = x, py = y, pr = r, found = 1;
                    }
                }
        printf("PUT %d %d %d\nPICK %d\n", px, py, pr, pick);
        fflush(stdout);
    }
}
