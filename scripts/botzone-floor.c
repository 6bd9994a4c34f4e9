/* The floor of a Botzone game for docs/performance.md: only what any runner must do. Plays N
 * games of a 2-player game whose judge asks one player at a time (Reversi): each step starts
 * the judge with the log, reads its one line, starts (or, kept running, writes to) the player
 * it asks and reads its response, and appends both to the log; no sandbox, no clock, no
 * checks, no records. Usage: botzone-floor GAMES JUDGE BOT0 BOT1 [keep]
 * (JUDGE and BOTs: executables; with "keep", bots that print the keep-running marker stay
 * alive and get only the next request). Prints the wall time and games/s. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CAP (1 << 22)
#define MARK ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"

typedef struct { pid_t pid; FILE *in, *out; } Proc;

static Proc start(const char *path) {
    int to[2], from[2];
    /* Close-on-exec: a bot kept running must not hold another's pipe open. */
    if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) exit(2);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to[0], 0); dup2(from[1], 1);
        close(to[0]); close(to[1]); close(from[0]); close(from[1]);
        execl(path, path, (char *)0);
        _exit(127);
    }
    close(to[0]); close(from[1]);
    Proc p = {pid, fdopen(to[1], "w"), fdopen(from[0], "r")};
    return p;
}

static void stop(Proc *p) {
    if (!p->pid) return;
    fclose(p->in); fclose(p->out);
    waitpid(p->pid, 0, 0);
    p->pid = 0;
}

/* The JSON value starting at s (an object or array, or a scalar up to , or }): its length. */
static size_t value_len(const char *s) {
    if (*s != '{' && *s != '[') return strcspn(s, ",}]");
    int depth = 0, str = 0;
    for (size_t i = 0;; i++) {
        char c = s[i];
        if (str) { if (c == '\\') i++; else if (c == '"') str = 0; continue; }
        if (c == '"') str = 1;
        else if (c == '{' || c == '[') depth++;
        else if ((c == '}' || c == ']') && --depth == 0) return i + 1;
    }
}

static char log_[CAP], line[CAP / 4], input[CAP], reqs[2][CAP], resps[2][CAP];

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: botzone-floor GAMES JUDGE BOT0 BOT1 [keep]\n"); return 2; }
    int games = atoi(argv[1]), keep = argc > 5 && !strcmp(argv[5], "keep");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int g = 0; g < games; g++) {
        Proc bots[2] = {{0}, {0}};
        size_t n = 0;
        reqs[0][0] = reqs[1][0] = resps[0][0] = resps[1][0] = 0;
        for (;;) {
            Proc j = start(argv[2]);
            fprintf(j.in, "{\"initdata\":\"\",\"log\":[%s]}\n", log_);
            fclose(j.in); j.in = fopen("/dev/null", "w");
            if (!fgets(line, sizeof line, j.out)) { fprintf(stderr, "judge said nothing\n"); return 1; }
            stop(&j);
            line[strcspn(line, "\n")] = 0;
            n += sprintf(log_ + n, "%s{\"keep_running\":false,\"memory\":0,\"output\":%s,\"time\":0,\"verdict\":\"OK\"}",
                         n ? "," : "", line);
            if (strstr(line, "\"finish\"")) break;
            char *c = strstr(line, "\"content\":{\"");
            if (!c) { fprintf(stderr, "no content: %s\n", line); return 1; }
            int who = c[12] - '0';
            char *req = c + 15;
            size_t len = value_len(req);
            char *rq = reqs[who];
            size_t rl = strlen(rq);
            sprintf(rq + rl, "%s%.*s", rl ? "," : "", (int)len, req);
            Proc *b = &bots[who];
            if (!b->pid) {
                *b = start(argv[3 + who]);
                fprintf(b->in, "{\"data\":\"\",\"globaldata\":\"\",\"memory_limit\":256,\"requests\":[%s],\"responses\":[%s],\"time_limit\":1}\n",
                        rq, resps[who]);
            } else {
                fprintf(b->in, "%.*s\n", (int)len, req);
            }
            fflush(b->in);
            if (!fgets(input, CAP, b->out)) { fprintf(stderr, "bot said nothing\n"); return 1; }
            char *r = strstr(input, "\"response\":") + 11;
            size_t r_len = value_len(r);
            char *rs = resps[who];
            size_t sl = strlen(rs);
            sprintf(rs + sl, "%s%.*s", sl ? "," : "", (int)r_len, r);
            n += sprintf(log_ + n, ",{\"%d\":{\"response\":%.*s,\"verdict\":\"OK\"}}", who, (int)r_len, r);
            int kept = keep && fgets(line, sizeof line, b->out) && !strncmp(line, MARK, strlen(MARK));
            if (!kept) stop(b);
        }
        stop(&bots[0]); stop(&bots[1]);
        log_[0] = 0;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%d games in %.2f s: %.2f games/s\n", games, s, games / s);
    return 0;
}
