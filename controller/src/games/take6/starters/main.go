// NAME: a Take 6! bot for take6 (the default protocol: docs/protocol.md), written by
// `take6 new`. It plays the lowest card of its hand and, asked for a row, takes the one with
// the fewest cows. Put your strategy in chooseCard and chooseRow; the rest reads the protocol.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// chooseCard returns the card to play: one of hand. Per row 0-3: its cards, cows, last card.
func chooseCard(hand, count, cows, top []int) int {
	best := hand[0]
	for _, c := range hand {
		if c < best {
			best = c
		}
	}
	return best
}

// chooseRow returns the row to take (0-3) when the card is lower than every row's last card.
func chooseRow(count, cows, top []int) int {
	best := 0
	for r := 1; r < 4; r++ {
		if cows[r] < cows[best] {
			best = r
		}
	}
	return best
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	var hand, count, cows []int
	picking := false
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		numbers := make([]int, 0, len(words)-1)
		for _, w := range words[1:] {
			n, _ := strconv.Atoi(w)
			numbers = append(numbers, n)
		}
		switch words[0] {
		case "cards":
			hand = numbers
		case "count":
			count = numbers
		case "cows":
			cows = numbers
		case "pickrow":
			picking = true
		case "top": // the last line of a question: reply, and flush
			if picking {
				fmt.Fprintln(out, chooseRow(count, cows, numbers))
				picking = false
			} else {
				card := chooseCard(hand, count, cows, numbers)
				for i, c := range hand {
					if c == card {
						hand = append(hand[:i], hand[i+1:]...)
						break
					}
				}
				fmt.Fprintln(out, card)
			}
			out.Flush()
		case "invalid":
			return
		} // used, cardgain, cowgain, score, others: news, no reply
	}
}
