// NAME: a Kingdomino bot for take6 (CodinGame's protocol: docs/kingdomino.md), written by
// `take6 new`. It puts its tile at the first legal place it finds and picks the lowest free
// tile. Both lines are sent on every turn: `PUT 0 0 0` on turn 1 (nothing to place) and
// `PICK -1` on the last (nothing to pick). Put your strategy in choose_put and choose_pick.
#include <algorithm>
#include <array>
#include <iostream>
#include <string>
#include <vector>

const int DX[4] = {1, 0, -1, 0}, DY[4] = {0, 1, 0, -1};  // right, below, left, above
using Grid = std::array<std::string, 9>;  // each square's terrain: '_' empty, '*' castle

bool inside(int x, int y) { return x >= 0 && x < 9 && y >= 0 && y < 9; }

// Whether terrains a, b fit at x, y with rotation r: on empty squares, the kingdom within
// 5x5 (castle included), touching the castle or its own terrain.
bool legal(const Grid& g, char a, char b, int x, int y, int r) {
    int cx[2] = {x, x + DX[r]}, cy[2] = {y, y + DY[r]};
    char t[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (!inside(cx[i], cy[i]) || g[cy[i]][cx[i]] != '_') return false;
    int x0 = std::min(cx[0], cx[1]), x1 = std::max(cx[0], cx[1]);
    int y0 = std::min(cy[0], cy[1]), y1 = std::max(cy[0], cy[1]);
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 9; i++)
            if (g[j][i] != '_') {
                x0 = std::min(x0, i), x1 = std::max(x1, i);
                y0 = std::min(y0, j), y1 = std::max(y1, j);
            }
    if (x1 - x0 >= 5 || y1 - y0 >= 5) return false;
    for (int i = 0; i < 2; i++)
        for (int d = 0; d < 4; d++) {
            int nx = cx[i] + DX[d], ny = cy[i] + DY[d];
            if (inside(nx, ny) && (g[ny][nx] == '*' || g[ny][nx] == t[i])) return true;
        }
    return false;
}

// Where to put the tile of terrains a, b: the first legal place.
std::array<int, 3> choose_put(const Grid& g, char a, char b) {
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++)
            for (int r = 0; r < 4; r++)
                if (legal(g, a, b, x, y, r)) return {x, y, r};
    return {0, 0, 0};  // it fits nowhere: discarded, the values are ignored
}

// The tile to pick among the free ids of the offer.
int choose_pick(const std::vector<int>& free) { return *std::min_element(free.begin(), free.end()); }

int main() {
    int players, nb;
    if (!(std::cin >> players >> nb)) return 0;
    for (;;) {
        Grid g;
        std::string row;
        for (int i = 0; i < 9 * players; i++) {
            if (!(std::cin >> row)) return 0;  // the game is over
            if (i < 9)
                for (int k = 0; k < 9; k++) g[i] += row[2 * k];
        }
        char a = 0, b = 0;
        for (int i = 0; i < nb; i++) {
            int id, owner, current;
            std::string s1, s2;
            std::cin >> id >> s1 >> s2 >> owner >> current;
            if (current == 1) a = s1[0], b = s2[0];  // the tile this turn places
        }
        std::vector<int> free;
        for (int i = 0; i < nb; i++) {
            int id, owner;
            std::string s1, s2;
            std::cin >> id >> s1 >> s2 >> owner;
            if (owner == -1 && id != 0) free.push_back(id);
        }
        std::array<int, 3> put = {0, 0, 0};
        if (a) put = choose_put(g, a, b);
        std::cout << "PUT " << put[0] << ' ' << put[1] << ' ' << put[2] << '\n'
                  << "PICK " << (free.empty() ? -1 : choose_pick(free)) << std::endl;
    }
}
