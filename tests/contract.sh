#!/bin/sh
# SPDX-License-Identifier: MIT
# Contract checks of make test, counted like tests:
#  - each header compiles warning-free on its own, included twice, as C99,
#    C11, C++11 and C++17 with gcc and (where installed) clang (the C++
#    classes of seastar_arb.hpp as C++ only);
#  - the API index (>>index) of seastar_arb.h, seastar_topo.h and
#    seastar_route.h lists exactly the public functions each defines, with
#    their signatures (tests/check_index.py);
#  - a caller passing arrays of exactly the sizes it configures (1 x 1,
#    5 x 5, 7 x 7, 16 x 7, 64 x 64, 65 x 65, 130 x 129) compiles
#    warning-free with gcc and clang at -O2 and -O3, -Wall -Wextra -Werror,
#    as C and as C++, and runs (tests/exact_caller.c); so does one that
#    defines SA_ASSERT(c) to nothing, as the header allows;
#  - the embedding example in README.md compiles and runs;
#  - every C code block of README.md and docs/*.rst compiles as C and as
#    C++ (C++ blocks as C++); tests/doc_snippets.py says which blocks, how a
#    fragment is wrapped in a function, and the comments that give a
#    fragment its context or mark pseudo-code;
#  - make install DESTDIR=... installs the headers, seastar-router.pc and the
#    SeastarRouter CMake package, and a consumer builds against that copy
#    with pkg-config and with CMake find_package(SeastarRouter CONFIG), also
#    with -Wconversion -Wsign-conversion as C and as C++;
#  - every program in examples/ builds (make examples); the C++ embedding
#    example examples/cpp/torus.cpp builds warning-free as C++11 with g++
#    (make examples) and clang++ and runs a short simulation;
#  - the test runner survives crashing tests;
#  - every allocator works at several values of SA_SWITCH_MAX up to 512,
#    optimised, with and without SIMD (tests/alloc_max_check.c), with the
#    same decisions, pinned.
cd "$(dirname "$0")/.." || exit 2
top=$(pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
ok()   { passed=$((passed + 1)); }
bad()  { failed=$((failed + 1)); echo "FAIL $1"; sed 's/^/    /' "$tmp/err" | head -n 20; }
warn="-Wall -Wextra -Wpedantic -Werror -Wshadow"

compilers="gcc:c99 gcc:c11 g++:c++11 g++:c++17"
command -v clang >/dev/null 2>&1 && compilers="$compilers clang:c99 clang:c11"
command -v clang++ >/dev/null 2>&1 && compilers="$compilers clang++:c++11 clang++:c++17"

for h in seastar_arb.h seastar_topo.h seastar_route.h seastar_arb.hpp; do
    printf '#include "%s"\n#include "%s"\nint main(void) { return 0; }\n' "$top/$h" "$top/$h" > "$tmp/one.c"
    for cs in $compilers; do
        cc=${cs%%:*}; std=${cs#*:}
        case $cc in *++) lang="-x c++";; *) lang=""; [ "$h" = seastar_arb.hpp ] && continue;; esac
        if $cc $lang -std=$std $warn -c "$tmp/one.c" -o "$tmp/one.o" 2>"$tmp/err"; then ok
        else bad "$h alone as $std with $cc"; fi
    done
done

# Every allocator at other values of SA_SWITCH_MAX, optimised (some
# warnings, such as array bounds, appear only then), with and without SIMD.
# Those of 16 and more also print a hash of every decision on sizes up to
# 16 x 16, which must be the same in every such build.
: > "$tmp/hashes"
maxes="1 3 8 9 16 64 65 128 512"
for v in $maxes; do
    for simd in "" "-DSA_NO_SIMD"; do
        if gcc -std=c99 -O2 $warn -DSA_SWITCH_MAX=$v $simd tests/alloc_max_check.c -o "$tmp/amax" 2>"$tmp/err" \
           && "$tmp/amax" >"$tmp/out" 2>"$tmp/err"; then ok; grep '^decisions' "$tmp/out" >> "$tmp/hashes"
        else cat "$tmp/out" >> "$tmp/err" 2>/dev/null; bad "allocators with SA_SWITCH_MAX=$v $simd (tests/alloc_max_check.c)"; fi
    done
