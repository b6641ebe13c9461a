/* SPDX-License-Identifier: MIT */
/* diagram_data.c - the numbers of the explanatory diagrams of the docs,
 * computed by the library itself (examples/plot_diagrams.py draws them).
 *
 * Prints lines "section,key,value..." on stdout:
 *
 *   age,...    one packet's 11-bit age field through Procedures 1-3
 *              (seed 000 Table 1): arrival (Procedure 1), the age clock
 *              ticking while it waits (Procedure 3), the age at the head
 *              of the staging buffer (Procedure 2) and departure; then a
 *              second packet that waits across a timestamp rollover into
 *              the other epoch.
 *   lookup,... SeaStar's hierarchical table lookup (seed 001 "Routing") on
 *              a 16x16x32 torus (8,192 nodes, two 4,096-node partitions):
 *              one destination in the router's own partition (LUT) and one
 *              in the other (GLUT).
 *   route,...  a route on a 4x4 2-D mesh through dimension-order tables,
 *              and through fault-aware tables (sr_tables_build_search)
 *              after the link it used fails: the hops of each.
 *   spaa,...   SPAA's three steps (seed 002 Section 3.3) on a 4-input,
 *              3-output example over three allocations, through the public
 *              sa_spaa_nominate and sa_spaa_grant; a granted request leaves.
 *   section3,... seed 000 Section 3's parameter derivation for the paper's
 *              11x12x16 torus with biases 3,2,1, step by step (the table
 *              of docs/aging.rst).
 *
 * Usage: diagram_data   (no options; --help)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../seastar_arb.h"
#include "../seastar_route.h"
#include "common/cli.h"

static void field(const char *when, const sa_age_clock *clk, uint16_t f, long cycle) {
    printf("age,%s,cycle=%ld,timestamp=%u,epoch=%u,inhibit=%u,field=0x%03X,bits_8_0=%u,carry=%u,in_epoch=%u,"
           "count0=%u,count1=%u\n", when, cycle, clk->timestamp, clk->epoch, clk->inhibit, f, f & 0x1FFu,
           (f >> 8) & 1u, (f >> 9) & 1u, clk->packet_count[0], clk->packet_count[1]);
}

static void ages(void) {
    sa_age_config cfg;
    sa_age_clock clk;
    uint16_t a, b;
    long t = 0;
    int i;
    /* AGE_CLOCK_PERIOD 4; the packet arrives on input port 2 (+y) as a
     * response (VC2), whose RSP_AGE_BIAS is the default 1. */
    if (sa_age_config_default(&cfg, SA_SEASTAR_PORTS) != SA_OK) exit(1);
    cfg.age_clock_period = 4;
    if (sa_age_clock_init(&clk, &cfg) != SA_OK) exit(1);
    while (clk.timestamp < 10) { sa_age_tick(&clk); t++; }
    a = 40;                                          /* the age in the header */
    printf("age,packet,name=A,header_age=%u,port=2,vc=2,bias=%u,period=%u\n", a, cfg.rsp_age_bias[2],
           cfg.age_clock_period);
    field("before_arrival", &clk, a, t);
    if (sa_age_arrive(&clk, &cfg, 2, 2, &a) != SA_OK) exit(1);      /* Procedure 1 */
    field("after_procedure_1", &clk, a, t);
    while (clk.timestamp < 22) { sa_age_tick(&clk); t++; }          /* Procedure 3 */
    field("waiting", &clk, a, t);
    printf("age,at_head,name=A,age=%u,timestamp=%u\n", sa_age_at_head(&clk, a), clk.timestamp); /* Procedure 2 */
    if (sa_age_depart(&clk, &a) != SA_OK) exit(1);
    field("after_departure", &clk, a, t);
    /* B: arrives with age 200 at timestamp 250 in epoch 0 and waits while
     * the timestamp rolls over into epoch 1. */
    while (clk.timestamp < 250) { sa_age_tick(&clk); t++; }
    b = 200;
    printf("age,packet,name=B,header_age=%u,port=2,vc=2,bias=%u,period=%u\n", b, cfg.rsp_age_bias[2],
           cfg.age_clock_period);
    if (sa_age_arrive(&clk, &cfg, 2, 2, &b) != SA_OK) exit(1);
    field("B_after_procedure_1", &clk, b, t);
    for (i = 0; i < 4 * 12; i++) {
        sa_age_tick(&clk);
        t++;
        if (i % 4 == 3) printf("age,B_tick,cycle=%ld,timestamp=%u,epoch=%u,age=%u\n", t, clk.timestamp, clk.epoch,
                               sa_age_at_head(&clk, b));
    }
    field("B_waiting", &clk, b, t);
    printf("age,at_head,name=B,age=%u,timestamp=%u\n", sa_age_at_head(&clk, b), clk.timestamp);
    if (sa_age_depart(&clk, &b) != SA_OK) exit(1);
    field("B_after_departure", &clk, b, t);
}

