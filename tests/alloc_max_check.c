/* alloc_max_check.c - built by tests/contract.sh with -O2 -Werror for
 * several values of SA_ALLOC_MAX (and with SA_NO_SIMD): every allocator
 * initialises at the largest size the value allows and returns valid
 * matchings (each matched pair requested, no input or output twice) on
 * random request sets.  Exit status 0 when all hold.  When SA_ALLOC_MAX is
 * 16 or more it also prints a hash of every decision on a fixed workload of
 * sizes up to 16 x 16 (the 21364's, with and without its shaded cells and
 * the Rotary Rule): contract.sh checks that every build prints the same
 * hash, since the choice of SA_ALLOC_MAX and of SIMD must not change a
 * decision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../seastar_arb.h"

/* An allocator with exactly the memory it asks for (malloc'd; freed by
 * done).  Returns 0 on success. */
static int make(sa_alloc *a, const sa_alloc_desc *d, void **memory) {
    size_t size = sa_alloc_memory_size(d);
    *memory = size ? malloc(size) : NULL;
    if (*memory == NULL) return 1;
    if (sa_alloc_init(a, d, *memory, size) != SA_OK) { free(*memory); *memory = NULL; return 1; }
    return 0;
}

static int bits(uint64_t x) {
    int c = 0;
    for (; x; x &= x - 1) c++;
    return c;
}

static uint64_t low_mask(int n) { return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1); }

static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#if SA_ALLOC_MAX >= 16
/* FNV-1a over a matching's bytes that mean something. */
static uint64_t mix(uint64_t h, const sa_match *mt, int n, int m) {
    int i;
    for (i = 0; i < n; i++) h = (h ^ (uint8_t)mt->output_of[i]) * 0x100000001B3ull;
    for (i = 0; i < m; i++) h = (h ^ (uint8_t)mt->input_of[i]) * 0x100000001B3ull;
    return (h ^ (uint64_t)mt->size ^ (mt->inputs << 8) ^ (mt->outputs << 32)) * 0x100000001B3ull;
}

/* Every allocator on the sizes below, each with its own request stream. */
static uint64_t decisions_hash(void) {
    static const int sizes[][2] = {{16, 7}, {16, 8}, {8, 8}, {7, 7}, {16, 16}, {12, 5}};
    uint64_t h = 0xCBF29CE484222325ull, seed = 7, req[SA_ALLOC_MAX];
    uint8_t prio[16 * 16];
    int k, z, v, t, i;
    for (k = 0; k < SA_ALLOC_KIND_COUNT; k++)
        for (z = 0; z < (int)(sizeof sizes / sizeof sizes[0]); z++)
            for (v = 0; v < 3; v++) { /* plain; 21364 shading; shading + Rotary Rule */
                sa_alloc a;
                sa_alloc_desc d;
                void *memory;
                int n = sizes[z][0], m = sizes[z][1];
                memset(&d, 0, sizeof d);
                d.kind = (sa_alloc_kind)k;
                d.num_inputs = n;
                d.num_outputs = m;
                d.iterations = k == SA_ALLOC_PIM && v == 2 ? SA_ITERATE_TO_CONVERGENCE : 1;
                d.seed = 99;
                if (v > 0 && n == 16 && m == 7) sa_21364_no_connect(d.no_connect);
                if (v == 2) {
                    d.rotary = 1;
                    d.network_inputs = 0xFFu & low_mask(n);
                }
                if (sa_alloc_memory_size(&d) == 0) d.rotary = 0; /* kinds without the Rotary Rule */
                if (make(&a, &d, &memory)) return 0;
                for (t = 0; t < 300; t++) {
                    sa_match mt;
                    uint64_t keep = next(&seed);
                    for (i = 0; i < n; i++) req[i] = next(&seed) & keep & low_mask(m);
                    for (i = 0; i < n * m; i++) prio[i] = (uint8_t)(next(&seed) & 7);
                    sa_allocate(&a, req, k == SA_ALLOC_OPF ? prio : NULL, NULL, &mt);
                    h = mix(h, &mt, n, m);
                }
                free(memory);
            }
    return h;
}
#endif

int main(void) {
    uint64_t seed = 1, req[SA_ALLOC_MAX];
    uint8_t prio[SA_ALLOC_MAX * SA_ALLOC_MAX];
    int k, t, i, n = SA_ALLOC_MAX, m = SA_ALLOC_MAX > 8 ? 8 : SA_ALLOC_MAX;
    for (k = 0; k < SA_ALLOC_KIND_COUNT; k++) {
        sa_alloc a;
        sa_alloc_desc d;
        void *memory;
        memset(&d, 0, sizeof d);
        d.kind = (sa_alloc_kind)k;
        d.num_inputs = n;
        d.num_outputs = m;
        if (make(&a, &d, &memory)) { printf("init %s\n", sa_alloc_kind_name(d.kind)); return 1; }
        for (t = 0; t < 200; t++) {
            sa_match mt;
            uint64_t ins = 0, outs = 0;
            int size;
            for (i = 0; i < n; i++) req[i] = next(&seed) & low_mask(m);
            for (i = 0; i < n * m; i++) prio[i] = (uint8_t)next(&seed);
            size = sa_allocate(&a, req, prio, NULL, &mt);
            for (i = 0; i < n; i++) {
                int j = mt.output_of[i];
                if (j < 0) continue;
                if (!((req[i] >> j) & 1u) || ((outs >> j) & 1u) || mt.input_of[j] != i) {
                    printf("%s: bad pair (%d, %d)\n", sa_alloc_kind_name(d.kind), i, j);
                    return 1;
                }
                outs |= (uint64_t)1 << j;
                ins |= (uint64_t)1 << i;
            }
            if (size != bits(ins) || mt.inputs != ins || mt.outputs != outs) {
                printf("%s: size or masks disagree\n", sa_alloc_kind_name(d.kind));
                return 1;
            }
        }
        free(memory);
    }
#if SA_ALLOC_MAX >= 16
    printf("decisions %016llx\n", (unsigned long long)decisions_hash());
#endif
    return 0;
}
