/* SPDX-License-Identifier: MIT */
/* ss_mpi.h - the parts of a seastar_net.h network as MPI ranks.
 *
 * Example code, compiled only into the MPI builds (make mpi:
 * build/mpi/seastar_sim and build/mpi/bench_sim, compiled with mpicc and
 * SS_MPI defined).  Rank q of P simulates part q of P of the network, a
 * slab of x-planes (ss_net_init_part); its peers are the owners of the
 * x-planes next to its slab.  The hand-over and the reductions are
 * sim_mpi.h's: every lookahead cycles each rank sends its peers the
 * headers and credits its routers sent theirs, and takes what they sent
 * it; the summary of a run is summed over all ranks with MPI_Allreduce, so
 * every rank ends with the sequential run's figures, to the bit.
 *
 * Usage: ss_mpi_init once after MPI_Init, then ss_mpi_net_init in place of
 * ss_net_init; ss_run, ss_audit and ss_summarize work unchanged.
 */
#ifndef SS_MPI_H
#define SS_MPI_H

#include "sim_mpi.h"
#include "seastar_net.h"

/** One rank's view of the run, and what its exchanges cost. */
typedef sim_mpi ss_mpi;

/** Fill m with this process's rank and the number of ranks. */
static inline void ss_mpi_init(ss_mpi *m) { sim_mpi_init(m); }

/* net->exchange for MPI: each outbox to its rank, each neighbour's records
 * into this rank's wheel. */
static inline void ss_mpi__import(void *ctx, const unsigned char *buf, size_t len) {
    ss_import((ss_net *)ctx, buf, len);
}
static inline void ss_mpi__exchange(void *ctx, ss_net *net) {
    sim_mpi_exchange((sim_mpi *)ctx, net->outbox, ss_mpi__import, net);
}

/** Build this rank's part of the network (ss_net_init_part with part =
 *  rank, parts = ranks) and connect it to the other ranks.  NULL or a
 *  message, as ss_net_init. */
static inline const char *ss_mpi_net_init(ss_mpi *m, ss_net *net, const ss_params *p,
                                          const sim_traffic *t, uint64_t seed) {
    const char *err;
    int k, lo, hi, side;
    if (m->size > p->radix[0]) return "more MPI ranks than x-planes (the x radix)";
    err = ss_net_init_part(net, p, t, seed, m->rank, m->size);
    if (err) return err;
    m->num_peers = 0;
    k = net->shape.radix[0];
    lo = (int)(net->r_lo / net->plane);
    hi = (int)(net->r_hi / net->plane) - 1;
    for (side = 0; side < 2 && m->size > 1; side++) {
        int x = side == 0 ? lo - 1 : hi + 1;
        if (x < 0 || x >= k) {
            if (net->shape.mesh[0]) continue;
            x = (x + k) % k;
        }
        sim_mpi_add_peer(m, net->plane_part[x]);
    }
    if (sim_mpi_connect(m, &net->reduce, &net->reduce_ctx)) {
        net->exchange = ss_mpi__exchange;
        net->exchange_ctx = m;
    }
    return NULL;
}

/** Check, over all ranks, that every packet handed over was received.
 *  NULL or a message (the same on every rank). */
static inline const char *ss_mpi_audit(const ss_net *net) {
    return sim_mpi_check_handover(net->exported, net->imported);
}

/** Free the receive buffer. */
static inline void ss_mpi_free(ss_mpi *m) { sim_mpi_free(m); }

#endif /* SS_MPI_H */
