/* SPDX-License-Identifier: MIT */
/* driver.c - main() for the fuzz harnesses where libFuzzer is not
 * available (no clang): it feeds LLVMFuzzerTestOneInput random inputs.
 * It takes the libFuzzer flags the Makefile uses, so the two are run the
 * same way:
 *
 *   fuzz_NAME [-runs=N] [-max_total_time=SECONDS] [-seed=S] [FILE...]
 *
 * FILEs are run once each (a crash input to replay); without them, random
 * inputs of 0 to 4096 bytes until N runs or the time is up.  A failing
 * input is written to crash-<seed>-<run> in the current directory. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>
#include <sanitizer/common_interface_defs.h>
#include "fuzz.h"

static uint8_t buf[4096];
static size_t cur_len;
static char crash_name[64];
static int random_mode;

/* Write the input being run to crash_name (async-signal-safe calls only):
 * from a signal handler (abort, segfault) or the sanitizers' death callback. */
static void save_crash(void) {
    int fd;
    if (!random_mode) return;
    random_mode = 0;
    fd = open(crash_name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, buf, cur_len);
        (void)w;
        close(fd);
        w = write(2, "driver: failing input written to ", 33);
        w = write(2, crash_name, strlen(crash_name));
        w = write(2, "\n", 1);
    }
}

static void on_signal(int sig) {
    save_crash();
    signal(sig, SIG_DFL);
    raise(sig);
}

static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int main(int argc, char **argv) {
    unsigned long long runs = 0, i;
    double seconds = 0, t0;
    int files = 0, a;
    uint64_t s, cur_seed = 1;
    struct timespec ts;
    for (a = 1; a < argc; a++) {
        if (!strncmp(argv[a], "-runs=", 6)) runs = strtoull(argv[a] + 6, NULL, 10);
        else if (!strncmp(argv[a], "-max_total_time=", 16)) seconds = atof(argv[a] + 16);
        else if (!strncmp(argv[a], "-seed=", 6)) cur_seed = strtoull(argv[a] + 6, NULL, 10);
        else if (argv[a][0] == '-') continue;   /* other libFuzzer flags */
        else {
            FILE *f = fopen(argv[a], "rb");
            if (!f) { perror(argv[a]); return 2; }
            cur_len = fread(buf, 1, sizeof buf, f);
            fclose(f);
            LLVMFuzzerTestOneInput(buf, cur_len);
            files++;
        }
    }
    if (files) { printf("driver: %d inputs ran\n", files); return 0; }
    if (runs == 0 && seconds <= 0) runs = 10000;
    __sanitizer_set_death_callback(save_crash);
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
    signal(SIGFPE, on_signal);
    signal(SIGILL, on_signal);
    random_mode = 1;
    s = cur_seed;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t0 = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    for (i = 0; runs == 0 || i < runs; i++) {
        size_t k;
        snprintf(crash_name, sizeof crash_name, "crash-%llu-%llu", (unsigned long long)cur_seed, i);
        cur_len = (size_t)(next(&s) % (next(&s) & 1 ? 64 : sizeof buf));
        for (k = 0; k < cur_len; k++) buf[k] = (uint8_t)next(&s);
        LLVMFuzzerTestOneInput(buf, cur_len);
        if (seconds > 0 && (i & 63) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &ts);
            if ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec - t0 > seconds) { i++; break; }
        }
    }
    random_mode = 0;
    printf("driver: %llu random inputs ran, no failure\n", i);
    return 0;
}
