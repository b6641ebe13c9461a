/* SPDX-License-Identifier: MIT */
/* topology_edges.c - the wiring of the topology diagrams of the docs, from
 * the library itself (examples/plot_topologies.py draws them into
 * docs/img/).
 *
 * Prints CSV lines on stdout:
 *
 *   net,NAME,FAMILY,ROUTERS,TERMINALS,P1,P2,P3,P4   one per network (the
 *        description: dragonfly p,a,h,g; HyperX terminals and the sizes)
 *   router,NAME,ID,C0,C1,...                         a router and its
 *        coordinates (sr_net_router_coords: dragonfly group and index,
 *        HyperX one coordinate per dimension)
 *   link,NAME,FROM,TO,KIND,DIM                       each link once, from
 *        sr_net_neighbor (FROM < TO; KIND: local, global, dim; DIM: the
 *        HyperX dimension, else -1)
 *
 * The networks: the dragonfly of seed 004 Figure 4.10 (p = h = 2, a = 4,
 * g = 9) and a smaller one (g = 5, two channels between each pair of
 * groups), each with consecutive and palm-tree global links; the
 * flattened butterflies 2-ary 4-flat (the R4' example of Eq 4.5) and
 * 4-ary 3-flat.
 *
 * Usage: topology_edges   (no options; --help)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../seastar_route.h"
#include "common/cli.h"

static void print_net(const char *name, const sr_net_desc *d) {
    sr_net net;
    uint32_t r;
    sr_result e = sr_net_init(&net, d);
    if (e != SR_OK) {
        fprintf(stderr, "topology_edges: %s: %s\n", name, sr_result_string(e));
        exit(1);
    }
    if (d->kind == SR_NET_DRAGONFLY)
        printf("net,%s,%s,%u,%u,%d,%d,%d,%d\n", name, sr_net_kind_name(net.kind), net.num_routers, net.num_terminals,
               net.desc.dragonfly.p, net.desc.dragonfly.a, net.desc.dragonfly.h, net.desc.dragonfly.g);
    else
        printf("net,%s,%s,%u,%u,%d,%d,%d,%d\n", name, sr_net_kind_name(net.kind), net.num_routers, net.num_terminals,
               net.desc.hyperx.terminals, net.desc.hyperx.size[0], net.desc.hyperx.size[1], net.desc.hyperx.size[2]);
    for (r = 0; r < net.num_routers; r++) {
        int c[SR_MAX_DIMS] = { 0 }, n = sr_net_router_coords(&net, r, c), i;
        printf("router,%s,%u", name, r);
        for (i = 0; i < n; i++) printf(",%d", c[i]);
        printf("\n");
    }
    for (r = 0; r < net.num_routers; r++) {
        int p;
        for (p = 0; p < sr_net_num_ports(&net, r); p++) {
            uint32_t v = sr_net_neighbor(&net, r, p, NULL);
            sr_port_info pi;
            if (v == SR_NO_NODE || v < r) continue;          /* each link once */
            pi = sr_net_port_info(&net, r, p);
            printf("link,%s,%u,%u,%s,%d\n", name, r, v, sr_port_kind_name(pi.kind), pi.dim);
        }
    }
}

int main(int argc, char **argv) {
    sr_net_desc d;
    cli cl;
    cli_init(&cl, "topology_edges",
             "usage: topology_edges\n"
             "\n"
             "The wiring of the topology diagrams of the docs (dragonflies with\n"
             "consecutive and palm-tree global links, flattened butterflies), as CSV\n"
             "lines net/router/link on stdout; examples/plot_topologies.py draws them.\n",
             NULL, NULL, 0, argc, argv);
    while (cli_next(&cl)) cli_unhandled(&cl);
    sr_net_desc_dragonfly(&d, 2, 4, 2, 9, SR_DF_CONSECUTIVE);
    print_net("df9_consecutive", &d);
    sr_net_desc_dragonfly(&d, 2, 4, 2, 9, SR_DF_PALMTREE);
    print_net("df9_palmtree", &d);
    sr_net_desc_dragonfly(&d, 2, 4, 2, 5, SR_DF_CONSECUTIVE);
    print_net("df5_consecutive", &d);
    sr_net_desc_dragonfly(&d, 2, 4, 2, 5, SR_DF_PALMTREE);
    print_net("df5_palmtree", &d);
    if (sr_fbfly_desc(2, 4, &d) != SR_OK) return 1;
    print_net("fbfly_2ary4flat", &d);
    if (sr_fbfly_desc(4, 3, &d) != SR_OK) return 1;
    print_net("fbfly_4ary3flat", &d);
    return 0;
}
