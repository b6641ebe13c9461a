/* alloc_max_check.c - built by tests/contract.sh with -O2 -Werror for
 * several values of SA_SWITCH_MAX (and with SA_NO_SIMD): every allocator
 * initialises at the largest size the value allows, SA_SWITCH_MAX x 8 and
 * SA_SWITCH_MAX x SA_SWITCH_MAX, and returns valid matchings (each matched
 * pair requested, no input or output twice, the sets and the size as the
 * pairs say) on random request sets, with and without priorities, and one
 * more input or output is refused.  Exit status 0 when all hold.  When
 * SA_SWITCH_MAX is 16 or more it also prints a hash of every decision on a
 * fixed workload of sizes up to 16 x 16 (the 21364's, with and without its
 * shaded cells and the Rotary Rule): contract.sh checks that every build
 * prints the same hash, since the choice of SA_SWITCH_MAX and of SIMD must
 * not change a decision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../seastar_arb.h"

/* An allocator with exactly the memory it asks for (malloc'd; freed by
 * done).  Returns 0 on success. */
static int make(sa_switch *a, const sa_switch_desc *d, void **memory) {
    size_t size = sa_switch_memory_size(d);
    *memory = size ? malloc(size) : NULL;
    if (*memory == NULL) return 1;
    if (sa_switch_init(a, d, *memory, size) != SA_OK) { free(*memory); *memory = NULL; return 1; }
    return 0;
}

static uint64_t low_mask(int n) { return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1); }

static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#if SA_SWITCH_MAX >= 16
/* FNV-1a over a matching's bytes that mean something. */
static uint64_t mix(uint64_t h, const sa_match *mt, int n, int m) {
    int i;
    for (i = 0; i < n; i++) h = (h ^ (uint8_t)mt->output_of[i]) * 0x100000001B3ull;
    for (i = 0; i < m; i++) h = (h ^ (uint8_t)mt->input_of[i]) * 0x100000001B3ull;
    return (h ^ (uint64_t)mt->size ^ ((mt->inputs[0] & low_mask(n)) << 8) ^ ((mt->outputs[0] & low_mask(m)) << 32)) *
           0x100000001B3ull;
}

/* Every allocator on the sizes below, each with its own request stream. */
static uint64_t decisions_hash(void) {
    static const int sizes[][2] = {{16, 7}, {16, 8}, {8, 8}, {7, 7}, {16, 16}, {12, 5}};
    uint64_t h = 0xCBF29CE484222325ull, seed = 7, req[16], no_connect[16];
    int32_t prio[16 * 16];
    int k, z, v, t, i;
    for (k = 0; k < SA_SWITCH_KIND_COUNT; k++)
        for (z = 0; z < (int)(sizeof sizes / sizeof sizes[0]); z++)
            for (v = 0; v < 3; v++) { /* plain; 21364 shading; shading + Rotary Rule */
                sa_switch a;
                sa_switch_desc d;
                void *memory;
                int n = sizes[z][0], m = sizes[z][1];
                memset(&d, 0, sizeof d);
                d.kind = (sa_switch_kind)k;
                d.num_inputs = n;
                d.num_outputs = m;
                d.iterations = k == SA_SWITCH_PIM && v == 2 ? SA_ITERATE_TO_CONVERGENCE : 1;
                d.seed = 99;
                if (v > 0 && n == 16 && m == 7) {
                    sa_21364_no_connect(no_connect);
                    d.no_connect = no_connect;
                }
                if (v == 2) {
                    d.rotary = 1;
                    d.network_inputs[0] = 0xFFu & low_mask(n);
                }
                if (sa_switch_memory_size(&d) == 0) d.rotary = 0; /* kinds without the Rotary Rule */
                if (make(&a, &d, &memory)) return 0;
                for (t = 0; t < 300; t++) {
                    sa_match mt;
                    uint64_t keep = next(&seed);
                    for (i = 0; i < n; i++) req[i] = next(&seed) & keep & low_mask(m);
                    for (i = 0; i < n * m; i++) prio[i] = (int32_t)(next(&seed) & 7);
                    sa_switch_allocate(&a, req, k == SA_SWITCH_OPF ? prio : NULL, NULL, &mt);
                    h = mix(h, &mt, n, m);
                }
                free(memory);
            }
    return h;
}
#endif

