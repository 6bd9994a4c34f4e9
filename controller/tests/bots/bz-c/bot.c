/* A strict bot of the "duel" test game, in C, speaking Botzone's bot protocol.
 *
 * Started afresh each turn it reads one line, parses the requests and responses it holds,
 * writes the input it should have received (every field, Botzone's keys in take6's order) and
 * compares the two byte for byte: any difference, or a response that is not what it would
 * have answered, and it exits 1 with the reason on stderr. With a file `keep` in its folder it
 * asks to be kept running and checks that each later line is exactly the next request.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KEEP ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
#define MAX 200000

static char line[MAX], expect[MAX];
static int opp[1000], rounds;

static void fail(const char *why, const char *got) {
    fprintf(stderr, "bz-c: %s: %.300s\n", why, got);
    exit(1);
}

static int choose(int last) { return last == -1 ? 2 : last == 1 ? 2 : last == 2 ? 3 : 1; }

static void read_line(void) {
    if (!fgets(line, sizeof line, stdin)) exit(0);
    size_t n = strlen(line);
    if (n == 0 || line[n - 1] != '\n') fail("not one line", line);
    line[n - 1] = 0;
}

static void answer(int round, int first, int games) {
    printf("{\"response\":{\"n\":%d},\"data\":\"turn %d\"", choose(opp[round - 1]), round);
    if (first) printf(",\"globaldata\":\"games %d\"", games + 1);
    printf("}\n");
    fflush(stdout);
}

int main(void) {
    read_line();
    /* The requests: {"opponent_last":N,"round":K}, in order. */
    char *p = strstr(line, "\"requests\":[");
    if (!p) fail("no requests", line);
    p += strlen("\"requests\":[");
    while (*p == '{') {
        int o, r, used;
        if (sscanf(p, "{\"opponent_last\":%d,\"round\":%d}%n", &o, &r, &used) != 2)
            fail("a request", p);
        if (r != rounds + 1) fail("rounds out of order", p);
        opp[rounds++] = o;
        p += used;
        if (*p == ',') p++;
    }
    char *g = strstr(line, "\"globaldata\":\"");
    int games = 0;
    if (g && sscanf(g, "\"globaldata\":\"games %d\"", &games) != 1) games = 0;
    if (rounds > 1) games--; /* it counted this game at its first turn */
    char *t = strstr(line, "\"time_limit\":");
    if (!t) fail("no time_limit", line);
    char tl[64];
    if (sscanf(t, "\"time_limit\":%63[0-9.]}", tl) != 1) fail("time_limit", t);
    char *m = strstr(line, "\"memory_limit\":");
    int ml;
    if (!m || sscanf(m, "\"memory_limit\":%d", &ml) != 1) fail("memory_limit", line);
    /* What the input must be, byte for byte. */
    int n = 0;
    /* data and globaldata only when there are some, as botzone-local's bot.py sends them. */
    n += sprintf(expect + n, "{");
    if (rounds > 1)
        n += sprintf(expect + n, "\"data\":\"turn %d\",", rounds - 1);
    if (rounds > 1 || games > 0)
        n += sprintf(expect + n, "\"globaldata\":\"games %d\",", games + (rounds > 1));
    n += sprintf(expect + n, "\"memory_limit\":%d,\"requests\":[", ml);
    for (int i = 0; i < rounds; i++)
        n += sprintf(expect + n, "%s{\"opponent_last\":%d,\"round\":%d}", i ? "," : "", opp[i], i + 1);
    n += sprintf(expect + n, "],\"responses\":[");
    for (int i = 0; i + 1 < rounds; i++)
        n += sprintf(expect + n, "%s{\"n\":%d}", i ? "," : "", choose(opp[i]));
    n += sprintf(expect + n, "],\"time_limit\":%s}", tl);
    if (strcmp(line, expect) != 0) {
        fprintf(stderr, "bz-c: expected %s\n", expect);
        fail("the input differs", line);
    }
    answer(rounds, rounds == 1, games);
    if (access("keep", F_OK) != 0) return 0;
    for (;;) {
        printf("%s\n", KEEP);
        fflush(stdout);
        read_line();
        int o, r;
        char tail;
        if (sscanf(line, "{\"opponent_last\":%d,\"round\":%d%c", &o, &r, &tail) != 3 || tail != '}' ||
            r != rounds + 1)
            fail("a kept-running request", line);
        opp[rounds++] = o;
        answer(rounds, 0, 0);
    }
}
