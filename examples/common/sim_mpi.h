/* SPDX-License-Identifier: MIT */
/* sim_mpi.h - the parts of a parallel run as MPI ranks: the hand-over of
 * the outboxes (sim_part.h) between neighbouring ranks and the reductions
 * of the statistics, shared by the network models of examples/
 * (ss_mpi.h for seastar_net.h, net_core.h's netsim).  Example code,
 * compiled only into the MPI builds (make mpi, with mpicc).
 *
 * Rank q of P simulates part q of P of the network.  Every lookahead
 * cycles each rank sends each of its peers (the ranks owning a router one
 * of its channels reaches) the records its routers put in that peer's
 * outbox, and takes what they sent it; a rank blocks only on its peers.
 * Messages between two ranks do not overtake each other, so the k-th
 * receive from a peer is its k-th send.  Statistics are integer sums
 * gathered with MPI_Allreduce (sim_mpi_reduce), so every rank ends with
 * the sequential run's figures, to the bit.
 */
#ifndef SIM_MPI_H
#define SIM_MPI_H

#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
#include "sim_part.h"
#include "sim_stats.h"

/** One rank's view of the run, and what its exchanges cost. */
typedef struct sim_mpi {
    int rank, size;            /**< this rank, number of ranks */
    int *peers, num_peers;     /**< the ranks this one exchanges with */
    MPI_Request *req;          /**< one send request per peer */
    unsigned char *rbuf;       /**< receive buffer */
    size_t rcap;               /**< its size */
    uint64_t windows;          /**< exchanges done */
    uint64_t bytes_sent;       /**< bytes sent to the peers, all exchanges */
    double wait_s;             /**< seconds spent in MPI calls of the
                                    exchanges (waiting for the peers and
                                    moving the data) */
} sim_mpi;

/** Rank 0 prints; the others compute silently: on a rank other than 0,
 *  stdout and stderr go to /dev/null (errors found while every rank reads
 *  the same command line are rank 0's to print).  Returns the saved stderr
 *  for sim_mpi_unmute, or -1 on rank 0. */
static inline int sim_mpi_mute(int rank) {
    int err_fd;
    if (rank == 0) return -1;
    if (freopen("/dev/null", "w", stdout) == NULL) sim_die("cannot silence a rank's output");
    err_fd = dup(2);
    if (err_fd < 0 || dup2(fileno(stdout), 2) < 0) sim_die("cannot silence a rank's output");
    return err_fd;
}

/** After the command line: stderr back on a rank other than 0, so that it
 *  reports the errors only it finds (err_fd from sim_mpi_mute). */
static inline void sim_mpi_unmute(int rank, int err_fd) {
    if (rank == 0) return;
    if (dup2(err_fd, 2) < 0) sim_die("cannot restore stderr");
    close(err_fd);
}

/** Fill m with this process's rank and the number of ranks (after
 *  MPI_Init); no peers yet. */
static inline void sim_mpi_init(sim_mpi *m) {
    memset(m, 0, sizeof *m);
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    m->peers = (int *)sim_calloc((size_t)m->size, sizeof(int));
    m->req = (MPI_Request *)sim_calloc((size_t)m->size, sizeof(MPI_Request));
}

/** Make rank q a peer (once; this rank itself is never one). */
static inline void sim_mpi_add_peer(sim_mpi *m, int q) {
    int i;
    if (q == m->rank || q < 0 || q >= m->size) return;
    for (i = 0; i < m->num_peers; i++)
        if (m->peers[i] == q) return;
    m->peers[m->num_peers++] = q;
}

/** A sim_reduce_fn over the ranks (ctx unused). */
static inline void sim_mpi_reduce(void *ctx, uint64_t *v, size_t n, int op) {
    (void)ctx;
    if (n > (size_t)INT32_MAX) sim_die("sim_mpi: reduction too large");
    MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T,
                  op == SIM_REDUCE_SUM ? MPI_SUM : op == SIM_REDUCE_MAX ? MPI_MAX : MPI_MIN, MPI_COMM_WORLD);
}

/** Start counting the hand-overs of a run, and, with more than one
 *  rank, point a network's reduction (*reduce, *reduce_ctx) at the ranks.
 *  Returns whether the run is cut (more than one rank): the caller then
 *  points the network's exchange at sim_mpi_exchange. */
static inline int sim_mpi_connect(sim_mpi *m, sim_reduce_fn *reduce, void **reduce_ctx) {
    m->windows = m->bytes_sent = 0;
    m->wait_s = 0;
    if (m->size < 2) return 0;
    *reduce = sim_mpi_reduce;
    *reduce_ctx = m;
    return 1;
}

/** One hand-over: outbox[q] to each peer q (outbox has one entry per
 *  rank), then each peer's records given to import(ctx, buf, len); the
 *  outboxes are emptied.  Every rank must call it at the same cycles. */
static inline void sim_mpi_exchange(sim_mpi *m, sim_outbox *outbox,
                                    void (*import)(void *ctx, const unsigned char *buf, size_t len), void *ctx) {
    MPI_Request *req = m->req;
    double t0 = MPI_Wtime(), in_import = 0;
    int i, q;
    for (q = 0; q < m->size; q++) {
        int peer = 0;
        for (i = 0; i < m->num_peers; i++) peer |= m->peers[i] == q;
        if (outbox[q].len && !peer) sim_die("sim_mpi: an event for a rank that is no peer");
    }
    for (i = 0; i < m->num_peers; i++) {
        sim_outbox *b = &outbox[m->peers[i]];
        if (b->len > (size_t)INT32_MAX) sim_die("sim_mpi: more than 2 GiB to hand over");
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
        import(ctx, m->rbuf, (size_t)count);
        in_import += MPI_Wtime() - t1;
    }
    MPI_Waitall(m->num_peers, req, MPI_STATUSES_IGNORE);
    for (i = 0; i < m->num_peers; i++) outbox[m->peers[i]].len = 0;
    m->windows++;
    m->wait_s += MPI_Wtime() - t0 - in_import;
}

/** Check, over all ranks, that every packet handed over was received:
 *  exported and imported are this rank's counts.  NULL or a message (the
 *  same on every rank). */
static inline const char *sim_mpi_check_handover(uint64_t exported, uint64_t imported) {
    uint64_t v[2];
    v[0] = exported;
    v[1] = imported;
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return v[0] == v[1] ? NULL : "packets handed over between ranks were lost";
}

/** Free the receive buffer and the peer list. */
static inline void sim_mpi_free(sim_mpi *m) {
    free(m->rbuf);
    free(m->peers);
    free(m->req);
    m->rbuf = NULL;
    m->peers = NULL;
    m->req = NULL;
    m->rcap = 0;
    m->num_peers = 0;
}

#endif /* SIM_MPI_H */
