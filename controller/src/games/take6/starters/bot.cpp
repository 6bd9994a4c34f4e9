// NAME: a Take 6! bot for take6 (the default protocol: docs/protocol.md), written by
// `take6 new`. It plays the lowest card of its hand and, asked for a row, takes the one with
// the fewest cows. Put your strategy in choose_card and choose_row; the rest reads the
// protocol.
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using Row = std::vector<int>;

// The card to play: one of hand. Per row 0-3: its cards, its cows, its last card.
int choose_card(const Row& hand, const Row& count, const Row& cows, const Row& top) {
    return *std::min_element(hand.begin(), hand.end());
}

// The row to take (0-3) when the card played is lower than every row's last card.
int choose_row(const Row& count, const Row& cows, const Row& top) {
    return int(std::min_element(cows.begin(), cows.end()) - cows.begin());
}

int main() {
    Row hand, count, cows;
    bool picking = false;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string word;
        if (!(in >> word)) continue;
        Row numbers;
        for (int n; in >> n;) numbers.push_back(n);
        if (word == "cards") hand = numbers;
        else if (word == "count") count = numbers;
        else if (word == "cows") cows = numbers;
        else if (word == "pickrow") picking = true;
        else if (word == "top") {  // the last line of a question: reply, and flush
            if (picking) {
                std::cout << choose_row(count, cows, numbers) << std::endl;
                picking = false;
            } else {
                int card = choose_card(hand, count, cows, numbers);
                hand.erase(std::find(hand.begin(), hand.end(), card));
                std::cout << card << std::endl;  // endl flushes
            }
        } else if (word == "invalid") return 0;
        // used, cardgain, cowgain, score, others: news, no reply.
    }
}
