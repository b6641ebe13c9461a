/* alloc_diff_ref.c - the reference build of the switch allocators
 * (SA_NO_SIMD) behind alloc_diff.h. */
#define NDEBUG 1
#define SA_ASSERT(c)
#define SA_NO_SIMD 1
#define AD_PREFIX ad_ref_
#include "alloc_diff_impl.h"
