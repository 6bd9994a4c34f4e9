/* mem-bound (scripts/memory-bandwidth): a strict player of the `default` protocol, source only
   (take6 writes its build and launch), that works memory before each reply. Its file `role`
   says how: "reader" (an honest memory-bound bot) follows a random cycle through 64 MiB, a
   million steps a reply (each step a cache miss: its CPU time per reply is what neighbours
   can slow down); "thrasher" writes at random into 128 MiB for 300 ms of CPU a reply (within
   any reply limit of 1 s or more, and within a memory limit of 256 MiB). It reads exactly the
   lines the protocol promises and exits 3 on anything else; it plays its lowest card and takes
   row 0. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char buf[4096];
static uint32_t *cycle, *field;
static size_t at;
static int thrasher;

static void fail(const char *why) {
  fprintf(stderr, "mem-bound: FAIL %s: %s\n", why, buf);
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

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

#define READ_WORDS (16u << 20)   /* 64 MiB */
#define THRASH_WORDS (32u << 20) /* 128 MiB */

static void setup(void) {
  if (thrasher) {
    field = malloc(sizeof *field * THRASH_WORDS);
    if (!field) fail("no memory");
    memset(field, 1, sizeof *field * THRASH_WORDS);
    return;
  }
  /* Sattolo's shuffle: one cycle through every word, in random order. */
  cycle = malloc(sizeof *cycle * READ_WORDS);
  if (!cycle) fail("no memory");
  for (uint32_t i = 0; i < READ_WORDS; i++) cycle[i] = i;
  for (uint32_t i = READ_WORDS - 1; i > 0; i--) {
    uint32_t j = next() % i, t = cycle[i];
    cycle[i] = cycle[j];
    cycle[j] = t;
  }
}

static void work(void) {
  if (thrasher) {
    clock_t end = clock() + CLOCKS_PER_SEC * 3 / 10;
    while (clock() < end)
      for (int k = 0; k < 65536; k++) field[next() % THRASH_WORDS] += (uint32_t)k;
    return;
  }
  for (int k = 0; k < 1000000; k++) at = cycle[at];
}

int main(void) {
  FILE *role = fopen("role", "r");
  char r[32] = "";
  if (!role || !fgets(r, sizeof r, role)) fail("no role file");
  thrasher = strncmp(r, "thrasher", 8) == 0;
  setup();
  int hand[16], x[16], left = 10, players = -1;
  line(); words("cards", 10, hand);
  line();
  for (int turn = 0; turn < 10; turn++) {
    board();
    work();
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
  /* The cycle's end, so that the compiler keeps the walk. */
  if (!thrasher) fprintf(stderr, "mem-bound: at %zu\n", at);
  return 0;
}
