/* SPDX-License-Identifier: MIT */
/* ss_mpi.h - the parts of a seastar_net.h network as MPI ranks.
 *
 * Example code, compiled only into the MPI builds (make mpi:
 * build/mpi/seastar_sim and build/mpi/bench_sim, compiled with mpicc and
 * SS_MPI defined).  Rank q of P simulates part q of P of the network, a
 * slab of x-planes (ss_net_init_part).  Every lookahead cycles each rank
 * sends every neighbouring rank (the owners of the x-planes next to its
 * slab) the headers and credits its routers sent theirs, and takes what
 * they sent it; a rank blocks only on its neighbours.  The summary of a
 * run is summed over all ranks with MPI_Allreduce, so every rank ends
 * with the sequential run's figures, to the bit.
 *
 * Usage: ss_mpi_init once after MPI_Init, then ss_mpi_net_init in place of
 * ss_net_init; ss_run, ss_audit and ss_summarize work unchanged.
 */
#ifndef SS_MPI_H
#define SS_MPI_H

#include <mpi.h>
#include "seastar_net.h"

/** One rank's view of the run, and what its exchanges cost. */
typedef struct ss_mpi {
    int rank, size;            /**< this rank, number of ranks */
    int peers[2], num_peers;   /**< the ranks owning the neighbouring x-planes */
    unsigned char *rbuf;       /**< receive buffer */
    size_t rcap;               /**< its size */
    uint64_t windows;          /**< exchanges done */
    uint64_t bytes_sent;       /**< bytes sent to the peers, all exchanges */
    double wait_s;             /**< seconds spent in MPI calls of the
                                    exchanges (waiting for the neighbours
                                    and moving the data) */
} ss_mpi;

/** Fill m with this process's rank and the number of ranks. */
static inline void ss_mpi_init(ss_mpi *m) {
    memset(m, 0, sizeof *m);
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
}

/* net->reduce for MPI: v summed, maximised or minimised over the ranks. */
static inline void ss_mpi__reduce(void *ctx, uint64_t *v, size_t n, int op) {
    (void)ctx;
    if (n > (size_t)INT32_MAX) sim_die("ss_mpi: reduction too large");
    MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, op == 0 ? MPI_SUM : op == 1 ? MPI_MAX : MPI_MIN,
                  MPI_COMM_WORLD);
}

/* net->exchange for MPI: each outbox to its rank, each neighbour's records
 * into this rank's wheel.  Messages between two ranks do not overtake each
 * other, so the k-th receive from a neighbour is its k-th send. */
static inline void ss_mpi__exchange(void *ctx, ss_net *net) {
    ss_mpi *m = (ss_mpi *)ctx;
    MPI_Request req[2];
    double t0 = MPI_Wtime(), in_import = 0;
    int i, q;
    for (q = 0; q < net->parts; q++)
        if (net->outbox[q].len && q != m->peers[0] && q != m->peers[1]) sim_die("ss_mpi: an event for a rank that is no neighbour");
    for (i = 0; i < m->num_peers; i++) {
        ss_outbox *b = &net->outbox[m->peers[i]];
        if (b->len > (size_t)INT32_MAX) sim_die("ss_mpi: more than 2 GiB to hand over");
        MPI_Isend(b->buf, (int)b->len, MPI_BYTE, m->peers[i], 17, MPI_COMM_WORLD, &req[i]);
        m->bytes_sent += b->len;
    }
    for (i = 0; i < m->num_peers; i++) {
        MPI_Status st;
        int count;
        double t1;
        MPI_Probe(m->peers[i], 17, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        if ((size_t)count > m->rcap) {
            free(m->rbuf);
            m->rcap = (size_t)count * 2;
            m->rbuf = (unsigned char *)sim_calloc(m->rcap, 1);
        }
        MPI_Recv(m->rbuf, count, MPI_BYTE, m->peers[i], 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        t1 = MPI_Wtime();
        ss_import(net, m->rbuf, (size_t)count);
        in_import += MPI_Wtime() - t1;
    }
    MPI_Waitall(m->num_peers, req, MPI_STATUSES_IGNORE);
    for (i = 0; i < m->num_peers; i++) net->outbox[m->peers[i]].len = 0;
    m->windows++;
    m->wait_s += MPI_Wtime() - t0 - in_import;
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
    m->peers[0] = m->peers[1] = -1;
    k = net->shape.radix[0];
    lo = (int)(net->r_lo / net->plane);
    hi = (int)(net->r_hi / net->plane) - 1;
    for (side = 0; side < 2 && m->size > 1; side++) {
        int x = side == 0 ? lo - 1 : hi + 1, q, i, dup = 0;
        if (x < 0 || x >= k) {
            if (net->shape.mesh[0]) continue;
            x = (x + k) % k;
        }
        q = net->plane_part[x];
        for (i = 0; i < m->num_peers; i++) dup |= m->peers[i] == q;
        if (q != m->rank && !dup) m->peers[m->num_peers++] = q;
    }
    m->windows = m->bytes_sent = 0;
    m->wait_s = 0;
    if (m->size > 1) {
        net->reduce = ss_mpi__reduce;
        net->reduce_ctx = m;
        net->exchange = ss_mpi__exchange;
        net->exchange_ctx = m;
    }
    return NULL;
}

/** Check, over all ranks, that every packet handed over was received.
 *  NULL or a message (the same on every rank). */
static inline const char *ss_mpi_audit(const ss_net *net) {
    uint64_t v[2];
    v[0] = net->exported;
    v[1] = net->imported;
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return v[0] == v[1] ? NULL : "packets handed over between ranks were lost";
}

/** Free the receive buffer. */
static inline void ss_mpi_free(ss_mpi *m) {
    free(m->rbuf);
    m->rbuf = NULL;
    m->rcap = 0;
}

#endif /* SS_MPI_H */
