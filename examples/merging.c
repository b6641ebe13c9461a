/* SPDX-License-Identifier: MIT */
/* merging.c - why age-based arbitration exists, in one table.
 *
 * Abts and Weisser, "Age-based packet arbitration in large-radix k-ary
 * n-cubes", SC'07 (seed 000), Figure 4, and Abts and Kim, "High Performance
 * Datacenter Networks", 2011 (seed 004), Section 8.2.4.1: on an 8-node line
 * or ring, processors P0..P6 all send to P7 as fast as they can.  Each
 * router shares its output fairly between the traffic already in the
 * network and its own processor, so with round-robin arbitration every hop
 * halves the bandwidth a source gets: on the mesh P6 gets 1/2, P5 1/4, ...
 * P1 and P0 1/64.  Age-based arbitration lets the packets that have waited
 * longest go first; the paper says it "mitigates" the effect of merging
 * (seed 000 Section 2.1) and gives no number.
 *
 * The model (examples/common/merging_model.h, which the interactive page
 * runs too) is small on purpose: one-flit packets, one cycle per hop,
 * per-input FIFOs of 4 packets with credit flow control, one virtual
 * channel.  Each router runs the SeaStar aging procedures of seastar_arb.h:
 * Procedure 1 when a packet enters an input FIFO, Procedure 2 at the head of
 * the FIFO, the output arbiter with AGE_RR_SELECT, and Procedure 3 every
 * cycle.  On the ring, P3 is 4 hops from P7 either way; it goes the +x way,
 * the tie-break that gives the paper's torus shares.
 *
 * Usage: merging [--cycles N] [--period N] [--bias N] [--no-sweep]
 *        (defaults: 200000 cycles, AGE_CLOCK_PERIOD 18 -- the paper's
 *        Section 3 estimate -- and the paper's default age bias 1)
 *
 * What the defaults show: in this small model age-based arbitration does
 * not mitigate the unfairness, it moves it: the farthest source gets the
 * most of P7's bandwidth.  Jain's fairness index (printed under each table,
 * with the max/min share ratio) is lower than round-robin's on both the line
 * and the ring; on the line the max/min ratio narrows (32 to about 17), on
 * the ring it widens.  The program prints which, from the numbers.  An age is the number of hops times the bias plus the
 * time spent queued in routers divided by AGE_CLOCK_PERIOD.  Here a hop
 * takes one cycle and a FIFO holds 4 one-flit packets, so a packet queues
 * for only a few cycles per hop: a few ticks at period 18, against one
 * full tick of bias per hop.  The hop count decides, and the farthest
 * source has the most hops.  (The full router model of seastar_sim, with
 * 9-flit packets, 30-cycle hops and 96-flit buffers, queues for hundreds of
 * cycles per hop at saturation; there the queueing time dominates the bias,
 * and the shares come out as docs/results.rst explains.)  The sweep printed
 * after the tables varies both parameters: bias 0 leaves only the queueing
 * time, and periods short enough for the ages to saturate at 255 turn most
 * grants into ties, which are broken round-robin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../seastar_arb.h"
#include "common/cli.h"
#include "common/merging_model.h"
#include "common/sim_progress.h"

#define NODES MERGING_NODES
#define DEST MERGING_DEST

typedef merging_net network;

/* The same bias on every port (the command line keeps it in 0..7). */
static void setup(network *net, int torus, int age_based, uint32_t period, int bias) {
    sa_result res = merging_setup(net, torus, age_based, period, bias, bias);
    if (res != SA_OK) {
        fprintf(stderr, "merging: %s\n", sa_result_string(res));
        exit(2);
    }
}

/* Progress on stderr of the whole program (cycles of all its runs). */
static sim_progress progress;

static void run(network *net, long cycles) {
    long t;
    for (t = 0; t < cycles / 10; t++) merging_cycle(net, 0);    /* warm up */
    for (t = 0; t < cycles; t++) {
        merging_cycle(net, 1);
        if ((t & 1023) == 1023) sim_progress_add(&progress, 1024.0 * 1.1, NULL);
    }
}

static double share(const network *net, int src) {
    long total = 0;
    int i;
    for (i = 0; i < NODES; i++) total += net->delivered[i];
    return total ? (double)net->delivered[src] / (double)total : 0.0;
}

/* Jain's fairness index of the seven shares: 1 is perfectly even. */
static double jain(const network *net) {
    double s = 0, s2 = 0;
    int i;
    for (i = 0; i < DEST; i++) { s += share(net, i); s2 += share(net, i) * share(net, i); }
    return s * s / (DEST * s2);
}

/* The largest share over the smallest: 1 is perfectly even. */
static double spread(const network *net) {
    double lo = 1, hi = 0;
    int i;
    for (i = 0; i < DEST; i++) {
        if (share(net, i) < lo) lo = share(net, i);
        if (share(net, i) > hi) hi = share(net, i);
    }
    return lo > 0 ? hi / lo : 1e9;
}

