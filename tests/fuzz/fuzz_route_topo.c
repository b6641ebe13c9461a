/* SPDX-License-Identifier: MIT */
/* fuzz_route_topo.c - topology, coordinates, ports, entries and the
 * dimension-order routing function of seastar_route.h: sr_result_string,
 * sr_failure_string, sr_topology_init, sr_coord, sr_node_coords,
 * sr_node_id, sr_port, sr_port_dim, sr_port_opposite, sr_port_name,
 * sr_neighbor, sr_crosses_dateline, sr_entry_make, sr_entry_port,
 * sr_entry_vc_update, sr_entry_vc, sr_dor_entry, sr_route_dor,
 * sr_table_size, sr_faults_size, sr_verify_scratch_size,
 * sr_gen_scratch_size.
 *
 * Oracles: the errors sr_topology_init's doc comment lists, each one
 * applicable to the description; mixed-radix arithmetic; neighbours one
 * step away in one dimension and back through the opposite port; the
 * dateline rule (the link from p-1 to p); and a walk of every routed pair
 * by sr_route_dor that must reach its destination in the minimal number of
 * hops (one partition), dimension by dimension, never turning back, with
 * the VC rule of seed 000 Section 1.1 (the upper VC after the dateline of
 * the current dimension, the lower one on entering a dimension). */
#include "fuzz.h"
#include "../../seastar_route.h"

