// src-go: a strict player of the `default` protocol, source only: take6 writes its build
// (go build) and launch. It reads exactly the lines the protocol promises and fails (status 3,
// "FAIL ..." in verdicts.txt) on anything else; it plays its lowest card and takes row 0.
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var in = bufio.NewReader(os.Stdin)

func verdict(text string) {
	f, _ := os.OpenFile("verdicts.txt", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	fmt.Fprintln(f, text)
	f.Close()
}

func fail(why string) {
	verdict("FAIL " + why)
	fmt.Fprintln(os.Stderr, "src-go: "+why)
	os.Exit(3)
}

func line() string {
	s, err := in.ReadString('\n')
	if err != nil {
		fail("input ended early: " + s)
	}
	return strings.TrimSuffix(s, "\n")
}

// words reads s as word and count numbers (any count if negative).
func words(s, word string, count int) []int {
	if !regexp.MustCompile("^" + word + "( [0-9]+)*$").MatchString(s) {
		fail("expected " + word + ", got " + s)
	}
	var nums []int
	for _, w := range strings.Fields(s)[1:] {
		n, _ := strconv.Atoi(w)
		nums = append(nums, n)
	}
	if count >= 0 && len(nums) != count {
		fail("wrong count: " + s)
	}
	return nums
}

func board(s string) {
	words(s, "count", 4)
	words(line(), "cows", 4)
	words(line(), "top", 4)
}

func main() {
	hand := words(line(), "cards", 10)
	players := -1
	s := line()
	for turn := 0; turn < 10; turn++ {
		board(s)
		sort.Ints(hand)
		fmt.Println(hand[0])
		hand = hand[1:]
		players = len(words(line(), "used", players))
		for {
			s = line()
			if s == "pickrow" {
				board(line())
				fmt.Println(0)
			} else if strings.HasPrefix(s, "cardgain ") {
				words(line(), "cowgain", 1)
			} else {
				break
			}
		}
	}
	words(s, "score", 1)
	words(line(), "others", players-1)
	if _, err := in.ReadString('\n'); err == nil {
		fail("more input after others")
	}
	verdict("ok")
}