/* Every allocator at n x m: valid matchings of random requests (every
 * other call with priorities).  Returns 0 or prints the failure and
 * returns 1. */
static int check_size(int n, int m, int steps, uint64_t *seed) {
    static uint64_t req[SA_SWITCH_MAX * SA_WORDS(SA_SWITCH_MAX)];
    static int32_t prio[SA_SWITCH_MAX * SA_SWITCH_MAX];
    static unsigned char taken[SA_SWITCH_MAX];
    int k, t, i, w = SA_WORDS(m);
    for (k = 0; k < SA_SWITCH_KIND_COUNT; k++) {
        sa_switch a;
        sa_switch_desc d;
        void *memory;
        memset(&d, 0, sizeof d);
        d.kind = (sa_switch_kind)k;
        d.num_inputs = n;
        d.num_outputs = m;
        if (make(&a, &d, &memory)) { printf("init %s %d x %d\n", sa_switch_kind_name(d.kind), n, m); return 1; }
        for (t = 0; t < steps; t++) {
            sa_match mt;
            int size, pairs = 0, j;
            uint64_t keep = next(seed);
            for (i = 0; i < n * w; i++) req[i] = next(seed) & (t % 3 ? keep : ~(uint64_t)0) & low_mask(m - 64 * (i % w));
            /* (few levels on the square: a level costs wrapped WFA a sweep) */
            for (i = 0; i < n * m; i++) prio[i] = m > 8 ? (int32_t)(next(seed) & 3) - 2 : (int32_t)next(seed);
            size = sa_switch_allocate(&a, req, t & 1 ? prio : NULL, NULL, &mt);
            memset(taken, 0, sizeof taken);
            for (i = 0; i < n; i++) {
                j = mt.output_of[i];
                if (((mt.inputs[i / 64] >> (i % 64)) & 1u) != (j >= 0)) {
                    printf("%s %d x %d: the set of inputs disagrees\n", sa_switch_kind_name(d.kind), n, m);
                    return 1;
                }
                if (j < 0) continue;
                if (j >= m || !((req[i * w + j / 64] >> (j % 64)) & 1u) || taken[j] || mt.input_of[j] != i) {
                    printf("%s %d x %d: bad pair (%d, %d)\n", sa_switch_kind_name(d.kind), n, m, i, j);
                    return 1;
                }
                taken[j] = 1;
                pairs++;
            }
            for (j = 0; j < m; j++)
                if (((mt.outputs[j / 64] >> (j % 64)) & 1u) != taken[j] || (!taken[j] && mt.input_of[j] != -1)) {
                    printf("%s %d x %d: the outputs disagree\n", sa_switch_kind_name(d.kind), n, m);
                    return 1;
                }
            if (size != pairs || mt.size != pairs) {
                printf("%s %d x %d: size disagrees\n", sa_switch_kind_name(d.kind), n, m);
                return 1;
            }
        }
        if (sa_switch_check(&a) != SA_OK) { printf("%s: check\n", sa_switch_kind_name(d.kind)); return 1; }
        free(memory);
        /* one more input or output is refused */
        d.num_inputs = n + 1;
        if (n == SA_SWITCH_MAX && sa_switch_memory_size(&d) != 0) { printf("%d inputs accepted\n", n + 1); return 1; }
        d.num_inputs = n;
        d.num_outputs = m + 1;
        if (m == SA_SWITCH_MAX && sa_switch_memory_size(&d) != 0) { printf("%d outputs accepted\n", m + 1); return 1; }
    }
    return 0;
}

int main(void) {
    uint64_t seed = 1;
    if (check_size(SA_SWITCH_MAX, SA_SWITCH_MAX > 8 ? 8 : SA_SWITCH_MAX, 200, &seed)) return 1;
    if (check_size(SA_SWITCH_MAX, SA_SWITCH_MAX, SA_SWITCH_MAX > 100 ? 4 : 40, &seed)) return 1;
#if SA_SWITCH_MAX >= 16
    printf("decisions %016llx\n", (unsigned long long)decisions_hash());
#endif
    return 0;
}
