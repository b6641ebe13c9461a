# SPDX-License-Identifier: MIT
# seastar - build, test, demo, bench, docs, install.
#
#   make demo        the main job on a built-in default
#   make test        every test in C99, C11 and C++ (gcc, and clang where
#                    installed) plus one ASan+UBSan build, the contract,
#                    command-line, results and MPI checks; a line per step as
#                    it starts and ends (CPU and wall time); ends with the
#                    line "N passed, N failed"
#   make check       the quick loop: one build (gcc, C11) and its unit tests
#                    (also make test-quick)
#   make check-long  the long exhaustive variants and a run of every fuzz
#                    harness (tests/fuzz/; not in CI)
#   make bench       microbenchmarks, CSV under bench/out/
#   make docs        the Sphinx site under build/docs (installs Debian's
#                    python3-sphinx if it is missing)
#   make mpi         the simulator and bench_sim for MPI (build/mpi/)
#   make sim-results the simulator speed figures, 1 and 2 MPI ranks, and
#                    netsim's (bench_netsim)
#   make results     every number and figure the docs show, into docs/data
#                    and docs/img (long: it prints progress and its
#                    expected duration); make topology-results only the
#                    topology tables and diagrams (seconds)
#   make install     headers, seastar-router.pc and the SeastarRouter CMake
#                    package under $(DESTDIR)$(PREFIX)
#   make clean

GCC      ?= gcc
GXX      ?= g++
CLANG    := $(shell command -v clang 2>/dev/null)
CLANGXX  := $(shell command -v clang++ 2>/dev/null)
PREFIX   ?= /usr/local
DESTDIR  ?=
JOBS     ?= 2
B        := build

WARN     := -Wall -Wextra -Wpedantic -Werror -Wshadow
OPT      := -O2
# (ASan+UBSan with line tables only, -g1: its reports name file and line,
# and it compiles in two thirds of -g's time)
SAN      := -O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

HEADERS  := seastar_arb.h seastar_topo.h seastar_route.h
CXX_HEADERS := seastar_arb.hpp
TEST_SRC := $(sort $(wildcard tests/test_*.c))

# Test configurations: name -> compile command (CFG_) and link command (LD_).
CFG_gcc-c99   := $(GCC) -std=c99 $(WARN) $(OPT)
CFG_gcc-c11   := $(GCC) -std=c11 $(WARN) $(OPT)
CFG_gcc-cxx   := $(GXX) -x c++ -std=c++11 $(WARN) $(OPT)
CFG_asan      := $(GCC) -std=c11 $(WARN) $(SAN)
LD_gcc-c99    := $(GCC)
LD_gcc-c11    := $(GCC)
LD_gcc-cxx    := $(GXX)
LD_asan       := $(GCC) $(SAN)
CONFIGS       := gcc-c99 gcc-c11 gcc-cxx asan
ifneq ($(CLANG),)
CFG_clang-c99 := $(CLANG) -std=c99 $(WARN) $(OPT)
CFG_clang-c11 := $(CLANG) -std=c11 $(WARN) $(OPT)
LD_clang-c99  := $(CLANG)
LD_clang-c11  := $(CLANG)
CONFIGS       += clang-c99 clang-c11
endif
ifneq ($(CLANGXX),)
CFG_clang-cxx := $(CLANGXX) -x c++ -std=c++11 $(WARN) $(OPT)
LD_clang-cxx  := $(CLANGXX)
CONFIGS       += clang-cxx
endif

RUNNERS  := $(foreach c,$(CONFIGS),$(B)/$(c)/runner)
LOGS     := $(foreach c,$(CONFIGS),$(B)/$(c)/runner.log) $(B)/contract.log

.PHONY: all test check test-quick check-long demo bench docs install uninstall clean runners examples results
.DELETE_ON_ERROR:

all: runners examples

# ---------------------------------------------------------------- tests
$(B)/tests.inc: $(TEST_SRC)
	@mkdir -p $(B)
	@grep -ho 'ST_TEST([A-Za-z0-9_]*)' $(TEST_SRC) /dev/null | sed 's/ST_TEST(\(.*\))/ST_ENTRY(\1)/' > $@