static int ring_dist(int a, int b, int k, int mesh) {
    int d = b - a;
    if (mesh) return d < 0 ? -d : d;
    d = ((d % k) + k) % k;
    return d < k - d ? d : k - d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sr_topology_desc d;
    sr_topology t, sentinel;
    sr_result r;
    int i, n, steps = 0, err_radix = 0, err_dl = 0, err_many = 0, err_part = 0;
    uint64_t N = 1;
    fz_init(&f, data, size);
    FZ_CHECK(sr_result_string((sr_result)fz_any_int(&f)) != NULL, "result string");
    FZ_CHECK(sr_failure_string((sr_failure)fz_any_int(&f)) != NULL, "failure string");
    /* entries: every port and update round-trip */
    {
        int port = fz_range(&f, 0, 31), upd = fz_range(&f, 0, 2), vc = fz_range(&f, 0, 3);
        sr_entry e = sr_entry_make(port, upd);
        int want = upd == SR_VC_KEEP ? vc : (vc & ~1) | (upd == SR_VC_UPPER);
        FZ_CHECK(sr_entry_port(e) == port && sr_entry_vc_update(e) == upd && sr_entry_vc(e, vc) == want,
                 "entry (%d, %d)", port, upd);
    }
    memset(&d, 0, sizeof d);
    d.num_dims = fz_u8(&f) < 230 ? fz_range(&f, 1, 4) : fz_any_int(&f);
    for (i = 0; i < SR_MAX_DIMS; i++) {
        uint8_t how = fz_u8(&f);
        d.radix[i] = how < 200 ? fz_range(&f, 2, 9) : how < 240 ? fz_range(&f, 0, 40) : fz_any_int(&f);
        d.mesh[i] = fz_u8(&f) & 1;
        d.dateline[i] = fz_u8(&f) < 230 ? fz_range(&f, 0, d.radix[i] > 1 ? d.radix[i] - 1 : 0) : fz_any_int(&f);
    }
    n = d.num_dims;
    if (n >= 1 && n <= SR_MAX_DIMS) {
        uint64_t stride0 = 1;
        for (i = n - 1; i >= 0; i--) {
            if (d.radix[i] < 2) err_radix = 1;
            if (d.dateline[i] < 0 || d.dateline[i] >= d.radix[i]) err_dl = 1;
            if (d.radix[i] > SR_MAX_NODES) err_many = 1;
            if (d.radix[i] >= 1 && N <= SR_MAX_NODES) N *= (uint64_t)d.radix[i];
            if (i > 0 && d.radix[i] >= 1 && stride0 <= SR_MAX_NODES) stride0 *= (uint64_t)d.radix[i];
        }
        if (N > SR_MAX_NODES) err_many = 1;
        if (!err_many && N > SR_LUT_ENTRIES && SR_LUT_ENTRIES % stride0 != 0) err_part = 1;
    }
    memset(&t, 0x3C, sizeof t);
    sentinel = t;
    r = sr_topology_init(&t, &d);
    FZ_CHECK(sr_topology_init(NULL, &d) == SR_ERR_NULL && sr_topology_init(&t, NULL) == SR_ERR_NULL, "init NULL");
    if (n < 1 || n > SR_MAX_DIMS) {
        FZ_CHECK(r == SR_ERR_DIMS && !memcmp(&t, &sentinel, sizeof t), "%d dims gave %d", n, r);
        return 0;
    }
    if (err_radix || err_dl || err_many || err_part) {
        FZ_CHECK((r == SR_ERR_RADIX && err_radix) || (r == SR_ERR_DATELINE && err_dl) ||
                 (r == SR_ERR_TOO_MANY_NODES && err_many) || (r == SR_ERR_PARTITION && err_part),
                 "init gave %d (radix %d, dateline %d, too many %d, partition %d)", r, err_radix, err_dl, err_many,
                 err_part);
        FZ_CHECK(!memcmp(&t, &sentinel, sizeof t), "a failed init wrote the topology");
        return 0;
    }
    FZ_CHECK(r == SR_OK, "init gave %d", r);
    FZ_CHECK(t.num_nodes == N && t.num_dims == n && t.num_ports == 2 * n + 1 && t.proc_port == 2 * n &&
             t.num_partitions == (N + 4095) / 4096 && t.lut_entries == (N < 4096 ? N : 4096) &&
             t.table_stride == 8 + t.lut_entries && t.table_size == (uint32_t)t.num_ports * t.table_stride &&
             sr_table_size(&t) == t.table_size && sr_faults_size(&t) == 4 * N && sr_verify_scratch_size(&t) > 0 &&
             sr_gen_scratch_size(&t) > 0, "topology fields");
    for (i = 0; i < 2 * SR_MAX_DIMS; i++)
        FZ_CHECK(sr_port(i >> 1, i & 1) == i && sr_port_dim(i) == i >> 1 && sr_port_opposite(i) == (i ^ 1),
                 "port %d", i);
    FZ_CHECK(!strcmp(sr_port_name(&t, t.proc_port), "proc") && !strcmp(sr_port_name(&t, SR_PORT_NONE), "none") &&
             !strcmp(sr_port_name(&t, -1), "?") && sr_port_name(&t, fz_any_int(&f)) != NULL, "port names");
    while (fz_more(&f) && steps++ < 64) {
        uint32_t u = fz_u32(&f) % t.num_nodes, v = fz_u32(&f) % t.num_nodes, id, node;
        int c[SR_MAX_DIMS], cv[SR_MAX_DIMS], p, in_port, vc, cls, hops = 0, minimal = 0, last_dim = -1;
        int crossed = 0;
        sr_node_coords(&t, u, c);
        FZ_CHECK(sr_node_id(&t, c) == u, "coordinates of %u", u);
        for (i = 0; i < n; i++) FZ_CHECK(sr_coord(&t, u, i) == c[i] && c[i] >= 0 && c[i] < t.radix[i], "coord");
        id = 0;
        for (i = 0; i < n; i++) id = id * (uint32_t)t.radix[i] + (uint32_t)c[i];
        FZ_CHECK(id == u, "node %u is not mixed radix with x most significant", u);
        i = fz_range(&f, 0, n - 1);
        c[i] += fz_u8(&f) & 1 ? t.radix[i] : -1 - c[i];
        FZ_CHECK(sr_node_id(&t, c) == SR_NO_NODE, "a coordinate out of range gives SR_NO_NODE");
        sr_node_coords(&t, u, c);
        for (p = -1; p <= t.num_ports; p++) {
            uint32_t w = sr_neighbor(&t, u, p);
            int dim = p >> 1, k;
            if (p < 0 || p >= t.proc_port) { FZ_CHECK(w == SR_NO_NODE, "neighbour through port %d", p); continue; }
            k = t.radix[dim];
            if (t.mesh[dim] && ((p & 1) ? c[dim] == 0 : c[dim] == k - 1)) {
                FZ_CHECK(w == SR_NO_NODE, "off the mesh edge");
                FZ_CHECK(sr_crosses_dateline(&t, p, c[dim]) == 0, "a mesh has no dateline");
                continue;
            }
            FZ_CHECK(w < t.num_nodes && sr_neighbor(&t, w, p ^ 1) == u, "neighbour of %u through %d and back", u, p);
            sr_node_coords(&t, w, cv);
            for (i = 0; i < n; i++)
                FZ_CHECK(i == dim ? cv[i] == ((c[i] + ((p & 1) ? k - 1 : 1)) % k) : cv[i] == c[i], "one step");
            FZ_CHECK(sr_crosses_dateline(&t, p, c[dim]) ==
                     (!t.mesh[dim] && ((p & 1) ? c[dim] == t.dateline[dim] : cv[dim] == t.dateline[dim])),
                     "dateline of port %d from %d (dateline %d, k %d)", p, c[dim], t.dateline[dim], k);
        }
        /* a walk by the routing function */
        sr_node_coords(&t, v, cv);
        for (i = 0; i < n; i++) minimal += ring_dist(c[i], cv[i], t.radix[i], t.mesh[i]);
        node = u;
        in_port = t.proc_port;
        cls = fz_u8(&f) & 1 ? 2 : 0;
        vc = cls;
        for (;;) {
            sr_route rt = sr_route_dor(&t, node, in_port, v, vc);
            sr_entry e = sr_dor_entry(&t, node, in_port, v);
            FZ_CHECK(rt.port == sr_entry_port(e) && rt.vc == sr_entry_vc(e, vc), "route_dor and dor_entry agree");
            if (rt.port == t.proc_port) {
                FZ_CHECK(node == v && rt.vc == vc, "ejected at %u, destination %u", node, v);
                break;
            }
            FZ_CHECK(rt.port >= 0 && rt.port < t.proc_port && rt.port != in_port, "port %d from input %d", rt.port,
                     in_port);
            FZ_CHECK((rt.vc & ~1) == cls, "VC class changed");
            if (rt.port >> 1 != last_dim) crossed = 0;
            if (t.num_partitions == 1) FZ_CHECK(rt.port >> 1 >= last_dim, "dimension order");
            crossed |= sr_crosses_dateline(&t, rt.port, sr_coord(&t, node, rt.port >> 1));
            FZ_CHECK(rt.vc == (cls | crossed), "VC %d after %s dateline", rt.vc, crossed ? "the" : "no");
            last_dim = rt.port >> 1;
            id = sr_neighbor(&t, node, rt.port);
            FZ_CHECK(id != SR_NO_NODE, "routed off the edge");
            in_port = rt.port ^ 1;
            node = id;
            vc = rt.vc;
            hops++;
            FZ_CHECK(hops <= 8 * 32768, "no arrival");
        }
        if (t.num_partitions == 1) FZ_CHECK(hops == minimal, "%u to %u: %d hops, minimal %d", u, v, hops, minimal);
        else {
            int bound = 0;
            for (i = 0; i < n; i++) bound += t.radix[i];
            FZ_CHECK(hops <= bound, "%u to %u: %d hops", u, v, hops);
        }
    }
    return 0;
}
