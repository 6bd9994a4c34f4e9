/*
 * floor -- the spawn-and-pipe floor of a Take 6! series: what any controller must at least do
 * per game, and nothing more. Per game it starts the N launch scripts, sends each its `cards`,
 * ten turns of `count`/`cows`/`top` + one reply + `used`, then `score`/`others`, closes their
 * input and reaps them. No rules, no logs, no checks of the replies: scripts/bench-floor sets
 * `take6 run` against it on the same bots.
 *
 * Like take6, it writes a bot's news (`cards`, `used`) together with its next question, in one
 * write. It starts the bots with posix_spawn, or with fork when FLOOR_SPAWN=fork, and as batch
 * tasks (SCHED_BATCH, as take6 starts them) when FLOOR_BATCH=1. With FLOOR_PIN=1, worker w and
 * its bots run on the w-th processor it may use (cyclically), as take6 pins its tables when
 * --jobs is a multiple of the processors.
 *
 * With FLOOR_GAME=kingdomino it plays Kingdomino's message pattern instead (the CodinGame
 * wire): the two init lines, then per sequence (13 turns of one sequence per player, or 7 of
 * two with 2 players) a block of every grid (9 lines each) and the tiles in play and on offer,
 * answered by two lines (PUT, PICK), sent to one bot at a time as the game is sequential.
 *
 * Usage: [FLOOR_SPAWN=fork] [FLOOR_BATCH=1] [FLOOR_PIN=1] [FLOOR_GAME=kingdomino] floor GAMES JOBS LAUNCH...   (JOBS worker processes
 * share the games; each LAUNCH runs with its own folder as current directory, as take6 runs a
 * bot in its working copy.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXN 10

extern char **environ;

struct bot {
    pid_t pid;
    int in, out;        /* our ends: we write `in`, read `out` */
    char buf[4096];
    size_t len;
};

static void die(const char *what)
{
    perror(what);
    exit(2);
}

/* How bots are started: posix_spawn (glibc's is a vfork: no page tables copied, but the parent
 * waits for each child's exec) or fork (the parent goes on while the child execs). Which is
 * faster depends on --jobs and the cores; scripts/bench-floor runs both and keeps the faster. */
static int use_fork;

/* Whether bots run as batch tasks (SCHED_BATCH), as take6 runs them: a bot woken by a message
 * then does not preempt the process writing it (FLOOR_BATCH=1). scripts/bench-floor measures
 * both and keeps the faster. */
static int use_batch;

/* Pins the calling process (a worker, with the bots it starts) to the w-th allowed processor,
 * cyclically (FLOOR_PIN=1). */
static void pin(int w)
{
    cpu_set_t allowed, one;
    int cpu, seen = 0, count;
    if (sched_getaffinity(0, sizeof allowed, &allowed))
        die("sched_getaffinity");
    count = CPU_COUNT(&allowed);
    for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &allowed) && seen++ == w % count) {
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            if (sched_setaffinity(0, sizeof one, &one))
                die("sched_setaffinity");
            return;
        }
    }
}

/* Starts `launch` in its own folder on fresh pipes. */
static void spawn(struct bot *b, const char *launch)
{
    int to[2], from[2], err;
    char dir[4096];
    char *argv[] = {(char *)launch, 0};
    if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC))
        die("pipe");
    snprintf(dir, sizeof dir, "%s", launch);
    if (use_fork) {
        b->pid = fork();
        if (b->pid < 0)
            die("fork");
        if (b->pid == 0) {
            struct sched_param none = {0};
            if (dup2(to[0], 0) < 0 || dup2(from[1], 1) < 0 || chdir(dirname(dir)) ||
                (use_batch && sched_setscheduler(0, SCHED_BATCH, &none)))
                _exit(126);
            execv(launch, argv);
            _exit(127);
        }
    } else {
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, to[0], 0);
        posix_spawn_file_actions_adddup2(&fa, from[1], 1);
        posix_spawn_file_actions_addchdir_np(&fa, dirname(dir));
        posix_spawnattr_t at;
        posix_spawnattr_init(&at);
        if (use_batch) {
            struct sched_param none = {0};
            posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSCHEDULER);
            posix_spawnattr_setschedpolicy(&at, SCHED_BATCH);
            posix_spawnattr_setschedparam(&at, &none);
        }
        err = posix_spawn(&b->pid, launch, &fa, &at, argv, environ);
        posix_spawnattr_destroy(&at);
        posix_spawn_file_actions_destroy(&fa);
        if (err) {
            errno = err;
            die("posix_spawn");
        }
    }
    close(to[0]);
    close(from[1]);
    b->in = to[1];
    b->out = from[0];
    b->len = 0;
}

static void say(struct bot *b, const char *text, size_t n)
{
    while (n > 0) {
        ssize_t w = write(b->in, text, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return; /* a bot that went away: the floor does not judge */
        }
        text += w;
        n -= (size_t)w;
    }
}