static void print_table(int torus, long cycles, uint32_t period, int bias) {
    static const char *paper_mesh[DEST] = { "1/64", "1/64", "1/32", "1/16", "1/8", "1/4", "1/2" };
    static const char *paper_torus[DEST] = { "1/4", "1/8", "1/8", "1/16", "1/16", "1/8", "1/4" };
    static network rr, age;
    int i;
    setup(&rr, torus, 0, period, bias);
    setup(&age, torus, 1, period, bias);
    run(&rr, cycles);
    run(&age, cycles);
    printf("\n8-ary 1-%s        round-robin            age-based (period %u, bias %d)\n",
           torus ? "torus" : "mesh ", (unsigned)period, bias);
    printf("source  hops     measured   paper        measured   vs 1/7\n");
    for (i = 0; i < DEST; i++) {
        int hops = torus ? (DEST - i <= NODES - (DEST - i) ? DEST - i : NODES - (DEST - i))
                         : DEST - i;
        printf("P%d      %d        %.4f     %-6s       %.4f     %+5.1f%%\n", i, hops,
               share(&rr, i), torus ? paper_torus[i] : paper_mesh[i], share(&age, i),
               100.0 * (share(&age, i) * 7.0 - 1.0));
    }
    printf("Jain fairness index   %.3f                  %.3f   (1.000 = every source 1/7)\n",
           jain(&rr), jain(&age));
    printf("max/min share         %-6.1f                 %.1f\n", spread(&rr), spread(&age));
    printf("The paper: age-based arbitration \"mitigates\" the merging unfairness.\n"
           "Here it %s it: Jain's index %.3f against round-robin's %.3f,\n"
           "max/min share %.1f against %.1f.\n",
           jain(&age) > jain(&rr) && spread(&age) < spread(&rr) ? "mitigates" :
           jain(&age) < jain(&rr) && spread(&age) > spread(&rr) ? "worsens" : "does not clearly mitigate",
           jain(&age), jain(&rr), spread(&age), spread(&rr));
}

/* How the two aging parameters matter (seed 000 Section 3): the bias is
 * worth bias x period cycles of waiting per hop, and a period too short
 * lets ages saturate at 255, where ties fall back to round-robin. */
static void print_sweep(long cycles) {
    static const uint32_t periods[6] = { 1, 8, 18, 32, 64, 256 };
    static network net;
    int p, b;
    printf("\nJain index of the mesh with age-based arbitration, by AGE_CLOCK_PERIOD and bias:\n");
    printf("bias   period:");
    for (p = 0; p < 6; p++) printf("%8u", (unsigned)periods[p]);
    printf("\n");
    for (b = 0; b <= 1; b++) {
        printf("%d             ", b);
        for (p = 0; p < 6; p++) {
            setup(&net, 0, 1, periods[p], b);
            run(&net, cycles);
            printf("%8.3f", jain(&net));
        }
        printf("\n");
    }
    printf("(short periods saturate ages at 255, where ties fall back to round-robin; with a\n"
           " bias of 1 the hop count outweighs this model's few cycles of queueing per hop\n"
           " and favours the distant sources)\n");
}

static const cli_opt options[] = {
    { "--cycles", NULL, "N", CLI_INT, 1, 1000000000, 0, 0, NULL, "200000",
      "measured cycles per run (a tenth more warm up first)" },
    { "--period", NULL, "N", CLI_INT, 1, 4294967295u, 0, 0, NULL, "18 (Section 3)", "AGE_CLOCK_PERIOD" },
    { "--bias", NULL, "N", CLI_INT, 0, 7, 0, 0, NULL, "1 (the paper's default)", "REQ_AGE_BIAS of every port" },
    { "--no-sweep", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "skip the period and bias sweep (it runs only at the default period and bias)" },
};

int main(int argc, char **argv) {
    long cycles = 200000;
    uint32_t period = 18;
    int bias = 1, sweep = 1;
    cli c;
    cli_init(&c, "merging",
             "usage: merging [options]\n"
             "\n"
             "Traffic merging (Abts and Weisser, SC'07, Figure 4): on an 8-node line and\n"
             "ring, P0..P6 all send to P7 at saturation, under round-robin and age-based\n"
             "arbitration.\n",
             "Prints the share of P7's delivered packets per source, and at the default\n"
             "period and bias a sweep of both.  Progress goes to stderr every 1.5 s of a\n"
             "run that lasts longer.\n",
             options, (int)(sizeof options / sizeof options[0]), argc, argv);
    while (cli_next(&c)) {
        if (cli_is(&c, "--cycles")) cycles = (long)cli_uint(&c);
        else if (cli_is(&c, "--period")) { period = (uint32_t)cli_uint(&c); sweep = 0; }
        else if (cli_is(&c, "--bias")) { bias = (int)cli_uint(&c); sweep = 0; }
        else if (cli_is(&c, "--no-sweep")) sweep = 0;
        else cli_unhandled(&c);
    }
    sim_progress_init(&progress, stderr, "merging", "cycles",
                      1.1 * (4.0 * (double)cycles + (sweep ? 12.0 * (double)(cycles / 4) : 0.0)));
    printf("Traffic merging (Abts and Weisser, SC'07, Figure 4): P0..P6 all send to P7 at\n"
           "saturation.\n");
    printf("Share of P7's delivered packets per source, %ld cycles per run.\n", cycles);
    print_table(0, cycles, period, bias);
    print_table(1, cycles, period, bias);
    if (sweep) print_sweep(cycles / 4);
    sim_progress_end(&progress);
    return 0;
}