static void lookups(void) {
    sr_topology_desc d;
    sr_topology t;
    uint8_t *tab;
    uint32_t node = 5, dst[2] = { 300, 6000 };
    int i, c[3];
    memset(&d, 0, sizeof d);
    d.num_dims = 3;
    d.radix[0] = 16; d.radix[1] = 16; d.radix[2] = 32;
    if (sr_topology_init(&t, &d) != SR_OK) exit(1);
    tab = (uint8_t *)calloc(1, t.table_size);
    if (!tab || sr_table_build_dor(&t, node, tab, t.table_size) != SR_OK) exit(1);
    sr_node_coords(&t, node, c);
    printf("lookup,router,node=%u,partition=%u,x=%d,y=%d,z=%d,nodes=%u\n", node, node >> 12, c[0], c[1], c[2],
           t.num_nodes);
    for (i = 0; i < 2; i++) {
        sr_entry e = sr_table_lookup(&t, tab, node, t.proc_port, dst[i]);
        int p = sr_entry_port(e);
        sr_node_coords(&t, dst[i], c);
        printf("lookup,dest,dest=%u,partition=%u,low12=%u,x=%d,y=%d,z=%d,table=%s,index=%u,port=%s,vc_update=%d\n",
               dst[i], dst[i] >> 12, dst[i] & 0xFFFu, c[0], c[1], c[2],
               (dst[i] >> 12) != (node >> 12) ? "GLUT" : "LUT",
               (dst[i] >> 12) != (node >> 12) ? dst[i] >> 12 : dst[i] & 0xFFFu, sr_port_name(&t, p),
               sr_entry_vc_update(e));
    }
    free(tab);
}

/* Follow the tables from src to dst; print the nodes visited. */
static void trace(const char *name, const sr_topology *t, const sr_faults *f, const uint8_t *tables,
                  uint32_t src, uint32_t dst) {
    uint32_t u = src;
    int ip = t->proc_port, hops = 0;
    printf("route,%s,%u", name, u);
    while (hops < 64) {
        sr_entry e = sr_table_lookup(t, tables + (size_t)u * t->table_size, u, ip, dst);
        int p = sr_entry_port(e);
        if (p == t->proc_port) break;
        if (p >= t->proc_port) { printf(",none"); break; }
        u = sr_next_hop(t, f, u, p);
        if (u == SR_NO_NODE) { printf(",dead"); break; }
        ip = sr_port_opposite(p);
        printf(",%u", u);
        hops++;
    }
    printf("\n");
}

static void routes(void) {
    sr_topology_desc d;
    sr_topology t;
    sr_faults f;
    sr_gen_report rep;
    uint8_t *tab;
    void *fm, *scratch;
    uint32_t r, src = 0, dst = 15;        /* corner to corner of the 4x4 mesh */
    memset(&d, 0, sizeof d);
    d.num_dims = 2;
    d.radix[0] = 4; d.radix[1] = 4;
    d.mesh[0] = d.mesh[1] = 1;
    if (sr_topology_init(&t, &d) != SR_OK) exit(1);
    tab = (uint8_t *)calloc(t.num_nodes, t.table_size);
    fm = calloc(1, sr_faults_size(&t));
    scratch = calloc(1, sr_gen_scratch_size(&t));
    if (!tab || !fm || !scratch) exit(1);
    for (r = 0; r < t.num_nodes; r++)
        if (sr_table_build_dor(&t, r, tab + (size_t)r * t.table_size, t.table_size) != SR_OK) exit(1);
    printf("route,mesh,kx=4,ky=4,src=%u,dst=%u,node_numbering=x*ky+y\n", src, dst);
    trace("dor", &t, NULL, tab, src, dst);
    /* fail the +x link out of node 8 (x 2, y 0), on the DOR path */
    if (sr_faults_init(&f, &t, fm, sr_faults_size(&t)) != SR_OK || sr_fault_link(&f, &t, 8, 0) != SR_OK) exit(1);
    printf("route,fault,node=8,port=%s\n", sr_port_name(&t, 0));
    if (sr_tables_build_search(&t, &f, NULL, tab, (size_t)t.num_nodes * t.table_size, scratch,
                               sr_gen_scratch_size(&t), NULL, 0, &rep) != SR_OK) exit(1);
    trace("detour", &t, &f, tab, src, dst);
    free(tab); free(fm); free(scratch);
}

