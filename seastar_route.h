/* seastar_route.h - k-ary n-cube topologies, dimension-order routing,
 * SeaStar routing tables, fault-aware table generation and verification,
 * header-only C.  (Under construction: see the routing issue.)
 *
 * Overridable macros (define before including):
 *   SR_API       linkage of every function (default: static inline)
 *   SR_ASSERT(c) precondition check on hot paths (default: assert(c))
 *
 * Naming: public functions and types start with sr_, macros with SR_,
 * private helpers with sr__.
 */
#ifndef SEASTAR_ROUTE_H
#define SEASTAR_ROUTE_H

#include <stdint.h>
#include <stddef.h>

#ifndef SR_API
/** Linkage of every function of seastar_route.h. */
#define SR_API static inline
#endif

#ifndef SR_ASSERT
#include <assert.h>
/** Precondition check used on hot paths. */
#define SR_ASSERT(c) assert(c)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* SEASTAR_ROUTE_H */
