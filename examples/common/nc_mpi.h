/* SPDX-License-Identifier: MIT */
/* nc_mpi.h - the parts of a net_core.h network as MPI ranks.
 *
 * Example code, compiled only into the MPI build of netsim (make mpi:
 * build/mpi/netsim, compiled with mpicc and NC_MPI defined).  Rank q of
 * P simulates part q of P of the network (nc_net_init_part: a dragonfly
 * cut between groups, anything else into ranges of routers); its peers
 * are the ranks that own a router one of its channels leads to or comes
 * from.  The hand-over and the reductions are sim_mpi.h's, so every rank
 * ends with the sequential run's figures, to the bit.
 */
#ifndef NC_MPI_H
#define NC_MPI_H

#include "sim_mpi.h"
#include "net_core.h"

static inline void nc_mpi__import(void *ctx, const unsigned char *buf, size_t len) {
    nc_import((nc_net *)ctx, buf, len);
}

static inline void nc_mpi__exchange(void *ctx, nc_net *net) {
    sim_mpi_exchange((sim_mpi *)ctx, net->outbox, nc_mpi__import, net);
}

/** Build this rank's part of the network (nc_net_init_part with part =
 *  rank, parts = ranks) and connect it to the other ranks.  NULL or a
 *  message, as nc_net_init. */
static inline const char *nc_mpi_net_init(sim_mpi *m, nc_net *net, const sr_net *topo, const nc_params *p,
                                          const sim_traffic *t, uint64_t seed) {
    const char *err = nc_net_init_part(net, topo, p, t, seed, m->rank, m->size);
    uint32_t r;
    int o;
    if (err) return err;
    m->num_peers = 0;
    for (r = 0; r < net->routers; r++)
        for (o = 0; o < net->nports[r]; o++) {
            const nc_chan *c = nc_out_chan(net, r, o);
            if (c->to == SR_NO_NODE || c->kind == SR_PORT_TERMINAL) continue;
            if (nc_owns(net, r) && !nc_owns(net, c->to)) sim_mpi_add_peer(m, net->part_of[c->to]);
            if (!nc_owns(net, r) && nc_owns(net, c->to)) sim_mpi_add_peer(m, net->part_of[r]);
        }
    if (sim_mpi_connect(m, &net->reduce, &net->reduce_ctx)) {
        net->exchange = nc_mpi__exchange;
        net->exchange_ctx = m;
    }
    return NULL;
}

#endif /* NC_MPI_H */
