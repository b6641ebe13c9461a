# seastar - build, test, demo, bench, docs, install.
#
#   make demo        the main job on a built-in default
#   make test        every test in C99, C11 and C++ (gcc, and clang where
#                    installed) plus one ASan+UBSan build; ends with the line
#                    "N passed, N failed"
#   make check-long  the long exhaustive and fuzzing variants (not in CI)
#   make bench       microbenchmarks, CSV under bench/out/
#   make docs        the Sphinx site under build/docs (installs Debian's
#                    python3-sphinx if it is missing)
#   make install     headers and seastar.pc under $(DESTDIR)$(PREFIX)
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
SAN      := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

HEADERS  := seastar_arb.h seastar_route.h
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

.PHONY: all test check-long demo bench docs install uninstall clean runners examples
.DELETE_ON_ERROR:

all: runners examples

# ---------------------------------------------------------------- tests
$(B)/tests.inc: $(TEST_SRC)
	@mkdir -p $(B)
	@grep -ho 'ST_TEST([A-Za-z0-9_]*)' $(TEST_SRC) /dev/null | sed 's/ST_TEST(\(.*\))/ST_ENTRY(\1)/' > $@

# Each test file is compiled on its own (in parallel, incrementally), then
# linked into one runner per configuration.  The allocator tests are the
# exception: every file that calls sa_allocate compiles the whole allocator
# (about 4 s per file and configuration), so those that share the default
# build settings are compiled together as one translation unit per group
# (a file listed here must not define a static name another file of its
# group defines, nor set SA_ASSERT).
UNITY_alloc          := test_alloc test_alloc_fast test_alloc_pim test_alloc_props \
                        test_alloc_wfa test_alloc_wfa2 test_alloc_pim64 test_alloc_spaa16 \
                        test_alloc_pim16 \
                        test_alloc_spaa64 test_alloc_opf \
                        test_alloc_pimc
UNITY_alloc_portable := test_alloc_portable test_alloc_pim_portable test_alloc_spaa_portable
UNITY_GROUPS   := alloc alloc_portable
UNITY_MEMBERS  := $(foreach g,$(UNITY_GROUPS),$(UNITY_$(g)))
TEST_OBJ_NAMES := $(patsubst tests/%.c,%.o,$(filter-out $(UNITY_MEMBERS:%=tests/%.c),$(TEST_SRC)) tests/runner.c) \
                  $(UNITY_GROUPS:%=unity_%.o)

$(B)/unity_%.c: Makefile
	@mkdir -p $(B)
	@for f in $(UNITY_$*); do echo "#include \"$$f.c\""; done > $@

define UNITY_RULES
$(B)/$(1)/unity_$(2).o: $(B)/unity_$(2).c $(UNITY_$(2):%=tests/%.c) $(wildcard tests/*.h) $(HEADERS) $(B)/tests.inc
	@mkdir -p $$(@D)
	@$$(CFG_$(1)) -I$(B) -Itests -c $$< -o $$@
endef
$(foreach c,$(CONFIGS),$(foreach g,$(UNITY_GROUPS),$(eval $(call UNITY_RULES,$(c),$(g)))))

define CONFIG_RULES
$(B)/$(1)/%.o: tests/%.c $(wildcard tests/*.h examples/common/*.h) $(HEADERS) $(B)/tests.inc
	@mkdir -p $$(@D)
	@$$(CFG_$(1)) -I$(B) -Itests -c $$< -o $$@
$(B)/$(1)/runner: $(addprefix $(B)/$(1)/,$(TEST_OBJ_NAMES))
	@echo "  build   $(1)"
	@$$(LD_$(1)) $$^ -o $$@ -lm
endef
$(foreach c,$(CONFIGS),$(eval $(call CONFIG_RULES,$(c))))

runners: $(RUNNERS)

# A log always gets written, pass or fail, so that every configuration runs.
$(B)/%/runner.log: $(B)/%/runner
	@echo "  run     $*"
	@./$< $(TEST_ARGS) > $@.tmp 2>&1; echo "exit status $$?" >> $@.tmp; mv $@.tmp $@

$(B)/contract.log: $(HEADERS) README.md Makefile tests/contract.sh $(wildcard examples/*.c examples/common/*)
	@mkdir -p $(B)
	@echo "  run     contract checks"
	@sh tests/contract.sh > $@.tmp 2>&1; echo "exit status $$?" >> $@.tmp; mv $@.tmp $@

test:
	@rm -f $(LOGS)
	@$(MAKE) --no-print-directory -j$(JOBS) $(LOGS)
	@sh tests/summarize.sh $(LOGS)

check-long: $(B)/gcc-c11/runner
	@./$(B)/gcc-c11/runner --long

# ------------------------------------------------------------- examples
EX_CC    := $(GCC) -std=c99 $(WARN) -O2
EX_SRC   := $(wildcard examples/*.c)
EX_BIN   := $(patsubst examples/%.c,$(B)/examples/%,$(EX_SRC))

$(B)/examples/%: examples/%.c $(HEADERS) $(wildcard examples/common/*)
	@mkdir -p $(@D)
	$(EX_CC) -D_POSIX_C_SOURCE=200809L $< -o $@ -lm

examples: $(EX_BIN)

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

bench: $(BENCH_BIN)
	@mkdir -p bench/out
	@for b in $(BENCH_BIN); do n=$$(basename $$b); echo "== $$n"; ./$$b | tee bench/out/$$n.csv; done

# The routing results docs/routing.rst shows (docs/data/route_*.csv): scale
# and compare runs, the SeaStar rules over every single fault of 4x4x4,
# 8x8x8 and 11x12x16 and over 200 fault pairs of 8x8x8 (about an hour on
# 2 cores).  make check-long proves the single faults too.
route-results: $(B)/bench/bench_route
	./$(B)/bench/bench_route --section all --jobs $(JOBS) --out docs/data
.PHONY: route-results

# ----------------------------------------------------------------- docs
docs:
	@sh docs/build.sh $(B)/docs

# -------------------------------------------------------------- install
install:
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/pkgconfig
	install -m 644 $(HEADERS) $(DESTDIR)$(PREFIX)/include/
	sed 's|@PREFIX@|$(PREFIX)|' seastar.pc.in > $(DESTDIR)$(PREFIX)/share/pkgconfig/seastar.pc

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/include/,$(HEADERS)) $(DESTDIR)$(PREFIX)/share/pkgconfig/seastar.pc

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
# bench_alpha includes examples/common/alpha_net.h.
$(B)/bench/bench_alpha: $(wildcard examples/common/*.h)

# Figures 10 and 11 of seed 002: the sweeps (CSV in docs/data/), then PNGs
# in docs/img/ (installs Debian's python3-matplotlib if it is missing).
alpha-plots: $(B)/examples/alpha21364
	/usr/bin/python3 examples/plot_alpha21364.py --run
.PHONY: alpha-plots
