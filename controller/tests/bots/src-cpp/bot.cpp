// src-cpp: a strict player of the `default` protocol, source only: take6 writes its build and
// launch. It reads exactly the lines the protocol promises and fails (status 3, "FAIL ..." in
// verdicts.txt) on anything else; it plays its lowest card and takes row 0.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

static std::string s;

static void verdict(const std::string &v) { std::ofstream("verdicts.txt", std::ios::app) << v << "\n"; }
[[noreturn]] static void fail(const std::string &why) {
  verdict("FAIL " + why + ": " + s);
  std::cerr << "src-cpp: " << why << ": " << s << "\n";
  std::exit(3);
}
static void line() {
  s.clear();
  if (!std::getline(std::cin, s) || std::cin.eof()) fail("input ended early (or no newline)");
}
// s as WORD and `count` numbers (any count if negative).
static std::vector<int> words(const std::string &word, int count) {
  static const std::regex shape("[a-z]+( [0-9]+)*");
  if (!std::regex_match(s, shape) || s.substr(0, s.find(' ')) != word) fail("expected " + word);
  std::vector<int> nums;
  for (size_t at = s.find(' '); at != std::string::npos; at = s.find(' ', at + 1))
    nums.push_back(std::atoi(s.c_str() + at + 1));
  if (count >= 0 && (int)nums.size() != count) fail("wrong count after " + word);
  return nums;
}
static void board() { words("count", 4); line(); words("cows", 4); line(); words("top", 4); }

int main() {
  line();
  std::vector<int> hand = words("cards", 10);
  int players = -1;
  line();
  for (int turn = 0; turn < 10; turn++) {
    board();
    auto lo = std::min_element(hand.begin(), hand.end());
    std::cout << *lo << std::endl;
    hand.erase(lo);
    line();
    players = (int)words("used", players).size();
    for (;;) {
      line();
      if (s == "pickrow") { line(); board(); std::cout << 0 << std::endl; }
      else if (s.rfind("cardgain ", 0) == 0) { line(); words("cowgain", 1); }
      else break;
    }
  }
  words("score", 1);
  line();
  words("others", players - 1);
  if (std::cin.peek() != EOF) fail("more input after others");
  verdict("ok");
}