/* One reply line of `b`, as a number (0 when it ended or said something else). */
static int reply(struct bot *b)
{
    for (;;) {
        char *nl = memchr(b->buf, '\n', b->len);
        if (nl) {
            int v = atoi(b->buf);
            size_t used = (size_t)(nl - b->buf) + 1;
            memmove(b->buf, nl + 1, b->len - used);
            b->len -= used;
            return v;
        }
        if (b->len == sizeof b->buf)
            b->len = 0;
        ssize_t r = read(b->out, b->buf + b->len, sizeof b->buf - b->len);
        if (r <= 0)
            return 0;
        b->len += (size_t)r;
    }
}

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static unsigned next(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static void game(int n, char **launch)
{
    struct bot bots[MAXN];
    int deck[104], i, s, t;
    char msg[512];
    for (i = 0; i < 104; i++)
        deck[i] = i + 1;
    for (i = 103; i > 0; i--) {
        int j = (int)next((unsigned)i + 1), c = deck[i];
        deck[i] = deck[j];
        deck[j] = c;
    }
    for (s = 0; s < n; s++)
        spawn(&bots[s], launch[s]);
    /* What each bot is told before its next question (its cards, then each turn's `used`)
     * goes out in the same write as the question: one wake-up per turn, as take6 does. */
    char news[MAXN][128];
    int news_len[MAXN];
    for (s = 0; s < n; s++) {
        news_len[s] = snprintf(news[s], sizeof news[s], "cards");
        for (i = 0; i < 10; i++)
            news_len[s] += snprintf(news[s] + news_len[s], sizeof news[s] - news_len[s], " %d",
                                    deck[s * 10 + i]);
        news[s][news_len[s]++] = '\n';
    }
    const int *rows = deck + n * 10;
    for (t = 0; t < 10; t++) {
        for (s = 0; s < n; s++) {
            memcpy(msg, news[s], (size_t)news_len[s]);
            int len = news_len[s];
            len += snprintf(msg + len, sizeof msg - len,
                            "count 1 1 1 1\ncows 1 1 1 1\ntop %d %d %d %d\n", rows[0], rows[1],
                            rows[2], rows[3]);
            say(&bots[s], msg, (size_t)len);
        }
        int played[MAXN];
        for (s = 0; s < n; s++)
            played[s] = reply(&bots[s]);
        int len = snprintf(news[0], sizeof news[0], "used");
        for (s = 0; s < n; s++)
            len += snprintf(news[0] + len, sizeof news[0] - len, " %d", played[s]);
        news[0][len++] = '\n';
        for (s = 0; s < n; s++) {
            memcpy(news[s], news[0], (size_t)len);
            news_len[s] = len;
        }
    }
    for (s = 0; s < n; s++) {
        memcpy(msg, news[s], (size_t)news_len[s]);
        int len = news_len[s];
        len += snprintf(msg + len, sizeof msg - len, "score 0\nothers");
        for (i = 1; i < n; i++)
            len += snprintf(msg + len, sizeof msg - len, " 0");
        msg[len++] = '\n';
        say(&bots[s], msg, (size_t)len);
        close(bots[s].in);
    }
    for (s = 0; s < n; s++) {
        close(bots[s].out);
        while (waitpid(bots[s].pid, 0, 0) < 0 && errno == EINTR)
            ;
    }
}

/* One Kingdomino game's messages: what take6 sends and reads, with placeholder grids and
 * tiles (the floor does not play: no rules, no checks of the replies). */
static void game_kd(int n, char **launch)
{
    struct bot bots[MAXN];
    int s, t, k, i, tiles = n == 3 ? 3 : 4, turns = n == 2 ? 7 : 13, kings = n == 2 ? 2 : 1;
    char msg[4096], init[16];
    int init_len = snprintf(init, sizeof init, "%d\n%d\n", n, tiles);
    int len = 0;
    for (s = 0; s < n; s++)
        for (i = 0; i < 9; i++)
            len += snprintf(msg + len, sizeof msg - len, "%s\n",
                            i == 4 ? "_0_0_0_0*0_0_0_0_0" : "_0_0_0_0_0_0_0_0_0");
    for (i = 0; i < tiles; i++)
        len += snprintf(msg + len, sizeof msg - len, "%d c0 f1 %d %d\n", 10 + i, i % n, i == 0);
    for (i = 0; i < tiles; i++)
        len += snprintf(msg + len, sizeof msg - len, "%d g0 l1 -1\n", 20 + i);
    for (s = 0; s < n; s++) {
        spawn(&bots[s], launch[s]);
        say(&bots[s], init, (size_t)init_len);
    }
    for (t = 0; t < turns; t++)
        for (k = 0; k < kings; k++)
            for (s = 0; s < n; s++) {
                say(&bots[s], msg, (size_t)len);
                reply(&bots[s]);
                reply(&bots[s]);
            }
    for (s = 0; s < n; s++) {
        close(bots[s].in);
        close(bots[s].out);
        while (waitpid(bots[s].pid, 0, 0) < 0 && errno == EINTR)
            ;
    }
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc - 3 > MAXN) {
        fprintf(stderr, "usage: floor GAMES JOBS LAUNCH... (at most %d)\n", MAXN);
        return 2;
    }
    int games = atoi(argv[1]), jobs = atoi(argv[2]), n = argc - 3, w, g;
    const char *how = getenv("FLOOR_SPAWN");
    use_fork = how && strcmp(how, "fork") == 0;
    const char *batch = getenv("FLOOR_BATCH");
    use_batch = batch && strcmp(batch, "1") == 0;
    const char *pinned = getenv("FLOOR_PIN");
    int use_pin = pinned && strcmp(pinned, "1") == 0;
    const char *which = getenv("FLOOR_GAME");
    void (*play)(int, char **) = which && strcmp(which, "kingdomino") == 0 ? game_kd : game;
    signal(SIGPIPE, SIG_IGN);
    for (w = 0; w < jobs; w++) {
        pid_t pid = fork();
        if (pid < 0)
            die("fork");
        if (pid == 0) {
            if (use_pin)
                pin(w);
            rng += (unsigned long long)w * 0x2545F4914F6CDD1DULL;
            for (g = w; g < games; g += jobs)
                play(n, argv + 3);
            _exit(0);
        }
    }
    int status, failed = 0;
    while (wait(&status) > 0)
        failed |= !WIFEXITED(status) || WEXITSTATUS(status);
    return failed;
}
