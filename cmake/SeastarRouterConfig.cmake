# SPDX-License-Identifier: MIT
# CMake package of seastar (installed by make install as
# <prefix>/share/cmake/SeastarRouter/SeastarRouterConfig.cmake):
#
#   find_package(SeastarRouter CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE SeastarRouter::SeastarRouter)
#
# and then #include "seastar_arb.h" / "seastar_route.h".  The library is
# header-only: the target is an INTERFACE target that carries the include
# directory.  The file finds its prefix from its own place, so an installed
# tree can be moved.
get_filename_component(_seastar_router_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET SeastarRouter::SeastarRouter)
  add_library(SeastarRouter::SeastarRouter INTERFACE IMPORTED)
  set_target_properties(SeastarRouter::SeastarRouter PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_seastar_router_prefix}/include/seastar-router")
endif()
set(SeastarRouter_INCLUDE_DIRS "${_seastar_router_prefix}/include/seastar-router")
unset(_seastar_router_prefix)