# Each test file is compiled on its own (in parallel, incrementally), then
# linked into one runner per configuration, with the two builds of the
# allocators that test_alloc_diff.c compares (alloc_diff_fast.c, the
# default build; alloc_diff_ref.c, SA_NO_SIMD).
TEST_OBJ_NAMES := $(patsubst tests/%.c,%.o,$(TEST_SRC) tests/runner.c tests/alloc_diff_fast.c tests/alloc_diff_ref.c)

# (Each compile adds its CPU time to build.cpu, which the link reports.)
define CONFIG_RULES
$(B)/$(1)/%.o: tests/%.c $(wildcard tests/*.h examples/common/*.h) $(HEADERS) $(B)/tests.inc
	@mkdir -p $$(@D)
	@sh tests/step.sh cpu $(B)/$(1)/build.cpu $$(CFG_$(1)) -I$(B) -Itests -c $$< -o $$@
$(B)/$(1)/runner: $(addprefix $(B)/$(1)/,$(TEST_OBJ_NAMES))
	@$$(LD_$(1)) $$^ -o $$@ -lm
	@sh tests/step.sh built $(1) $(B)/$(1)/build.cpu
endef
$(foreach c,$(CONFIGS),$(eval $(call CONFIG_RULES,$(c))))

runners: $(RUNNERS)

# A log always gets written, pass or fail, so that every configuration runs
# (tests/step.sh: a line as the step starts, one as it ends).
$(B)/%/runner.log: $(B)/%/runner
	@sh tests/step.sh run $* $@ ./$< $(TEST_ARGS)

$(B)/contract.log: $(HEADERS) $(CXX_HEADERS) README.md Makefile tests/contract.sh tests/exact_caller.c tests/alloc_max_check.c \
                  tests/doc_snippets.py tests/check_index.py \
                  $(wildcard docs/*.rst examples/*.c examples/common/* examples/cpp/*) \
                  seastar-router.pc.in $(wildcard cmake/*)
	@mkdir -p $(B)
	@sh tests/step.sh run contract $@ sh tests/contract.sh

test:
	@rm -f $(LOGS) $(foreach c,$(CONFIGS),$(B)/$(c)/build.cpu)
	@sh tests/step.sh total $(MAKE) --no-print-directory -j$(JOBS) $(LOGS)
	@sh tests/summarize.sh $(LOGS)

# The quick loop of editing: one configuration's build and its unit tests
# (under a minute on an idle machine).
check test-quick: $(B)/gcc-c11/runner
	@./$(B)/gcc-c11/runner

check-long: $(B)/gcc-c11/runner fuzz
	@./$(B)/gcc-c11/runner --long
	@$(MAKE) --no-print-directory check-web
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(B)/fuzz

# ------------------------------------------------------------------ fuzz
# One harness per group of public entry points (tests/fuzz/fuzz_*.c), with
# libFuzzer when clang is installed, else on tests/fuzz/driver.c's random
# inputs; both under ASan+UBSan.  make check-long runs each FUZZ_SECONDS.
FUZZ_SECONDS ?= 20
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRC))
ifneq ($(CLANG),)
FUZZ_CC  := $(CLANG) -std=c11 $(WARN) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_DRV :=
else
FUZZ_CC  := $(GCC) -std=c11 $(WARN) -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_DRV := tests/fuzz/driver.c
endif
$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h tests/fuzz/driver.c $(HEADERS)
	@mkdir -p $(@D)
	@echo "  build   $@"
	@$(FUZZ_CC) $< $(FUZZ_DRV) -o $@ -lm
fuzz: $(FUZZ_BIN)
.PHONY: fuzz

# ------------------------------------------------------------- examples
EX_CC    := $(GCC) -std=c99 $(WARN) -O2
EX_SRC   := $(wildcard examples/*.c)
EX_BIN   := $(patsubst examples/%.c,$(B)/examples/%,$(EX_SRC))
# The C++ embedding example(s), as C++11 (tests/contract.sh also builds
# them with clang++ and runs them).
EX_CXX   := $(GXX) -std=c++11 $(WARN) -O2
EX_CXX_SRC := $(wildcard examples/cpp/*.cpp)
EX_CXX_BIN := $(patsubst examples/cpp/%.cpp,$(B)/examples/%,$(EX_CXX_SRC))

$(B)/examples/%: examples/%.c $(HEADERS) $(wildcard examples/common/*)
	@mkdir -p $(@D)
	$(EX_CC) -D_POSIX_C_SOURCE=200809L $< -o $@ -lm

$(B)/examples/%: examples/cpp/%.cpp $(HEADERS) $(CXX_HEADERS)
	@mkdir -p $(@D)
	$(EX_CXX) -I. $< -o $@

examples: $(EX_BIN) $(EX_CXX_BIN)

# Every program in examples/, and bench_route, bench_sim, bench_aging and
# bench_alpha, against hostile command lines (tests/cli.sh).
LOGS += $(B)/cli.log
$(B)/cli.log: $(EX_BIN) $(EX_CXX_BIN) $(B)/bench/bench_route $(B)/bench/bench_sim $(B)/bench/bench_aging \
              $(B)/bench/bench_alpha tests/cli.sh
	@sh tests/step.sh run cli $@ sh tests/cli.sh $(B)/examples

# The network simulator built with other compilers and flags prints what
# the default build prints (tests/netsim_det.sh).
LOGS += $(B)/netsim_det.log
$(B)/netsim_det.log: $(B)/examples/netsim examples/netsim.c $(HEADERS) $(wildcard examples/common/*) tests/netsim_det.sh
	@sh tests/step.sh run netsim-det $@ sh tests/netsim_det.sh $(B)

# The drift check: the small configuration of every experiment of make
# results, rerun and compared byte for byte with docs/data/small/
# (tests/results.sh; needs Debian's python3, installed if missing).
LOGS += $(B)/results.log
$(B)/results.log: $(B)/examples/seastar_sim $(B)/examples/diagram_data $(B)/examples/netsim examples/results.py examples/sim_projection.py tests/results.sh $(wildcard docs/data/bench_sim.csv docs/data/sim_projection.csv) $(wildcard docs/data/small/* docs/data/small/raw/*)
	@$(call APT_NEED,/usr/bin/python3,python3)
	@sh tests/step.sh run results $@ sh tests/results.sh

# The topology tables of docs/topologies.rst (seed 004's formulas next to
# the library's values, the metrics of example networks): regenerated by
# examples/topology_formulas and compared byte for byte with docs/data/
# (tests/topo_data.sh).
LOGS += $(B)/topo_data.log
$(B)/topo_data.log: $(B)/examples/topology_formulas tests/topo_data.sh \
                    $(wildcard docs/data/topology_formulas.csv docs/data/topology_metrics.csv)
	@sh tests/step.sh run topo-data $@ sh tests/topo_data.sh $(B)/examples
# The routing proofs (docs/data/routing_proofs.csv and the witnesses of
# the refutations, docs/data/routing_witnesses.txt) run again and compared
# with the files, all but the seconds (examples/routing_proofs.c; a few
# seconds).  make routing-proofs writes them.
LOGS += $(B)/proofs.log
$(B)/proofs.log: $(B)/examples/routing_proofs docs/data/routing_proofs.csv docs/data/routing_witnesses.txt
	@sh tests/step.sh run proofs $@ sh -c './$(B)/examples/routing_proofs --check docs/data --quiet; st=$$?; \
	  if [ $$st -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi; exit $$st'
routing-proofs: $(B)/examples/routing_proofs
	./$(B)/examples/routing_proofs --out docs/data
.PHONY: routing-proofs

# The BlueGene/L router's CPU per packet-hop beside the SeaStar engine's, on
# the 8x8x8 torus in one run (docs/data/bench_bgl.csv, docs/bluegene.rst).
bgl-bench: $(B)/bench/bench_netsim
	./$(B)/bench/bench_netsim --case seastar,bgl > docs/data/bench_bgl.csv
.PHONY: bgl-bench

# ------------------------------------------------------------------ mpi
# make mpi: the simulator and bench_sim with SS_MPI, compiled with mpicc
# (build/mpi/; installs Debian's openmpi-bin and libopenmpi-dev if mpicc is
# missing).  The sequential builds need no MPI.  make test runs
# tests/mpi.sh: small networks under mpirun -np 2 and 3, compared byte for
# byte with the sequential seastar_sim.
MPI_CC := mpicc -std=c99 $(WARN) -O2 -D_POSIX_C_SOURCE=200809L -DSS_MPI
$(B)/mpi/seastar_sim: examples/seastar_sim.c $(HEADERS) $(wildcard examples/common/*)
	@$(call APT_NEED,/usr/bin/mpicc,openmpi-bin libopenmpi-dev)
	@mkdir -p $(@D)
	$(MPI_CC) $< -o $@ -lm
$(B)/mpi/bench_sim: bench/bench_sim.c bench/bench.h $(HEADERS) $(wildcard examples/common/*)
	@$(call APT_NEED,/usr/bin/mpicc,openmpi-bin libopenmpi-dev)
	@mkdir -p $(@D)
	$(MPI_CC) -DNDEBUG $< -o $@ -lm
$(B)/mpi/netsim: examples/netsim.c $(HEADERS) $(wildcard examples/common/*)
	@$(call APT_NEED,/usr/bin/mpicc,openmpi-bin libopenmpi-dev)
	@mkdir -p $(@D)
	$(MPI_CC) -DNC_MPI $< -o $@ -lm
mpi: $(B)/mpi/seastar_sim $(B)/mpi/bench_sim $(B)/mpi/netsim
.PHONY: mpi

# make sim-results: docs/data/bench_sim.csv (bench_sim sequential, then
# with 2 MPI ranks), docs/data/sim_projection.csv (examples/sim_projection.py:
# hosts projected from those rows) and docs/data/bench_sim_goal.csv
# (32x32x32, 1-flit packets, load 0.2, 10,000 measured cycles on 2 ranks),
# and docs/data/bench_netsim.csv (bench_netsim's default cases, then the
# flattened butterfly and the radix-64 dragonfly with a separable VC
# allocator).  About an hour on an idle 2-core machine; docs/simulator.rst
# shows them.
MPIRUN := mpirun --oversubscribe --allow-run-as-root
sim-results: $(B)/bench/bench_sim $(B)/mpi/bench_sim $(B)/bench/bench_netsim
	./$(B)/bench/bench_sim > docs/data/bench_sim.csv.tmp
	$(MPIRUN) -np 2 ./$(B)/mpi/bench_sim | tail -n +2 >> docs/data/bench_sim.csv.tmp
	@mv docs/data/bench_sim.csv.tmp docs/data/bench_sim.csv
	/usr/bin/python3 examples/sim_projection.py docs/data/bench_sim.csv docs/data/sim_projection.csv
	$(MPIRUN) -np 2 ./$(B)/mpi/bench_sim --radix 32 --flits 1 --cycles 10000 > docs/data/bench_sim_goal.csv.tmp
	@mv docs/data/bench_sim_goal.csv.tmp docs/data/bench_sim_goal.csv
	./$(B)/bench/bench_netsim > docs/data/bench_netsim.csv.tmp
	./$(B)/bench/bench_netsim --case fbfly,torus,df64 --va sep-input | tail -n +2 >> docs/data/bench_netsim.csv.tmp
	@mv docs/data/bench_netsim.csv.tmp docs/data/bench_netsim.csv
.PHONY: sim-results

# The MPI step is optional: without mpicc (and no way to install it) it
# says so and counts nothing.
LOGS += $(B)/mpi.log
$(B)/mpi.log: $(B)/examples/seastar_sim $(B)/examples/netsim $(B)/bench/bench_sim tests/mpi.sh examples/seastar_sim.c examples/netsim.c bench/bench_sim.c \
              bench/bench.h $(HEADERS) $(wildcard examples/common/*)
	@if $(call APT_NEED,/usr/bin/mpicc,openmpi-bin libopenmpi-dev); then \
	    $(MAKE) --no-print-directory $(B)/mpi/seastar_sim $(B)/mpi/bench_sim $(B)/mpi/netsim >/dev/null && \
	    sh tests/step.sh run mpi $@ sh tests/mpi.sh $(B); \
	else \
	    printf 'skipped: the MPI checks are optional and mpicc is missing\n0 passed, 0 failed\nexit status 0\n' > $@; \
	    echo "  skip    mpi       (optional; needs mpicc)"; \
	fi

# Install Debian package $(2) unless $(1) exists (as root, or through sudo
# without a password); when that cannot be done (not root, no network), say
# what is missing and how to get it, and fail.  Parallel jobs of make take
# turns at apt-get (flock, where installed).
APT_LOCK := $(shell command -v flock >/dev/null 2>&1 && echo flock /tmp/seastar-apt.lock)
APT_NEED = [ -e $(1) ] || { s=""; \
	[ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && s="sudo -n"; \
	if [ "$$(id -u)" -eq 0 ] || [ -n "$$s" ]; then echo "  install Debian's $(2)"; \
	    $$s $(APT_LOCK) apt-get install -y $(2) >/dev/null 2>&1 || { $$s $(APT_LOCK) apt-get update >/dev/null 2>&1 && \
	    $$s $(APT_LOCK) apt-get install -y $(2) >/dev/null 2>&1; }; fi; \
	[ -e $(1) ] || { echo "  missing $(1): install Debian's $(2) (as root: apt-get install $(2))"; false; }; }

# ----------------------------------------------------------- results
# make results: runs every experiment the docs quote (examples/results.py,
# 3 to 5 seeds each, docs/data/runs.csv; over an hour from scratch on an idle 2-core machine, more
# when it is shared; progress and time left on stderr), writes the tables into
# docs/data (fidelity.csv among them), the drift-check copy into
# docs/data/small, and the figures into docs/img (examples/plot_seastar.py,
# examples/plot_diagrams.py; Debian's python3-matplotlib, installed if
# missing).  RESULTS_ONLY=table6,merging reruns only those experiments.
RESULTS_ONLY ?=
results: $(B)/examples/seastar_sim $(B)/examples/diagram_data $(B)/examples/topology_formulas $(B)/examples/topology_edges $(B)/examples/routing_proofs $(B)/examples/netsim
	./$(B)/examples/routing_proofs --out docs/data
	@$(call APT_NEED,/usr/bin/python3,python3)
	@/usr/bin/python3 examples/results.py $(if $(RESULTS_ONLY),--only $(RESULTS_ONLY))
	@rm -rf docs/data/small && /usr/bin/python3 examples/results.py --small docs/data/small
	@./$(B)/examples/topology_formulas --out docs/data
	@$(call APT_NEED,/usr/lib/python3/dist-packages/matplotlib,python3-matplotlib)
	@/usr/bin/python3 examples/plot_seastar.py
	@/usr/bin/python3 examples/plot_diagrams.py
	@/usr/bin/python3 examples/plot_topologies.py
	@/usr/bin/python3 examples/plot_netsim.py

# The topology tables and diagrams of docs/topologies.rst alone.
topology-results: $(B)/examples/topology_formulas $(B)/examples/topology_edges
	@./$(B)/examples/topology_formulas --out docs/data
	@$(call APT_NEED,/usr/lib/python3/dist-packages/matplotlib,python3-matplotlib)
	@/usr/bin/python3 examples/plot_topologies.py
.PHONY: topology-results

# The SeaStar simulator's built-in comparison of round-robin against
# age-based arbitration (examples/seastar_sim.c; about 5 s).
demo: $(B)/examples/seastar_sim
	./$(B)/examples/seastar_sim

# ---------------------------------------------------------------- bench
BENCH_CC  := $(GCC) -std=c99 $(WARN) -O2 -D_POSIX_C_SOURCE=200809L -DNDEBUG
BENCH_SRC := $(wildcard bench/bench_*.c)
BENCH_BIN := $(patsubst bench/%.c,$(B)/bench/%,$(BENCH_SRC))

$(B)/bench/%: bench/%.c bench/bench.h $(HEADERS)
	@mkdir -p $(@D)
	$(BENCH_CC) $< -o $@ -lm

# bench_alloc times the reference and the fast build of the allocators in
# one run: its timed loops (bench/alloc_kernel.c) are compiled twice.
$(B)/bench/alloc_kernel_fast.o: bench/alloc_kernel.c bench/alloc_kernel.h $(HEADERS)
	@mkdir -p $(@D)
	$(BENCH_CC) -DBA_PREFIX=ba_fast_ -c $< -o $@
$(B)/bench/alloc_kernel_ref.o: bench/alloc_kernel.c bench/alloc_kernel.h $(HEADERS)
	@mkdir -p $(@D)
	$(BENCH_CC) -DSA_NO_SIMD -DBA_PREFIX=ba_ref_ -c $< -o $@
$(B)/bench/bench_alloc: bench/bench_alloc.c bench/bench.h bench/alloc_kernel.h \
                       $(B)/bench/alloc_kernel_fast.o $(B)/bench/alloc_kernel_ref.o
	@mkdir -p $(@D)
	$(BENCH_CC) bench/bench_alloc.c $(B)/bench/alloc_kernel_fast.o $(B)/bench/alloc_kernel_ref.o -o $@ -lm

bench: $(BENCH_BIN)
	@mkdir -p bench/out
	@for b in $(BENCH_BIN); do n=$$(basename $$b); echo "== $$n"; ./$$b | tee bench/out/$$n.csv; done

# The routing results docs/routing.rst shows (docs/data/route_*.csv): scale
# and compare runs, the SeaStar rules over every single fault of 4x4x4,
# 8x8x8 and 11x12x16 (the first two also with the datelines left on the
# wrap links) and over 200 fault pairs of 8x8x8 (about an hour on 2 idle
# cores); and for docs/routing-beyond.rst the time and memory of the large
# routing proofs and the cost of one routing call (route_prooftime.csv,
# route_calls.csv; make routing-bench writes only those two, about a
# minute).  make check-long proves the single faults too.
route-results: $(B)/bench/bench_route
	./$(B)/bench/bench_route --section all --jobs $(JOBS) --out docs/data
routing-bench: $(B)/bench/bench_route
	./$(B)/bench/bench_route --section prooftime --section calls --out docs/data
.PHONY: route-results routing-bench

# results-bench: bench_alloc's reference and fast figures at its default
# sizes (5x5 ... 16x7, 8x8, 64x64, 80x80, 128x128, 512x512) and densities
# (0.1 and 0.5), and the build cost of a caller, into docs/data/
# (docs/performance.rst shows them; about 20 minutes of CPU, most of it the
# reference at 512 x 512); bench_topo's metrics and hop costs
# (docs/topologies.rst; about a second); bench_alpha's speeds of the Alpha
# 21364 model (docs/timing21364.rst; about 10 seconds).
results-bench: $(B)/bench/bench_alloc $(B)/bench/bench_topo $(B)/bench/bench_alpha
	@mkdir -p docs/data
	./$(B)/bench/bench_alloc > docs/data/bench_alloc.csv.tmp
	@mv docs/data/bench_alloc.csv.tmp docs/data/bench_alloc.csv
	./$(B)/bench/bench_topo > docs/data/bench_topo.csv.tmp
	@mv docs/data/bench_topo.csv.tmp docs/data/bench_topo.csv
	sh bench/build_cost.sh > docs/data/alloc_build_cost.csv.tmp
	@mv docs/data/alloc_build_cost.csv.tmp docs/data/alloc_build_cost.csv
	./$(B)/bench/bench_alpha > docs/data/bench_alpha.csv.tmp
	@mv docs/data/bench_alpha.csv.tmp docs/data/bench_alpha.csv
.PHONY: results-bench

# ----------------------------------------------------------------- docs
# (with the interactive page, make web, copied into the site)
docs: web
	@SEASTAR_WEB_SITE=$(CURDIR)/$(B)/web-site sh docs/build.sh $(B)/docs
	@$(MAKE) --no-print-directory check-web WEB_PAGE=$(B)/docs/interactive/index.html
	@$(call APT_NEED,/usr/bin/chromium,chromium)
	@sh docs/check_width.sh $(B)/docs

# ------------------------------------------------------------------ web
# make web: the interactive page (web/: shim.c, index.html, app.js,
# style.css) with the library compiled to WebAssembly by clang's wasm32
# target, lld and wasi-libc (Debian's clang, lld, wasi-libc and
# libclang-rt-N-dev-wasm32, installed when missing), into
# build/web-site/interactive/; it opens as a plain file.  make check-web:
# the page in headless Chromium (Debian's chromium, installed when missing)
# against the library built natively and examples/merging
# (tests/web_check.py; a few seconds), with screenshots into
# build/web-shots/; WEB_SHOTS=docs/img writes them for the docs.
WEB_OUT  := $(B)/web-site/interactive
WEB_CC   := clang --target=wasm32-wasi --sysroot=/usr -std=c99 $(WARN) -O2 -nostartfiles \
            -Wl,--no-entry -Wl,--strip-all
web: $(WEB_OUT)/index.html $(WEB_OUT)/app.js $(WEB_OUT)/style.css $(WEB_OUT)/seastar-wasm.js
$(B)/web/seastar.wasm: web/shim.c examples/common/merging_model.h $(HEADERS)
	@$(call APT_NEED,/usr/bin/clang,clang)
	@$(call APT_NEED,/usr/bin/wasm-ld,lld)
	@$(call APT_NEED,/usr/lib/wasm32-wasi/libc.a,wasi-libc)
	@$(call APT_NEED,"$$(clang --target=wasm32-wasi -print-libgcc-file-name)",libclang-rt-$$(clang -dumpversion | cut -d. -f1)-dev-wasm32)
	@mkdir -p $(@D)
	$(WEB_CC) web/shim.c -o $@
$(WEB_OUT)/seastar-wasm.js: $(B)/web/seastar.wasm
	@mkdir -p $(@D)
	@{ printf '/* the library compiled to WebAssembly (make web), base64 */\nvar SEASTAR_WASM = "'; \
	   base64 -w0 $<; printf '";\n'; } > $@
	@echo "  web     $(WEB_OUT)/index.html ($$(wc -c < $<) bytes of WebAssembly)"
$(WEB_OUT)/%: web/%
	@mkdir -p $(@D)
	@cp $< $@
WEB_SHOTS ?= $(B)/web-shots
WEB_PAGE ?= $(WEB_OUT)/index.html
check-web: web $(B)/web/web_native $(B)/examples/merging
	@$(call APT_NEED,/usr/bin/chromium,chromium)
	@/usr/bin/python3 tests/web_check.py $(WEB_PAGE) $(B)/web/web_native $(B)/examples/merging $(WEB_SHOTS)
$(B)/web/web_native: tests/web_native.c web/shim.c examples/common/merging_model.h $(HEADERS)
	@mkdir -p $(@D)
	$(GCC) -std=c99 $(WARN) -O2 $< -o $@
.PHONY: web check-web

# -------------------------------------------------------------- install
# The package is called seastar-router (pkg-config) / SeastarRouter (CMake):
# "seastar" is the pkg-config and CMake name of another widely installed
# library.  The headers go into include/seastar-router/, which both the
# pkg-config flags and the CMake target put on the include path, so the
# documented #include "seastar_arb.h" works either way.  The version comes
# from seastar_route.h's SEASTAR_ROUTE_VERSION_* macros.
PKG       := seastar-router
VER_PART   = $(shell sed -n 's/^\#define SEASTAR_ROUTE_VERSION_$(1) \([0-9][0-9]*\).*/\1/p' seastar_route.h)
VERSION   := $(call VER_PART,MAJOR).$(call VER_PART,MINOR).$(call VER_PART,PATCH)
INC_DIR    = $(DESTDIR)$(PREFIX)/include/$(PKG)
PC_DIR     = $(DESTDIR)$(PREFIX)/share/pkgconfig
CMAKE_DIR  = $(DESTDIR)$(PREFIX)/share/cmake/SeastarRouter

install:
	install -d $(INC_DIR) $(PC_DIR) $(CMAKE_DIR)
	install -m 644 $(HEADERS) $(CXX_HEADERS) $(INC_DIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' $(PKG).pc.in > $(PC_DIR)/$(PKG).pc
	install -m 644 cmake/SeastarRouterConfig.cmake $(CMAKE_DIR)/
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@MAJOR@|$(call VER_PART,MAJOR)|' -e 's|@MINOR@|$(call VER_PART,MINOR)|' \
	    cmake/SeastarRouterConfigVersion.cmake.in > $(CMAKE_DIR)/SeastarRouterConfigVersion.cmake

uninstall:
	rm -f $(addprefix $(INC_DIR)/,$(HEADERS) $(CXX_HEADERS)) $(PC_DIR)/$(PKG).pc \
	      $(CMAKE_DIR)/SeastarRouterConfig.cmake $(CMAKE_DIR)/SeastarRouterConfigVersion.cmake
	-rmdir $(INC_DIR) $(CMAKE_DIR) 2>/dev/null

clean:
	rm -rf $(B) bench/out

# ------------------------------------------------- matching study (issue 3)
# make study: the standalone 21364 matching study (seed 002 Figures 8, 9):
# CSV and PNG plots under build/study (installs Debian's python3-matplotlib
# if it is missing).  STUDY_ARGS="--arbs 1000" reproduces the paper's count.
STUDY_ARGS ?=
.PHONY: study
study: $(B)/examples/matching_study
	@mkdir -p $(B)/study
	./$(B)/examples/matching_study --out $(B)/study $(STUDY_ARGS) | tee $(B)/study/summary.txt
	@/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || \
	  { echo "installing python3-matplotlib"; (apt-get install -y python3-matplotlib >/dev/null 2>&1 || \
	    (apt-get update >/dev/null 2>&1 && apt-get install -y python3-matplotlib >/dev/null 2>&1)) || \
	    sudo apt-get install -y python3-matplotlib >/dev/null; }
	/usr/bin/python3 examples/plot_matching.py $(B)/study

# ------------------------------------------ Alpha 21364 timing model (issue 6)
# bench_alpha and bench_sim include the models of examples/common/.
$(B)/bench/bench_alpha $(B)/bench/bench_sim $(B)/bench/bench_netsim: $(wildcard examples/common/*.h)
$(B)/bench/bench_aging: examples/common/cli.h

# Figures 10 and 11 of seed 002: the sweeps (CSV in docs/data/), then PNGs
# in docs/img/ (installs Debian's python3-matplotlib if it is missing).
alpha-plots: $(B)/examples/alpha21364
	/usr/bin/python3 examples/plot_alpha21364.py --run
.PHONY: alpha-plots

# --------------------------------- BlueGene/L bubble model check (issue 26)
# make bubble-results: the grid of examples/bubble_check.c (the bubble rules
# model-checked on one ring) into docs/data/bubble_check.csv and
# docs/data/bubble_witness.csv, and the witness drawn into
# docs/img/bubble_deadlock.png (examples/plot_bubble.py; Debian's
# python3-matplotlib, installed if missing).  About a minute; part of make
# results.  make test reruns the grid's small rows (tests/bubble.sh).
bubble-results: $(B)/examples/bubble_check
	./$(B)/examples/bubble_check
	@$(call APT_NEED,/usr/lib/python3/dist-packages/matplotlib,python3-matplotlib)
	@/usr/bin/python3 examples/plot_bubble.py
.PHONY: bubble-results
results: bubble-results

LOGS += $(B)/bubble.log
$(B)/bubble.log: $(B)/examples/bubble_check tests/bubble.sh docs/data/bubble_check.csv docs/data/bubble_witness.csv
	@sh tests/step.sh run bubble $@ sh tests/bubble.sh $(B)/examples/bubble_check
