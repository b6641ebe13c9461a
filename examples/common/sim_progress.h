/* SPDX-License-Identifier: MIT */
/* sim_progress.h - progress lines on stderr for the long-running programs
 * in examples/ (example code, not the installed library).
 *
 * A job knows how many units of work it has (cycles, arbitrations); the
 * program reports the units it finishes with sim_progress_add, as often as
 * it likes (it is cheap: one clock read).  Once a job has run for
 * SIM_PROGRESS_SECONDS of wall time since the last line, a line goes out:
 *
 *     seastar_sim: 41.5% of 12.0M cycles, 1.31M cycles/s, ETA 5s (age load 0.340)
 *
 * so a run longer than two seconds says where it is at least every two
 * seconds, and a short run stays silent.
 */
#ifndef SIM_PROGRESS_H
#define SIM_PROGRESS_H

#include <stdio.h>
#include <time.h>

/** Seconds of wall time between two progress lines (at most; a line is
 *  due once this much time has passed since the last one). */
#define SIM_PROGRESS_SECONDS 1.5

/** The progress of one job. */
typedef struct sim_progress {
    FILE *out;          /**< where lines go; NULL: nowhere */
    const char *prog;   /**< program name that starts each line */
    const char *unit;   /**< name of a unit of work ("cycles") */
    double total;       /**< units of the whole job */
    double done;        /**< units finished */
    double t0;          /**< wall time of the start (seconds) */
    double last;        /**< wall time of the last line (or the start) */
    int lines;          /**< lines printed */
} sim_progress;

/** Wall-clock seconds from an arbitrary origin (monotonic where the
 *  platform has it). */
static inline double sim_wall_seconds(void) {
#if defined(CLOCK_MONOTONIC)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#else
    return (double)time(NULL);
#endif
}

/* A count with a k/M/G suffix, 3 significant digits. */
static inline const char *sim__human(double v, char *buf, size_t n) {
    const char *suffix = "";
    if (v >= 1e9) { v /= 1e9; suffix = "G"; }
    else if (v >= 1e6) { v /= 1e6; suffix = "M"; }
    else if (v >= 1e4) { v /= 1e3; suffix = "k"; }
    snprintf(buf, n, v >= 100 || *suffix == 0 ? "%.0f%s" : "%.3g%s", v, suffix);
    return buf;
}

/* A duration as 12s, 3m05s or 2h07m. */
static inline const char *sim__duration(double s, char *buf, size_t n) {
    long t = (long)(s + 0.5);
    if (!(s < 1e9)) snprintf(buf, n, "?");
    else if (t < 60) snprintf(buf, n, "%lds", t);
    else if (t < 3600) snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    return buf;
}

/** Start a job of `total` units; out NULL makes it silent. */
static inline void sim_progress_init(sim_progress *p, FILE *out, const char *prog, const char *unit,
                                     double total) {
    p->out = out;
    p->prog = prog;
    p->unit = unit;
    p->total = total;
    p->done = 0;
    p->t0 = p->last = out ? sim_wall_seconds() : 0.0;
    p->lines = 0;
}

/** Count `units` more finished units; print a line if one is due.  what
 *  (or NULL) says what is running now. */
static inline void sim_progress_add(sim_progress *p, double units, const char *what) {
    double now, rate;
    char a[32], b[32], c[32];
    if (!p || !p->out) return;
    p->done += units;
    now = sim_wall_seconds();
    if (now - p->last < SIM_PROGRESS_SECONDS) return;
    p->last = now;
    p->lines++;
    rate = now > p->t0 ? p->done / (now - p->t0) : 0.0;
    fprintf(p->out, "%s: %.1f%% of %s %s, %s %s/s, ETA %s%s%s%s\n", p->prog,
            p->total > 0 ? 100.0 * p->done / p->total : 0.0, sim__human(p->total, a, sizeof a), p->unit,
            sim__human(rate, b, sizeof b), p->unit,
            rate > 0 ? sim__duration((p->total - p->done) / rate, c, sizeof c) : "?",
            what ? " (" : "", what ? what : "", what ? ")" : "");
    fflush(p->out);
}

/** End a job: if it printed any line, one more with the total time. */
static inline void sim_progress_end(sim_progress *p) {
    double now;
    char a[32], b[32];
    if (!p || !p->out || p->lines == 0) return;
    now = sim_wall_seconds();
    fprintf(p->out, "%s: done, %s %s in %s\n", p->prog, sim__human(p->done, a, sizeof a), p->unit,
            sim__duration(now - p->t0, b, sizeof b));
    fflush(p->out);
}

#endif /* SIM_PROGRESS_H */
