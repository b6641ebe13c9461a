/* alloc_diff_fast.c - the default build of the switch allocators (the
 * >>fast kernels where the target has them) behind alloc_diff.h; two of
 * three allocations go through a request set (sa_requests,
 * sa_switch_allocate_requests), so that the reference build's rows decide
 * what the builder's forms must give. */
#define AD_VIA_REQUESTS 1
#define NDEBUG 1
#define SA_ASSERT(c)
#define AD_PREFIX ad_fast_
#include "alloc_diff_impl.h"
