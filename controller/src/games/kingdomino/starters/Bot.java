// NAME: a Kingdomino bot for take6 (CodinGame's protocol: docs/kingdomino.md), written by
// `take6 new`. It puts its tile at the first legal place it finds and picks the lowest free
// tile. Both lines are sent on every turn: `PUT 0 0 0` on turn 1 (nothing to place) and
// `PICK -1` on the last (nothing to pick). Put your strategy in choosePut and choosePick.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class Bot {
    static final int[] DX = {1, 0, -1, 0}, DY = {0, 1, 0, -1}; // right, below, left, above

    static boolean inside(int x, int y) { return x >= 0 && x < 9 && y >= 0 && y < 9; }

    /** Whether terrains a, b fit at x, y with rotation r: on empty squares, the kingdom
     * within 5x5 (castle included), touching the castle or its own terrain. */
    static boolean legal(char[][] g, char a, char b, int x, int y, int r) {
        int[] cx = {x, x + DX[r]}, cy = {y, y + DY[r]};
        char[] t = {a, b};
        for (int i = 0; i < 2; i++) if (!inside(cx[i], cy[i]) || g[cy[i]][cx[i]] != '_') return false;
        int x0 = Math.min(cx[0], cx[1]), x1 = Math.max(cx[0], cx[1]);
        int y0 = Math.min(cy[0], cy[1]), y1 = Math.max(cy[0], cy[1]);
        for (int j = 0; j < 9; j++)
            for (int i = 0; i < 9; i++)
                if (g[j][i] != '_') {
                    x0 = Math.min(x0, i); x1 = Math.max(x1, i);
                    y0 = Math.min(y0, j); y1 = Math.max(y1, j);
                }
        if (x1 - x0 >= 5 || y1 - y0 >= 5) return false;
        for (int i = 0; i < 2; i++)
            for (int d = 0; d < 4; d++) {
                int nx = cx[i] + DX[d], ny = cy[i] + DY[d];
                if (inside(nx, ny) && (g[ny][nx] == '*' || g[ny][nx] == t[i])) return true;
            }
        return false;
    }

    /** Where to put the tile of terrains a, b: the first legal place. */
    static int[] choosePut(char[][] g, char a, char b) {
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 9; x++)
                for (int r = 0; r < 4; r++)
                    if (legal(g, a, b, x, y, r)) return new int[] {x, y, r};
        return new int[] {0, 0, 0}; // it fits nowhere: discarded, the values are ignored
    }

    /** The tile to pick among the free ids of the offer. */
    static int choosePick(List<Integer> free) { return Collections.min(free); }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int players = Integer.parseInt(in.readLine().trim());
        int nb = Integer.parseInt(in.readLine().trim());
        for (String first; (first = in.readLine()) != null; ) {
            char[][] g = new char[9][9];
            for (int row = 0; row < 9 * players; row++) {
                String line = row == 0 ? first : in.readLine();
                if (row < 9) for (int i = 0; i < 9; i++) g[row][i] = line.charAt(2 * i);
            }
            char a = 0, b = 0;
            for (int i = 0; i < nb; i++) {
                String[] t = in.readLine().trim().split(" ");
                if (t[4].equals("1")) { a = t[1].charAt(0); b = t[2].charAt(0); } // this turn's tile
            }
            List<Integer> free = new ArrayList<>();
            for (int i = 0; i < nb; i++) {
                String[] t = in.readLine().trim().split(" ");
                if (t[3].equals("-1") && !t[0].equals("0")) free.add(Integer.parseInt(t[0]));
            }
            int[] put = a != 0 ? choosePut(g, a, b) : new int[] {0, 0, 0};
            System.out.println("PUT " + put[0] + " " + put[1] + " " + put[2]);
            System.out.println("PICK " + (free.isEmpty() ? -1 : choosePick(free)));
            System.out.flush();
        }
    }
}
