/* SPDX-License-Identifier: MIT */
/* runner.c - main() of the test runner; see st_test.h.
 *
 * Each test runs in a child process of its own (fork), so a test that
 * crashes (a signal, an abort, a sanitizer report, a hang past the time
 * limit) counts as one failure of that test, with what happened, and the
 * run goes on with the next test.  --no-fork runs the tests in the runner
 * itself (for a debugger). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include "st_test.h"
#include <stdlib.h>
#include <time.h>
#include <signal.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>

/* Both headers are included twice, as a user's program may, to prove the
 * include guards and the static-inline API (see DESIGN.md). */
#include "../seastar_arb.h"
#include "../seastar_arb.h"
#include "../seastar_route.h"
#include "../seastar_route.h"

#define ST_ENTRY(name) void st_test_##name(st_ctx *st__ctx);
#include "tests.inc"
#undef ST_ENTRY

typedef struct st_entry { const char *name; void (*fn)(st_ctx *); } st_entry;

#define ST_ENTRY(name) { #name, st_test_##name },
static const st_entry st_tests[] = {
#include "tests.inc"
    { NULL, NULL }
};
#undef ST_ENTRY

/* Seconds a test may run before it counts as hung (0: no limit); the long
 * variants (--long) have none. */
#define ST_TIME_LIMIT 600

static const char *st_current;

void st_fail_begin(st_ctx *ctx, const char *file, int line, const char *what) {
    ctx->failed = 1;
    fprintf(stderr, "FAIL %s\n  %s:%d: %s\n", st_current, file, line, what);
}

static int st_selected(const char *name, int argc, char **argv) {
    int i, any = 0;
    for (i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;
        any = 1;
        if (strstr(name, argv[i]) != NULL) return 1;
    }
    return !any;
}

/* Run one test in this process; 1 if it passed. */
static int st_run_here(const st_entry *t, int long_mode, int timing) {
    st_ctx ctx;
    clock_t t0 = clock();
    ctx.failed = 0;
    ctx.long_mode = long_mode;
    st_current = t->name;
    t->fn(&ctx);
    if (timing)
        fprintf(stderr, "%8.3f s  %s\n", (double)(clock() - t0) / CLOCKS_PER_SEC, t->name);
    fflush(stdout);
    fflush(stderr);
    return !ctx.failed;
}

/* Run one test in a child process; 1 if it passed.  A child that does not
 * end with status 0 (passed) or 1 (failed) crashed: that is reported here. */
static int st_run_isolated(const st_entry *t, int long_mode, int timing) {
    pid_t pid;
    int status = 0;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        perror("runner: fork");
        return st_run_here(t, long_mode, timing);
    }
    if (pid == 0) {
        if (!long_mode && ST_TIME_LIMIT > 0) alarm(ST_TIME_LIMIT);
        exit(st_run_here(t, long_mode, timing) ? 0 : 1);
    }
    while (waitpid(pid, &status, 0) < 0) {}
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 1) return 0;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        fprintf(stderr, "FAIL %s\n  crashed: still running after %d s (stopped)\n", t->name, ST_TIME_LIMIT);
    else if (WIFSIGNALED(status))
        fprintf(stderr, "FAIL %s\n  crashed: killed by signal %d (%s)\n", t->name, WTERMSIG(status),
                strsignal(WTERMSIG(status)));
    else
        fprintf(stderr, "FAIL %s\n  crashed: exit status %d (a sanitizer report or exit() in the test)\n",
                t->name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    fflush(stderr);
    return 0;
}

int main(int argc, char **argv) {
    int i, passed = 0, failed = 0, long_mode = 0, list = 0, timing = 0, isolate = 1;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--long") == 0) long_mode = 1;
        else if (strcmp(argv[i], "--list") == 0) list = 1;
        else if (strcmp(argv[i], "--time") == 0) timing = 1;
        else if (strcmp(argv[i], "--no-fork") == 0) isolate = 0;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--long] [--list] [--time] [--no-fork] [FILTER...]\n", argv[0]);
            return 2;
        }
    }
    for (i = 0; st_tests[i].name != NULL; i++) {
        int ok;
        if (!st_selected(st_tests[i].name, argc, argv)) continue;
        if (list) { printf("%s\n", st_tests[i].name); continue; }
        ok = isolate ? st_run_isolated(&st_tests[i], long_mode, timing)
                     : st_run_here(&st_tests[i], long_mode, timing);
        if (ok) passed++; else failed++;
    }
    if (list) return 0;
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