static void spaa(void) {
    static const uint64_t start[4] = { 0x3, 0x1, 0x6, 0x5 };   /* I0: O0 O1, I1: O0, I2: O1 O2, I3: O0 O2 */
    uint64_t req[4];
    sa_switch_desc d;
    sa_switch a;
    sa_match m;
    int16_t nom[4];
    size_t size;
    void *mem;
    int cyc, i;
    memset(&d, 0, sizeof d);
    d.num_inputs = 4;
    d.num_outputs = 3;
    d.kind = SA_SWITCH_SPAA;
    size = sa_switch_memory_size(&d);
    mem = malloc(size ? size : 1);
    if (!mem || sa_switch_init(&a, &d, mem, size) != SA_OK) exit(1);
    memcpy(req, start, sizeof req);
    for (cyc = 1; cyc <= 3; cyc++) {
        sa_spaa_nominate(&a, req, NULL, NULL, nom);
        sa_spaa_grant(&a, nom, &m);
        printf("spaa,cycle=%d", cyc);
        for (i = 0; i < 4; i++)
            printf(",req%d=%u,nom%d=%d,grant%d=%d", i, (unsigned)req[i], i, nom[i], i, m.output_of[i]);
        printf("\n");
        for (i = 0; i < 4; i++)
            if (m.output_of[i] >= 0) req[i] &= ~((uint64_t)1 << m.output_of[i]);   /* that packet left */
    }
    free(mem);
}

static void section3(void) {
    static const char *dn[3] = { "x", "y", "z" };
    int radix[3] = { 11, 12, 16 }, torus[3] = { 1, 1, 1 }, d;
    double hops[3], total, p[3], u[3];
    sa_period_desc pd;
    sa_period_estimate e;
    for (d = 0; d < 3; d++)
        if (sa_average_hops_dim(radix[d], 1, &hops[d]) != SA_OK) exit(1);
    if (sa_average_hops(3, radix, torus, &total) != SA_OK || sa_ejection_probabilities(3, radix, p) != SA_OK ||
        sa_ejection_rates(3, radix, torus, 4.8, 2.0, u) != SA_OK) exit(1);
    memset(&pd, 0, sizeof pd);
    pd.num_dims = 3;
    for (d = 0; d < 3; d++) { pd.radix[d] = radix[d]; pd.bias[d] = 3 - d; }
    if (sa_age_clock_period_estimate(&pd, &e) != SA_OK) exit(1);
    for (d = 0; d < 3; d++) {
        double load, worst;
        if (sa_channel_load(radix[d], 1, 0, &load) != SA_OK || sa_channel_load(radix[d], 1, 1, &worst) != SA_OK) exit(1);
        printf("section3,dim,name=%s,radix=%d,hops=%.4g,hops_rounded=%d,channel_load=%.4g,channel_load_worst=%.4g,"
               "eject_probability=%.4f,eject_rate_gbs=%.3g,bias=%d\n", dn[d], radix[d], hops[d], e.hops[d], load, worst,
               p[d], u[d], 3 - d);
    }
    printf("section3,total,hops=%.4g,hops_rounded=%d,bias_total=%d,ticks_per_hop=%d,packets_queued=%d,"
           "cycles_per_packet=%d,queue_cycles_per_hop=%d,age_clock_period=%u\n", total, e.total_hops, e.bias_total,
           e.ticks_per_hop, e.packets_queued, e.cycles_per_packet, e.queue_cycles_per_hop, e.age_clock_period);
}

int main(int argc, char **argv) {
    cli c;
    cli_init(&c, "diagram_data", "usage: diagram_data\n\nPrints the numbers of the docs' explanatory diagrams, "
             "computed with seastar_arb.h\nand seastar_route.h (examples/plot_diagrams.py draws them).\n",
             NULL, NULL, 0, argc, argv);
    while (cli_next(&c)) cli_unhandled(&c);
    ages();
    lookups();
    routes();
    spaa();
    section3();
    return 0;
}
