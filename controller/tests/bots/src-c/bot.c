/* src-c: a strict player of the `default` protocol, source only: take6 writes its build and
   launch. It reads exactly the lines the protocol promises and fails (status 3, "FAIL ..." in
   verdicts.txt) on anything else; it plays its lowest card and takes row 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char buf[4096];

static void verdict(const char *s) {
  FILE *f = fopen("verdicts.txt", "a");
  fprintf(f, "%s\n", s);
  fclose(f);
}
static void fail(const char *why) {
  char m[4200];
  snprintf(m, sizeof m, "FAIL %s: %s", why, buf);
  verdict(m);
  fprintf(stderr, "src-c: %s\n", m);
  exit(3);
}
static void line(void) {
  if (!fgets(buf, sizeof buf, stdin)) { buf[0] = 0; fail("input ended early"); }
  size_t n = strlen(buf);
  if (buf[n - 1] != '\n') fail("line without newline");
  buf[n - 1] = 0;
}
/* buf as WORD and `count` numbers (any count if negative) into out; returns how many. */
static int words(const char *word, int count, int *out) {
  size_t w = strlen(word);
  if (strncmp(buf, word, w) != 0 || (buf[w] != ' ' && buf[w] != 0)) fail("unexpected line");
  int n = 0;
  char *p = buf + w, *end;
  while (*p == ' ') {
    if (p[1] < '0' || p[1] > '9') fail("not a number");
    long v = strtol(p + 1, &end, 10);
    if (n < 16) out[n] = (int)v;
    n++;
    p = end;
  }
  if (*p || (count >= 0 && n != count)) fail("wrong numbers");
  return n;
}
static void board(void) { int x[16]; words("count", 4, x); line(); words("cows", 4, x); line(); words("top", 4, x); }

int main(void) {
  int hand[16], x[16], left = 10, players = -1;
  line(); words("cards", 10, hand);
  line();
  for (int turn = 0; turn < 10; turn++) {
    board();
    int lo = 0;
    for (int i = 1; i < left; i++) if (hand[i] < hand[lo]) lo = i;
    printf("%d\n", hand[lo]); fflush(stdout);
    hand[lo] = hand[--left];
    line(); players = words("used", players, x);
    for (;;) {
      line();
      if (strcmp(buf, "pickrow") == 0) { line(); board(); printf("0\n"); fflush(stdout); }
      else if (strncmp(buf, "cardgain ", 9) == 0) { line(); words("cowgain", 1, x); }
      else break;
    }
  }
  words("score", 1, x); line(); words("others", players - 1, x);
  if (fgets(buf, sizeof buf, stdin)) fail("more input after others");
  verdict("ok");
  return 0;
}