done
# The value every build of the allocators of commit 28299a2 printed (the
# last before the reference-first rewrite; that workload gives priorities
# to OPF only, whose use of them is unchanged).
big=0; for v in $maxes; do [ "$v" -ge 16 ] && big=$((big + 2)); done
if [ "$(wc -l < "$tmp/hashes")" -eq $big ] && [ "$(sort -u "$tmp/hashes")" = "decisions ffc9633e67dd367a" ]; then ok
else cp "$tmp/hashes" "$tmp/err"; bad "the same decisions (ffc9633e67dd367a) with SA_SWITCH_MAX 16 to 512, with and without SIMD"; fi

# The README's embedding example: the first ```c block.
awk '/^```c$/{f=1;next} /^```$/{if(f){exit}} f' README.md > "$tmp/readme.c"
if [ -s "$tmp/readme.c" ] && gcc -std=c99 $warn -I"$top" "$tmp/readme.c" -o "$tmp/readme" -lm 2>"$tmp/err" \
   && "$tmp/readme" > "$tmp/err" 2>&1; then ok
else bad "the README embedding example compiles and runs"; fi
if [ -s "$tmp/readme.c" ] && g++ -x c++ -std=c++11 $warn -I"$top" "$tmp/readme.c" -o "$tmp/readme" 2>"$tmp/err"; then ok
else bad "the README embedding example compiles as C++"; fi

# The API index of seastar_arb.h against its definitions.
if command -v python3 >/dev/null 2>&1 && python3 -B tests/check_index.py seastar_arb.h >"$tmp/err" 2>&1; then ok
else bad "the >>index of seastar_arb.h lists its public functions (python3 tests/check_index.py seastar_arb.h)"; fi
if command -v python3 >/dev/null 2>&1 && python3 -B tests/check_index.py seastar_topo.h sr_ >"$tmp/err" 2>&1; then ok
else bad "the >>index of seastar_topo.h lists its public functions (python3 tests/check_index.py seastar_topo.h sr_)"; fi
if command -v python3 >/dev/null 2>&1 && python3 -B tests/check_index.py seastar_route.h sr_ >"$tmp/err" 2>&1; then ok
else bad "the >>index of seastar_route.h lists its public functions (python3 tests/check_index.py seastar_route.h sr_)"; fi

# Exactly-sized arrays at -O2 and -O3 (the header's loops are then inlined
# over constant sizes, where the compilers see any access past them).
for cc in gcc clang g++ clang++; do
    command -v $cc >/dev/null 2>&1 || continue
    case $cc in *++) lang="-x c++ -std=c++11";; *) lang="-std=c99";; esac
    for o in -O2 -O3; do
        if $cc $lang $o -Wall -Wextra -Werror tests/exact_caller.c -o "$tmp/exact" 2>"$tmp/err" && "$tmp/exact" >"$tmp/err" 2>&1; then ok
        else bad "exactly-sized arrays with $cc $o (tests/exact_caller.c)"; fi
    done
done
for cc in gcc clang; do
    command -v $cc >/dev/null 2>&1 || continue
    if $cc -std=c99 -O2 -Wall -Wextra -Werror -DEXACT_ASSERT_OFF tests/exact_caller.c -o "$tmp/exact" 2>"$tmp/err" \
       && "$tmp/exact" >"$tmp/err" 2>&1; then ok
    else bad "SA_ASSERT(c) defined to nothing, with $cc -O2 (tests/exact_caller.c -DEXACT_ASSERT_OFF)"; fi
done

