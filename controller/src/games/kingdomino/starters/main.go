// NAME: a Kingdomino bot for take6 (CodinGame's protocol: docs/kingdomino.md), written by
// `take6 new`. It puts its tile at the first legal place it finds and picks the lowest free
// tile. Both lines are sent on every turn: `PUT 0 0 0` on turn 1 (nothing to place) and
// `PICK -1` on the last (nothing to pick). Put your strategy in choosePut and choosePick.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

var dx, dy = [4]int{1, 0, -1, 0}, [4]int{0, 1, 0, -1} // rotation 0-3: right, below, left, above

func inside(x, y int) bool { return x >= 0 && x < 9 && y >= 0 && y < 9 }

// lo and hi: the smaller and the larger of two (Go before 1.21 has no min and max).
func lo(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func hi(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// legal says whether terrains a, b fit at x, y with rotation r: on empty squares, the kingdom
// within 5x5 (castle included), touching the castle or its own terrain.
func legal(g [9][9]byte, a, b byte, x, y, r int) bool {
	cx, cy, t := [2]int{x, x + dx[r]}, [2]int{y, y + dy[r]}, [2]byte{a, b}
	for i := 0; i < 2; i++ {
		if !inside(cx[i], cy[i]) || g[cy[i]][cx[i]] != '_' {
			return false
		}
	}
	x0, x1, y0, y1 := lo(cx[0], cx[1]), hi(cx[0], cx[1]), lo(cy[0], cy[1]), hi(cy[0], cy[1])
	for j := 0; j < 9; j++ {
		for i := 0; i < 9; i++ {
			if g[j][i] != '_' {
				x0, x1, y0, y1 = lo(x0, i), hi(x1, i), lo(y0, j), hi(y1, j)
			}
		}
	}
	if x1-x0 >= 5 || y1-y0 >= 5 {
		return false
	}
	for i := 0; i < 2; i++ {
		for d := 0; d < 4; d++ {
			nx, ny := cx[i]+dx[d], cy[i]+dy[d]
			if inside(nx, ny) && (g[ny][nx] == '*' || g[ny][nx] == t[i]) {
				return true
			}
		}
	}
	return false
}

// choosePut returns where to put the tile of terrains a, b: the first legal place.
func choosePut(g [9][9]byte, a, b byte) (int, int, int) {
	for y := 0; y < 9; y++ {
		for x := 0; x < 9; x++ {
			for r := 0; r < 4; r++ {
				if legal(g, a, b, x, y, r) {
					return x, y, r
				}
			}
		}
	}
	return 0, 0, 0 // it fits nowhere: discarded, the values are ignored
}

// choosePick returns the tile to pick among the free ids of the offer.
func choosePick(free []int) int {
	best := free[0]
	for _, id := range free {
		best = lo(best, id)
	}
	return best
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	next := func() (string, bool) {
		ok := in.Scan()
		return strings.TrimSpace(in.Text()), ok
	}
	first, _ := next()
	second, _ := next()
	players, _ := strconv.Atoi(first)
	nb, _ := strconv.Atoi(second)
	for {
		var g [9][9]byte
		for row := 0; row < 9*players; row++ {
			line, ok := next()
			if !ok {
				return // the game is over
			}
			if row < 9 {
				for i := 0; i < 9; i++ {
					g[row][i] = line[2*i]
				}
			}
		}
		var a, b byte
		for i := 0; i < nb; i++ {
			line, _ := next()
			t := strings.Fields(line)
			if t[4] == "1" { // the tile this turn places (none on turn 1)
				a, b = t[1][0], t[2][0]
			}
		}
		var free []int
		for i := 0; i < nb; i++ {
			line, _ := next()
			t := strings.Fields(line)
			if t[3] == "-1" && t[0] != "0" {
				id, _ := strconv.Atoi(t[0])
				free = append(free, id)
			}
		}
		x, y, r := 0, 0, 0
		if a != 0 {
			x, y, r = choosePut(g, a, b)
		}
		pick := -1 // none on the last turn
		if len(free) > 0 {
			pick = choosePick(free)
		}
		fmt.Fprintf(out, "PUT %d %d %d\nPICK %d\n", x, y, r, pick)
		out.Flush()
	}
}
