/* alloc_diff_fast.c - the default build of the switch allocators (the
 * >>fast kernels where the target has them) behind alloc_diff.h. */
#define NDEBUG 1
#define SA_ASSERT(c)
#define AD_PREFIX ad_fast_
#include "alloc_diff_impl.h"