# Every C code block of the README and the docs, as C and as C++.  Unused
# names are allowed (fragments declare what they show), and in C++ the
# missing-field-initializers warning is off: g++ and clang++ give it for
# the C idiom "= {0}" that the docs show.
snip="$tmp/snippets"; mkdir -p "$snip"
snipwarn="$warn -Wno-unused-variable -Wno-unused-but-set-variable -Wno-unused-function"
if python3 -B tests/doc_snippets.py "$snip" README.md docs/*.rst > "$snip/list" 2>"$tmp/err"; then ok
else bad "tests/doc_snippets.py README.md docs/*.rst"; fi
while read -r file lang origin rest; do
    [ "$file" = "-" ] && continue
    r=0
    if [ "$lang" = c ]; then
        gcc -std=c99 $snipwarn -I"$top" -c "$snip/$file" -o "$snip/x.o" 2>"$tmp/err" || r=1
    fi
    if [ $r -eq 0 ]; then
        g++ -x c++ -std=c++11 $snipwarn -Wno-missing-field-initializers -I"$top" -c "$snip/$file" -o "$snip/x.o" 2>>"$tmp/err" || r=1
    fi
    if [ $r -eq 0 ]; then ok; else bad "the code block at $origin compiles as C and C++ ($lang)"; fi
done < "$snip/list"

# make install into a staging directory, then build a consumer through
# pkg-config and through CMake's find_package, both against the installed
# copy only.  pkg-config and cmake are installed with apt-get if missing.
need() {  # command debian-package
    command -v "$1" >/dev/null 2>&1 && return 0
    sudo=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo=sudo
    echo "contract: installing Debian's $2 for the install checks"
    { $sudo apt-get install -y "$2" || { $sudo apt-get update && $sudo apt-get install -y "$2"; }; } >/dev/null 2>&1
    command -v "$1" >/dev/null 2>&1
}
prefix=/opt/seastar-router
stage="$tmp/stage"
ver=$(sed -n 's/^#define SEASTAR_ROUTE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' seastar_route.h | paste -sd.)
# The version the README and docs name is the headers' version.
: > "$tmp/err"
if grep -q "^This is version $ver:" README.md \
   && ! grep -h "find_package(SeastarRouter [0-9]" README.md docs/*.rst | grep -v "find_package(SeastarRouter ${ver%.*} " | grep -q .; then ok
else bad "README.md says 'This is version $ver:' and every find_package(SeastarRouter ...) in README.md and docs asks for ${ver%.*}"; fi
printf '#include "seastar_arb.h"\n#include "seastar_route.h"\n#include <stdio.h>\n%s\n%s\n%s\n' \
  '#if defined(SEASTAR_ARB_VERSION_MAJOR) && (SEASTAR_ARB_VERSION_MAJOR != SEASTAR_ROUTE_VERSION_MAJOR || SEASTAR_ARB_VERSION_MINOR != SEASTAR_ROUTE_VERSION_MINOR || SEASTAR_ARB_VERSION_PATCH != SEASTAR_ROUTE_VERSION_PATCH)' \
  '#error "the two headers carry different versions"' '#endif' > "$tmp/inst.c"
cat >> "$tmp/inst.c" <<'EOC'
int main(void) {
    sr_topology_desc d;
    sr_topology t;
    memset(&d, 0, sizeof d);
    d.num_dims = 2; d.radix[0] = d.radix[1] = 4;
    printf("%d.%d.%d\n", SEASTAR_ROUTE_VERSION_MAJOR, SEASTAR_ROUTE_VERSION_MINOR, SEASTAR_ROUTE_VERSION_PATCH);
    return sa_result_string(SA_OK)[0] != 0 && sr_topology_init(&t, &d) == SR_OK ? 0 : 1;
}
EOC
if make -s install DESTDIR="$stage" PREFIX=$prefix >"$tmp/err" 2>&1 \
   && [ -f "$stage$prefix/include/seastar-router/seastar_arb.h" ] \
   && [ -f "$stage$prefix/include/seastar-router/seastar_route.h" ] \
   && [ -f "$stage$prefix/include/seastar-router/seastar_topo.h" ] \
   && [ -f "$stage$prefix/include/seastar-router/seastar_arb.hpp" ] \
   && [ -f "$stage$prefix/share/pkgconfig/seastar-router.pc" ] \
   && [ -f "$stage$prefix/share/cmake/SeastarRouter/SeastarRouterConfig.cmake" ] \
   && [ -f "$stage$prefix/share/cmake/SeastarRouter/SeastarRouterConfigVersion.cmake" ] \
   && [ ! -e "$stage$prefix/share/pkgconfig/seastar.pc" ]; then ok
else find "$stage" >> "$tmp/err" 2>&1; bad "make install DESTDIR= PREFIX= installs the headers, seastar-router.pc and the SeastarRouter CMake package"; fi

if need pkg-config pkg-config \
   && flags=$(PKG_CONFIG_PATH="$stage$prefix/share/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage" \
              pkg-config --cflags seastar-router 2>"$tmp/err") \
   && pver=$(PKG_CONFIG_PATH="$stage$prefix/share/pkgconfig" pkg-config --modversion seastar-router 2>"$tmp/err") \
   && [ "$pver" = "$ver" ] \
   && gcc -std=c99 $warn $flags "$tmp/inst.c" -o "$tmp/inst" 2>"$tmp/err" && "$tmp/inst" > "$tmp/out" 2>"$tmp/err" \
   && [ "$(cat "$tmp/out")" = "$ver" ]; then ok
else echo "pkg-config version '${pver:-}', headers '$ver'" >> "$tmp/err"; bad "a consumer builds against the installed copy with pkg-config --cflags seastar-router (version $ver)"; fi

# The installed headers are clean of -Wconversion and -Wsign-conversion
# through pkg-config: as C, and as C++ with the C++ classes.
cat > "$tmp/conv.cpp" <<'EOC'
#include "seastar_arb.hpp"
#include "seastar_route.h"
int main() {
    seastar::SwitchAllocator a("iSLIP(iterations=2)", 80, 80);
    a.Clear();
    a.AddRequest(3, 70, 1);
    return a.Allocate() == 1 && a.OutputAssigned(3) == 70 ? 0 : 1;
}
EOC
if [ -n "${flags:-}" ] && gcc -std=c99 $warn -Wconversion -Wsign-conversion $flags -c "$tmp/inst.c" -o "$tmp/conv.o" 2>"$tmp/err" \
   && g++ -std=c++11 $warn -Wconversion -Wsign-conversion $flags "$tmp/conv.cpp" -o "$tmp/conv" 2>"$tmp/err" \
   && "$tmp/conv" 2>"$tmp/err"; then ok
else bad "the installed headers compile without -Wconversion -Wsign-conversion warnings through pkg-config (C and C++)"; fi

mkdir -p "$tmp/cm"
cp "$tmp/inst.c" "$tmp/cm/inst.c"
cat > "$tmp/cm/CMakeLists.txt" <<EOC
cmake_minimum_required(VERSION 3.10)
project(consumer C)
find_package(SeastarRouter $ver CONFIG REQUIRED)
add_executable(inst inst.c)
target_link_libraries(inst PRIVATE SeastarRouter::SeastarRouter)
EOC
if need cmake cmake \
   && cmake -S "$tmp/cm" -B "$tmp/cm/build" -DCMAKE_PREFIX_PATH="$stage$prefix" -DCMAKE_C_FLAGS="-std=c99 $warn" \
            >"$tmp/err" 2>&1 \
   && cmake --build "$tmp/cm/build" >"$tmp/err" 2>&1 \
   && "$tmp/cm/build/inst" > "$tmp/out" 2>"$tmp/err" && [ "$(cat "$tmp/out")" = "$ver" ]; then ok
else bad "a consumer builds against the installed copy with CMake find_package(SeastarRouter $ver CONFIG REQUIRED)"; fi

# The version file refuses a newer major version.
sed "s/find_package(SeastarRouter $ver CONFIG REQUIRED)/find_package(SeastarRouter 99 CONFIG REQUIRED)/" \
    "$tmp/cm/CMakeLists.txt" > "$tmp/cm/x" && mv "$tmp/cm/x" "$tmp/cm/CMakeLists.txt"
if command -v cmake >/dev/null 2>&1 \
   && ! cmake -S "$tmp/cm" -B "$tmp/cm/build99" -DCMAKE_PREFIX_PATH="$stage$prefix" >"$tmp/err" 2>&1 \
   && grep -q "SeastarRouterConfig.cmake, version: $ver" "$tmp/err"; then ok
else bad "find_package(SeastarRouter 99 CONFIG REQUIRED) is refused by the version file"; fi

# The test runner isolates each test: a test that crashes (here a null
# write and an abort) is reported as a failure of that test, and the tests
# after it still run and count.
mkdir -p "$tmp/rt"
printf 'ST_ENTRY(before)\nST_ENTRY(segv)\nST_ENTRY(aborts)\nST_ENTRY(fails)\nST_ENTRY(after)\n' > "$tmp/rt/tests.inc"
cat > "$tmp/rt/t.c" <<'EOC'
#include <stdlib.h>
#include "st_test.h"
static volatile int *volatile nowhere;
ST_TEST(before) { ST_EQ(1, 1); }
ST_TEST(segv) { *nowhere = 1; ST_EQ(1, 1); }
ST_TEST(aborts) { (void)st__ctx; abort(); }
ST_TEST(fails) { ST_EQ(1, 2); }
ST_TEST(after) { ST_EQ(2, 2); }
EOC
if gcc -std=c99 $warn -I"$tmp/rt" -Itests tests/runner.c "$tmp/rt/t.c" -o "$tmp/rt/runner" 2>"$tmp/err"; then
    "$tmp/rt/runner" > "$tmp/rt/out" 2> "$tmp/err"; st=$?
    if [ $st -eq 1 ] && [ "$(tail -n 1 "$tmp/rt/out")" = "2 passed, 3 failed" ] \
       && grep -q "FAIL segv" "$tmp/err" && grep -q "FAIL aborts" "$tmp/err" && grep -q "crashed: killed by signal" "$tmp/err"; then ok
    else { echo "exit status $st"; cat "$tmp/rt/out"; } >> "$tmp/err"; bad "the test runner reports crashing tests as failures and runs the rest"; fi
else bad "the test runner builds with a crashing test"; fi

# Every example builds; the matching study (no test of its own) runs.
if make -s examples >"$tmp/err" 2>&1; then ok; else bad "make examples"; fi
# The C++ embedding example: g++ (make examples) and clang++, C++11 with
# every warning an error, each run on a 4 x 4 torus for 500 cycles (a
# header line and its three runs, iSLIP, iSLIP with ages and age-based,
# each delivering packets).
torus_runs() {  # binary
    "$1" --k 4 --cycles 500 >"$tmp/out" 2>"$tmp/err" \
    && [ "$(sed -n 1p "$tmp/out")" = "run,nodes,cycles,offered,accepted,mean_latency" ] \
    && [ "$(awk -F, 'NR > 1 && $2 == 16 && $3 == 500 && $5 > 0 { n++ } END { print n + 0 }' "$tmp/out")" -eq 3 ] \
    || { cat "$tmp/out" >> "$tmp/err"; return 1; }
}
if [ -x build/examples/torus ] && torus_runs build/examples/torus; then ok
else bad "build/examples/torus --k 4 --cycles 500 (g++, make examples) runs"; fi
if command -v clang++ >/dev/null 2>&1; then
    if clang++ -std=c++11 $warn -O2 -I"$top" examples/cpp/torus.cpp -o "$tmp/torus" 2>"$tmp/err" \
       && torus_runs "$tmp/torus"; then ok
    else bad "examples/cpp/torus.cpp builds warning-free with clang++ -std=c++11 and runs"; fi
fi
mkdir -p "$tmp/study"
if ./build/examples/matching_study --arbs 20 --out "$tmp/study" >"$tmp/err" 2>&1; then ok
else bad "build/examples/matching_study --arbs 20 runs"; fi

# Every public symbol of the headers has a doc comment (the check that also
# fails `make docs`; docs/_ext/capi.py uses the standard library only, so the
# python3 on PATH will do).  Its self-test runs first.
if command -v python3 >/dev/null 2>&1 \
   && python3 -B docs/_ext/test_capi.py >"$tmp/err" 2>&1 \
   && python3 -B docs/_ext/capi.py --check seastar_arb.h seastar_topo.h seastar_route.h >"$tmp/err" 2>&1; then ok
else bad "every public symbol has a doc comment (python3 docs/_ext/capi.py --check seastar_arb.h seastar_topo.h seastar_route.h)"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
