# SPDX-License-Identifier: MIT
#
# gpusim - every entry point.
#
#   make run        build and run the bring-up demo (installs what it needs)
#   make test       build and run the whole regression (installs what it needs)
#   make regress    the larger regression of tb/regress/nightly.list (SHARD=K/N)
#   make regress-slurm  the same as a Slurm job array of SHARDS shards, merged
#   make test-slurm the Slurm path end to end on a one-node cluster it starts
#   make lint       Verilator -Wall lint and Yosys elaboration (no latches)
#   make synth      full Yosys synthesis to gates (no latches; cell count)
#   make gen        regenerate the files derived from regspec/gpusim.json
#   make check-gen  fail if a generated file is stale
#   make waves      run the demo with a full FST and print the GTKWave command
#   make bench      simulation speed and modelled efficiency figures, then bench-ipc's,
#                   written to tb/bench/FIGURES.md
#   make bench-ipc  host instructions per simulated cycle (callgrind) and cycles/s
#   make bench-blocks  the same split by RTL block
#   make fast       the speed build build-fast/bin/gpusim (PGO, -march=native, no waves)
#   make captures   regenerate the capture corpus in traces/capture/
#   make clean
#
# Build outputs go to build/ (ignored by git).

SHELL := /bin/bash
B := build
JOBS ?= 2

CC := gcc
CXX := g++
VERILATOR := verilator
VL_INC := /usr/share/verilator/include
SC_INC := /usr/include
SC_LIB := /usr/lib/x86_64-linux-gnu

# Sanitizer builds: make test SAN=1 (ASan + UBSan on all C code).
ifeq ($(SAN),1)
# A report is fatal: UBSan does not recover, and the run's options stop a
# test at its first report with an abort (and a stack) that no test passes on.
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
export ASAN_OPTIONS := halt_on_error=1:abort_on_error=1:print_stacktrace=1:detect_leaks=1
export UBSAN_OPTIONS := halt_on_error=1:abort_on_error=1:print_stacktrace=1
# The Verilated models and Verilator's runtime are generated and vendored
# code, not ours: the sanitizer build links build/'s (VB), so it verilates and
# compiles none of them again and runs them at full speed; every C and C++
# file of ours, the backends' shims included, is instrumented.
VB := build
B := build-san
# valgrind cannot run ASan binaries; lint and the generator check do not
# change with SAN; the sanitizer run does not run itself; the runner's tests
# use build/.  Its list (tb/regress/san.list) runs each C path once, not
# every seed of ci.list: make test runs it beside the plain regression, as
# the CTests san_build_lib, san_build (make san-build-lib / san-build
# SAN=1) and sanitizers_K (make
# san-run SAN=1 SHARD=K/3, a third of the list each).
TEST_LIST := tb/regress/san.list
REGRESS_LIST ?= $(TEST_LIST)
REGRESS_ARGS := --exclude "memcheck|lint|synth|check_gen|san_build|sanitizers|regress|slurm|reset_"
endif

# Coverage builds: make coverage (COV=1, into build-cov/): the Verilator
# model with line and toggle coverage, without the SystemC model, and our C
# with gcov's (GCOV_FLAGS: not the Verilated model's generated C++).
ifeq ($(COV),1)
B := build-cov
COV_VFLAGS := --coverage-line --coverage-toggle --coverage-user
COV_CXXFLAGS := -DVM_COVERAGE=1
GCOV_FLAGS := --coverage
endif

# The speed build: make fast (FAST=gen, then FAST=use, into build-fast/):
# -march=native and GCC's profile-guided optimisation trained on the
# benchmark workloads, the Verilator model without trace support and
# without the SystemC model.  build/ stays portable (valgrind runs it).
ifneq ($(FAST),)
B := build-fast
TRACE := 0
PGO_DIR := $(abspath build-fast)
ifeq ($(FAST),gen)
OPT_FLAGS := -march=native -fprofile-generate -fprofile-update=single
else
OPT_FLAGS := -march=native -fprofile-use -fprofile-partial-training -Wno-missing-profile \
	-Wno-coverage-mismatch
endif
endif

# The profiling build: make bench-blocks (PROF=1, into build-prof/): the
# portable build with the Verilator model's C++ compiled with -g, so
# callgrind counts each generated line (tools/ipc_blocks.py), without trace
# support and without the SystemC model.
ifeq ($(PROF),1)
B := build-prof
TRACE := 0
OPT_FLAGS := -g
endif

# The builds of one model (no SystemC, no second Verilator model).
ONE_MODEL = $(filter 1,$(COV) $(PROF) $(XU))$(FAST)

# The reset-value build: make XU=1 (into build-xu/): the model verilated with
# --x-assign unique --x-initial unique, so every flop without a reset and
# every X the RTL assigns takes the value Verilator's +verilator+rand+reset+N
# and +verilator+seed+N ask for (GPUSIM_VERILATOR_ARGS, gm_be_vl.cpp); no
# trace support, no SystemC model.  tools/reset_check.sh compares its runs
# with the default build's: the results must not depend on power-up values.
ifeq ($(XU),1)
B := build-xu
TRACE := 0
XFLAGS := --x-assign unique --x-initial unique
endif
XFLAGS ?= --x-assign fast --x-initial fast

# make prints a line a step (CC fw/kmd/fw_dev.c, VERILATE build/vl_cc);
# make V=1 prints the commands.
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-8s %s\n' '$(1)' '$(2)';
endif

# Where the Verilated models are built: the build's own folder but for SAN.
VB ?= $(B)

# TRACE=0: a Verilator model without --trace-fst (no waveforms: --wave is refused).
TRACE ?= 1
VM_TRACE_DEFS := -DVM_TRACE=$(TRACE) -DVM_TRACE_FST=$(TRACE)

# fw/ by layer: the user-mode driver (umd), the OS side - the pipeline that
# links the roles (dxgkrnl), the video memory manager (vidmm) and the
# scheduler (vidsch) - and the miniport (kmd).  Each folder is an
# include path, so clients outside fw/ name a header by its file name.
FW_DIRS := fw/umd fw/dxgkrnl fw/vidmm fw/vidsch fw/kmd
INCS := -Ihw -Imodel -Idma $(addprefix -I,$(FW_DIRS)) -Immu
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes $(INCS) $(SANFLAGS) \
	$(OPT_FLAGS) $(GCOV_FLAGS)
CXXFLAGS := -std=c++17 -O2 -g -Wall $(INCS) -I$(VL_INC) -I$(VL_INC)/vltstd \
	$(VM_TRACE_DEFS) $(SANFLAGS) $(OPT_FLAGS)
LDLIBS := -L$(SC_LIB) -lsystemc -lz -lpthread -lm $(SANFLAGS)
ifneq ($(ONE_MODEL),)
LDLIBS := -lz -lpthread -lm $(OPT_FLAGS) $(GCOV_FLAGS)
endif

# ---------------------------------------------------------------- sources
RTL_SRC := rtl/gpu_pkg.sv rtl/prim/prim_fifo_sync.sv rtl/prim/prim_fifo_bytes.sv rtl/prim/prim_arb_rr.sv \
	rtl/apt/apt_swz.sv rtl/apt/apt_front.sv rtl/apt/apt_wr.sv rtl/apt/apt_rd.sv rtl/apt/apt_top.sv rtl/ce/ce_walk.sv rtl/ce/ce_wr.sv rtl/ce/ce_top.sv \
	rtl/cp/cp_mem_arb.sv rtl/cp/cp_copy_cmd.sv rtl/cp/cp_fetch.sv rtl/cp/cp_hdr_check.sv \
	rtl/cp/cp_pkt_check.sv rtl/cp/cp_wait_cmp.sv rtl/cp/cp_exec.sv rtl/cp/cp_counters.sv \
	rtl/cp/cp_queue.sv \
	rtl/mmu/mmu_tlb.sv rtl/mmu/mmu_mq.sv rtl/mmu/mmu_pwc.sv rtl/mmu/mmu_walk.sv rtl/mmu/mmu_top.sv \
	rtl/top/gpu_regs.sv rtl/top/gpu_top.sv
RTL_DEP := $(RTL_SRC) rtl/gpu_defs.svh rtl/top/gpu_top_ports.svh rtl/prim/prim_assert.svh \
	rtl/lint/gpu.vlt rtl/lint/gpu_defs.vlt
VLT := rtl/lint/gpu.vlt rtl/lint/gpu_defs.vlt
VFLAGS := -Wall -Irtl --top-module gpu_top -O3 $(XFLAGS) --assert \
	$(if $(filter 1,$(TRACE)),--trace-fst) --output-split 20000 $(COV_VFLAGS) $(VLT) $(RTL_SRC)

GEN := rtl/gpu_defs.svh rtl/gpu_pkg.sv rtl/lint/gpu_defs.vlt hw/gpu_hw.h hw/gpu_names.c \
	regspec/REGISTERS.md $(wildcard traces/filters/*.txt) \
	rtl/top/gpu_top_ports.svh model/gm_pins.h model/gm_pins_vl.hpp model/gm_pins_sc.hpp \
	model/ref/ref_pins.h

# The GPU's hardware facts in C (hw/README.md): the bottom layer, under
# both dma/ and the reference backend model/ref/.
HW_C := hw/gpu_names.c hw/gpu_pkt.c hw/gpu_tile.c

# The driver, by layer (see FW_DIRS).
FW_DXGK_C := fw/dxgkrnl/fw_kmd.c
FW_KMD_C := fw/kmd/fw_dev.c fw/kmd/fw_vm.c fw/kmd/fw_render.c fw/kmd/fw_submit.c \
	fw/kmd/fw_pagingbuf.c
FW_ALLOC_C := fw/vidmm/fw_mem.c fw/vidmm/fw_adapter.c fw/vidmm/fw_res.c fw/vidmm/fw_residency.c
FW_VIDMM_C := $(FW_ALLOC_C) fw/vidmm/fw_paging.c fw/vidmm/fw_paging_recover.c fw/vidmm/fw_lock.c fw/vidmm/fw_lock_copy.c \
	fw/vidmm/fw_lock_level.c fw/vidmm/fw_lock_sched.c fw/vidmm/fw_gpuva.c fw/vidmm/fw_gpuva_batch.c fw/vidmm/fw_gpuva_move.c
FW_VIDSCH_C := fw/vidsch/fw_mfence.c fw/vidsch/fw_sched.c
FW_UMD_C := fw/umd/fw_umd.c fw/umd/umd_obj.c fw/umd/umd_rec.c fw/umd/umd_exec.c fw/umd/umd_rt.c
FW_H := $(wildcard $(addsuffix /*.h,$(FW_DIRS)))

# The TLM-2.0 module, its memory target, interconnect and host (model/tlm/):
# SystemC like gm_be_sc.cpp, so not in the builds without it (gm_be_nosc.c).
TLM_CPP := model/tlm/gpusim_tlm.cpp model/tlm/gm_mem_tlm.cpp model/tlm/gm_tlm_bus.cpp \
	model/tlm/gm_tlm_host.cpp
TLM_OBJ := $(patsubst %.cpp,$(B)/obj/%.o,$(TLM_CPP))
TLM_H := $(wildcard model/tlm/*.h)

LIB_C := model/gm.c model/gm_wave.c model/gm_backends.c model/gm_apt.c model/gm_capture.c model/gm_capture_read.c model/gm_view.c model/gm_mem.c model/gm_port.c model/gm_peek.c model/gm_status.c $(wildcard model/ref/*.c) $(HW_C) dma/dma_buf.c dma/dma_disasm.c \
	dma/dma_patch.c dma/dma_validate.c \
	mmu/mmu_pt.c mmu/mmu_walk.c mmu/mmu_va.c mmu/mmu_shadow.c mmu/mmu_update.c \
	$(FW_DXGK_C) $(FW_KMD_C) $(FW_VIDMM_C) $(FW_VIDSCH_C) $(FW_UMD_C)
LIB_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(LIB_C)) $(B)/obj/gen/gm_views.o $(B)/obj/gen/gm_asserts.o \
	$(B)/obj/model/gm_assert.o $(B)/obj/model/gm_be_vl.o $(B)/obj/model/gm_be_vl_nt.o \
	$(B)/obj/model/gm_be_sc.o $(TLM_OBJ)
VL_ARCH := $(VB)/vl_cc/Vgpu__ALL.a $(VB)/vl_nt/Vgpu_nt__ALL.a $(VB)/vl_sc/Vgpu_sc__ALL.a
VL_RT := $(addprefix $(VB)/vl_sc/,verilated.o verilated_fst_c.o verilated_threads.o)
ifneq ($(ONE_MODEL),)
LIB_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(LIB_C)) $(B)/obj/gen/gm_views.o $(B)/obj/gen/gm_asserts.o \
	$(B)/obj/model/gm_assert.o $(B)/obj/model/gm_be_vl.o $(B)/obj/model/gm_be_nosc.o
VL_ARCH := $(VB)/vl_cc/Vgpu__ALL.a
VL_RT := $(addprefix $(VB)/vl_cc/,verilated.o verilated_threads.o \
	$(if $(filter 1,$(TRACE)),verilated_fst_c.o) $(if $(filter 1,$(COV)),verilated_cov.o))
endif
# GM_VL_NT: the build has the model without trace support (gm.c picks it
# for a model not made for waves; test_wave checks it refuses one).
ifeq ($(ONE_MODEL),)
CFLAGS += -DGM_VL_NT
endif
LIB := $(B)/libgpusim.a

BIN := $(B)/bin/gpusim
# The test binaries come from the CTest list, tb/tests.cmake, the one list of
# tests: each tests/test_NAME an add_test line runs (a test run only from a
# foreach must also have its own add_test line there).
TESTS := $(sort $(patsubst tests/%,%,$(shell grep '^ *add_test' tb/tests.cmake | \
	grep -o 'tests/test_[a-z0-9_]\+')))
TEST_BIN := $(addprefix $(B)/tests/,$(TESTS))

.PRECIOUS: $(B)/obj/%.o
.PHONY: all deps deps-test deps-fuzz deps-slurm deps-cov run test tests san-build-lib san-build san-run regress regress-slurm test-slurm lint synth gen \
	check-gen waves bench fuzz clean rand-nightly coverage \
	captures fast bench-ipc bench-blocks
all: $(BIN)

deps:
	@sh tools/deps.sh build
deps-test:
	@sh tools/deps.sh test
deps-fuzz:
	@sh tools/deps.sh fuzz
deps-slurm:
	@sh tools/deps.sh slurm
deps-cov:
	@sh tools/deps.sh coverage

# ---------------------------------------------------------------- generated
gen:
	python3 regspec/regtool.py
check-gen:
	python3 regspec/regtool.py --check

# ---------------------------------------------------------------- Verilator
$(VB)/vl_cc/Vgpu.mk: $(RTL_DEP)
	@mkdir -p $(@D)
	$(call say,VERILATE,$(@D))$(VERILATOR) --cc --prefix Vgpu -Mdir $(@D) $(VFLAGS)
	@touch $@

# The plain model once more without trace support (vl_nt/, ~20 s): what the
# Verilator backend runs unless a model is made for waves (gm_config.waves),
# so trace support compiled in costs nothing while no wave is asked for.
$(VB)/vl_nt/Vgpu_nt.mk: $(RTL_DEP)
	@mkdir -p $(@D)
	$(call say,VERILATE,$(@D))$(VERILATOR) --cc --prefix Vgpu_nt -Mdir $(@D) $(filter-out --trace-fst,$(VFLAGS))
	@touch $@

$(VB)/vl_sc/Vgpu_sc.mk: $(RTL_DEP)
	@mkdir -p $(@D)
	$(call say,VERILATE,$(@D))$(VERILATOR) --sc --prefix Vgpu_sc -Mdir $(@D) $(VFLAGS)
	@touch $@

VL_MAKE = $(MAKE) --no-print-directory $(if $(Q),-s) OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2 \
	SYSTEMC_INCLUDE=$(SC_INC) SYSTEMC_LIBDIR=$(SC_LIB) CXX=$(CXX) \
	USER_CPPFLAGS="$(OPT_FLAGS) -DVL_USER_STOP"

# A primitive's test: its SV testbench and the primitive, built as one
# Verilator --binary (about 10 s each).
$(B)/tests/test_prim_fifo: tb/prim/test_prim_fifo.sv rtl/prim/prim_fifo_sync.sv rtl/prim/prim_assert.svh
$(B)/tests/test_prim_fifo_bytes: tb/prim/test_prim_fifo_bytes.sv rtl/prim/prim_fifo_bytes.sv rtl/prim/prim_assert.svh
$(B)/tests/test_prim_arb: tb/prim/test_prim_arb.sv rtl/prim/prim_arb_rr.sv rtl/prim/prim_assert.svh
$(B)/tests/test_prim_%:
	@mkdir -p $(@D) $(B)/vl_prim
	+$(call say,VERILATE,$(@F))$(VERILATOR) --binary --assert -Wall -Irtl --top-module $(@F) -Mdir $(B)/vl_prim/$(@F) \
		-o $(@F) $(filter %.sv,$^) > $(B)/vl_prim/$(@F).log
	$(Q)cp $(B)/vl_prim/$(@F)/$(@F) $@

$(VB)/vl_cc/Vgpu__ALL.a: $(VB)/vl_cc/Vgpu.mk
	+$(call say,CXX,$@)$(VL_MAKE) -C $(@D) -f Vgpu.mk Vgpu__ALL.a

$(VB)/vl_nt/Vgpu_nt__ALL.a: $(VB)/vl_nt/Vgpu_nt.mk
	+$(call say,CXX,$@)$(VL_MAKE) -C $(@D) -f Vgpu_nt.mk Vgpu_nt__ALL.a

$(VB)/vl_sc/Vgpu_sc__ALL.a: $(VB)/vl_sc/Vgpu_sc.mk
	+$(call say,CXX,$@)$(VL_MAKE) -C $(@D) -f Vgpu_sc.mk Vgpu_sc__ALL.a

# The Verilator runtime, built once with VM_SC=1 and shared by both models
# (the coverage build: from the plain model's makefile, with coverage).
ifeq ($(ONE_MODEL),)
$(VL_RT): $(VB)/vl_sc/Vgpu_sc.mk
	+$(call say,CXX,$@)$(VL_MAKE) -C $(VB)/vl_sc -f Vgpu_sc.mk $(notdir $@)
else
$(VL_RT): $(VB)/vl_cc/Vgpu.mk
	+$(call say,CXX,$@)$(VL_MAKE) -C $(VB)/vl_cc -f Vgpu.mk $(notdir $@)
endif

# ---------------------------------------------------------------- C / C++
# The driver and its clients in tools/scen/ and bench_pipe.c drop no status:
# GM_MUST_CHECK (gm_status.h) becomes warn_unused_result there, an error
# under -Werror.
$(B)/obj/fw/%.o $(B)/obj/tools/scen/%.o $(B)/obj/tools/bench_pipe.o $(B)/obj/tools/bench_umd.o: \
	CFLAGS += -DGM_CHECK_RESULTS

$(B)/obj/%.o: %.c $(wildcard hw/*.h model/*.h model/ref/*.h dma/*.h mmu/*.h) $(FW_H)
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

# The views gpusim writes next to a waveform embed traces/gtkw and the filters.
$(B)/gen/gm_views.c: tools/gtkw_embed.py $(wildcard traces/gtkw/*.gtkw) $(wildcard traces/filters/*.txt)
	@mkdir -p $(@D)
	$(call say,GEN,$@)python3 tools/gtkw_embed.py $@ $(wildcard traces/gtkw/*.gtkw) $(wildcard traces/filters/*.txt)

$(B)/obj/gen/gm_views.o: $(B)/gen/gm_views.c model/gm_view.h
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

# An RTL assertion failure is named by its label (model/gm_assert.cpp).
$(B)/gen/gm_asserts.c: tools/assert_table.py $(RTL_SRC)
	@mkdir -p $(@D)
	$(call say,GEN,$@)python3 tools/assert_table.py $@ $(RTL_SRC)

$(B)/obj/gen/gm_asserts.o: $(B)/gen/gm_asserts.c model/gm_assert.h
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

$(B)/obj/model/gm_assert.o: model/gm_assert.cpp model/gm_assert.h model/gm_backend.h model/gm_pins.h $(VB)/vl_cc/Vgpu.mk
	@mkdir -p $(@D)
	$(call say,CXX,$<)$(CXX) $(CXXFLAGS) -I$(VB)/vl_cc -c $< -o $@

$(B)/obj/model/gm_be_vl.o: model/gm_be_vl.cpp model/gm_backend.h model/gm_pins.h model/gm_pins.hpp model/gm_pins_vl.hpp $(VB)/vl_cc/Vgpu.mk
	@mkdir -p $(@D)
	$(call say,CXX,$<)$(CXX) $(CXXFLAGS) $(COV_CXXFLAGS) -DVM_SC=0 -I$(VB)/vl_cc -c $< -o $@

$(B)/obj/model/gm_be_vl_nt.o: model/gm_be_vl.cpp model/gm_backend.h model/gm_pins.h model/gm_pins.hpp model/gm_pins_vl.hpp $(VB)/vl_nt/Vgpu_nt.mk
	@mkdir -p $(@D)
	$(call say,CXX,$<)$(CXX) $(filter-out $(VM_TRACE_DEFS),$(CXXFLAGS)) -DVM_TRACE=0 -DVM_TRACE_FST=0 -DVM_SC=0 \
		-DGM_VL_NT -I$(VB)/vl_nt -c $< -o $@

$(TLM_OBJ): $(B)/obj/%.o: %.cpp $(TLM_H) model/gm.h model/gm_backend.h model/gm_priv.h model/gm_port.h \
		model/gm_pins.h
	@mkdir -p $(@D)
	$(call say,CXX,$<)$(CXX) $(CXXFLAGS) -I$(SC_INC) -Imodel/tlm -c $< -o $@

$(B)/obj/model/gm_be_sc.o: model/gm_be_sc.cpp model/gm_backend.h model/gm_pins.h model/gm_pins.hpp model/gm_pins_sc.hpp $(VB)/vl_sc/Vgpu_sc.mk
	@mkdir -p $(@D)
	$(call say,CXX,$<)$(CXX) $(CXXFLAGS) -DVM_SC=1 -I$(SC_INC) -I$(VB)/vl_sc -c $< -o $@

# Also after a Makefile change, so a file that leaves LIB_C leaves the archive.
$(LIB): $(LIB_OBJ) Makefile
	@rm -f $@
	$(call say,AR,$@)ar rcs $@ $(LIB_OBJ)

LINK = $(CXX) -o $@ $^ $(VL_ARCH) $(VL_RT) $(LDLIBS)

# The command line and its clients of the library: the demo and the
# `gpusim run` scenarios with the user-mode driver's workload (tools/scen/),
# the benchmarks (tools/).  Nothing gpusim ships is built from tb/.
TOOL_OBJ := $(B)/obj/tools/gpusim.o $(B)/obj/tools/bench_pipe.o $(B)/obj/tools/bench_umd.o \
	$(B)/obj/tools/bench_idle.o $(B)/obj/tools/bench_mmu.o $(B)/obj/tools/bench_cp.o \
	$(B)/obj/tools/replay.o $(B)/obj/tools/replay_disasm.o $(B)/obj/tools/cli.o \
	$(B)/obj/tools/bench_cmd.o \
	$(addprefix $(B)/obj/tools/scen/,scen_demo.o scen_pipe.o scen_common.o scen_gpuva.o \
		scen_deferred.o scen_lock.o umd_work.o umd_work_gpu.o)
$(TOOL_OBJ): tools/bench.h tools/replay.h tools/cli.h $(wildcard tools/scen/*.h)
$(B)/obj/tools/gpusim.o $(B)/obj/tools/bench_cmd.o: CFLAGS += -Itools/scen
$(B)/obj/tools/cli.o: CFLAGS += $(if $(FAST),-DGPUSIM_FAST_BUILD)
$(BIN): $(TOOL_OBJ) $(LIB) $(VL_ARCH) $(VL_RT)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CXX) -o $@ $(TOOL_OBJ) $(LIB) $(VL_ARCH) $(VL_RT) $(LDLIBS)

# The virtual platform example (tools/gpusim_vp.cpp): an sc_main with
# gpusim_tlm, gm_mem_tlm, gm_tlm_bus and a host running the demo.
VP_BIN := $(B)/bin/gpusim_vp
$(B)/obj/tools/gpusim_vp.o: tools/gpusim_vp.cpp $(TLM_H) tools/scen/scen_demo.h
	@mkdir -p $(@D)
	$(call say,CXX,$<)$(CXX) $(CXXFLAGS) -I$(SC_INC) -Imodel/tlm -Itools/scen -c $< -o $@
$(VP_BIN): $(B)/obj/tools/gpusim_vp.o $(TOOL_OBJ) $(LIB) $(VL_ARCH) $(VL_RT)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CXX) -o $@ $(B)/obj/tools/gpusim_vp.o $(filter $(B)/obj/tools/scen/%,$(TOOL_OBJ)) $(LIB) \
		$(VL_ARCH) $(VL_RT) $(LDLIBS)
ifeq ($(filter 1,$(COV) $(PROF))$(FAST),)
all: $(VP_BIN)
endif

# Tests find the shared helpers of tb/ (tb_seed.h: the seed of every random
# test) and the user-mode driver's workload of tools/scen/ (umd_work.h).
$(B)/obj/tb/%.o: CFLAGS += -Itb -Itools/scen
SEED_OBJ := $(B)/obj/tb/tb_seed.o

$(B)/tests/test_gm_mem: $(B)/obj/tb/unit/test_gm_mem.o $(B)/obj/model/gm_mem.o
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

$(B)/tests/test_gm_port: $(B)/obj/tb/unit/test_gm_port.o $(B)/obj/model/gm_port.o $(B)/obj/model/gm_mem.o \
		$(SEED_OBJ)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

$(B)/tests/test_capture: $(B)/obj/tb/unit/test_capture.o $(B)/obj/model/gm_capture.o \
		$(B)/obj/model/gm_capture_read.o $(B)/obj/model/gm_status.o $(SEED_OBJ)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

# -lz: zlib's crc32, the oracle of the checksums of the files the test builds
$(B)/tests/test_capture_bounds: $(B)/obj/tb/unit/test_capture_bounds.o \
		$(B)/obj/model/gm_capture.o $(B)/obj/model/gm_capture_read.o $(B)/obj/model/gm_status.o
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka -lz $(SANFLAGS)

HW_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(HW_C))
$(B)/tests/test_dma: $(B)/obj/tb/unit/test_dma.o $(B)/obj/dma/dma_buf.o $(B)/obj/dma/dma_disasm.o \
		$(HW_OBJ) $(B)/obj/model/gm_status.o
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

$(B)/tests/test_tile: $(B)/obj/tb/unit/test_tile.o $(B)/obj/hw/gpu_tile.o $(B)/obj/hw/gpu_names.o \
		$(B)/obj/model/gm_status.o $(SEED_OBJ)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

DMA_OBJ := $(addprefix $(B)/obj/,dma/dma_buf.o dma/dma_disasm.o dma/dma_patch.o dma/dma_validate.o \
	model/gm_status.o) $(HW_OBJ)
$(B)/tests/test_patch $(B)/tests/test_disasm: $(B)/tests/%: $(B)/obj/tb/unit/%.o $(DMA_OBJ) $(SEED_OBJ)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

# The allocation layer's unit tests, over one fixture (tb/unit/tb_fw.c).
FW_UNIT := test_fw_mem test_fw_res test_fw_handles test_fw_residency
FW_UNIT_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(FW_ALLOC_C)) $(addprefix $(B)/obj/,\
	hw/gpu_tile.o hw/gpu_names.o model/gm_status.o tb/unit/tb_fw.o)
$(addprefix $(B)/tests/,$(FW_UNIT)): $(B)/tests/%: $(B)/obj/tb/unit/%.o $(FW_UNIT_OBJ) $(SEED_OBJ)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

$(B)/tests/test_mmu: $(B)/obj/tb/unit/test_mmu.o $(B)/obj/mmu/mmu_pt.o $(B)/obj/mmu/mmu_walk.o \
		$(SEED_OBJ)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

$(B)/tests/test_mmu_va: $(B)/obj/tb/unit/test_mmu_va.o $(B)/obj/mmu/mmu_va.o $(SEED_OBJ)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

$(B)/tests/test_mmu_update: $(B)/obj/tb/unit/test_mmu_update.o $(B)/obj/mmu/mmu_update.o \
		$(B)/obj/mmu/mmu_shadow.o $(B)/obj/mmu/mmu_pt.o $(B)/obj/mmu/mmu_walk.o \
		$(B)/obj/mmu/mmu_va.o $(B)/obj/dma/dma_buf.o $(B)/obj/hw/gpu_tile.o \
		$(B)/obj/hw/gpu_names.o $(B)/obj/model/gm_status.o $(SEED_OBJ)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka $(SANFLAGS)

# The user-mode driver without the GPU (record only), and the same test
# built with clang's ThreadSanitizer: the threads record at once.
UMD_UNIT_C := tb/unit/test_umd.c tools/scen/umd_work.c tb/tb_seed.c fw/umd/umd_obj.c fw/umd/umd_rec.c \
	fw/umd/umd_rt.c $(FW_ALLOC_C) hw/gpu_tile.c hw/gpu_names.c model/gm_status.c
$(B)/tests/test_umd: $(patsubst %.c,$(B)/obj/%.o,$(UMD_UNIT_C))
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ -lcmocka -lpthread $(SANFLAGS)

TSAN_FLAGS := -std=c11 -O1 -g -fsanitize=thread $(INCS) -Itb -Itools/scen
$(B)/tests/test_umd_tsan: $(UMD_UNIT_C) $(FW_H) $(wildcard dma/*.h hw/*.h model/*.h tb/*.h tools/scen/*.h)
	@mkdir -p $(@D)
	$(call say,TSAN,$@)clang $(TSAN_FLAGS) $(UMD_UNIT_C) -o $@ -lcmocka -lpthread

$(B)/tests/test_san_fatal: $(B)/obj/tb/unit/test_san_fatal.o
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $@ $^ $(SANFLAGS)

# System tests (tb/sys/): the whole RTL model through the C API and the driver.
SYS_UTIL_OBJ := $(B)/obj/tb/sys/tb_util.o $(SEED_OBJ)
# The submission pipeline tests (test_kmd*) share their fixture, tb/sys/kt.c.
KT_OBJ := $(B)/obj/tb/sys/kt.o
KT_TESTS := test_kmd test_kmd_fence test_kmd_lock test_kmd_lock_paths test_kmd_lock_render \
	test_kmd_recovery test_kmd_evict test_kmd_conf test_gpuva_conf test_kmd_rand_seq
$(B)/tests/%: $(B)/obj/tb/sys/%.o $(SYS_UTIL_OBJ) $(LIB) $(VL_ARCH) $(VL_RT)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CXX) -o $@ $< $(filter $(B)/obj/tools/scen/umd_%.o $(KT_OBJ) $(COV_RAW_OBJ) $(MMU_VM_OBJ),$^) $(SYS_UTIL_OBJ) $(LIB) \
		$(VL_ARCH) $(VL_RT) -lcmocka $(LDLIBS)

$(addprefix $(B)/tests/,$(KT_TESTS)): $(KT_OBJ)
# The MMU tests share their page tables and oracle, tb/sys/mmu_vm.c.
MMU_VM_OBJ := $(B)/obj/tb/sys/mmu_vm.o
$(B)/tests/test_mmu_rtl $(B)/tests/test_mmu_pwc: $(MMU_VM_OBJ)
# The directed coverage tests (test_cov*) share their raw queues, tb/sys/cov_raw.c.
COV_RAW_OBJ := $(B)/obj/tb/sys/cov_raw.o
$(addprefix $(B)/tests/,test_cov test_cov_bp test_cov_toggle): $(COV_RAW_OBJ)

$(B)/tests/test_umd_rtl: $(B)/obj/tools/scen/umd_work.o $(B)/obj/tools/scen/umd_work_gpu.o

# Random programs on the RTL and on the reference backend, end states
# compared (tb/rand/).  `make rand-nightly` runs RAND_SEEDS of them.
$(B)/obj/tb/rand/%.o: CFLAGS += -Itb/rand
RAND_OBJ := $(addprefix $(B)/obj/tb/rand/,test_rand.o rand_prog.o rand_prog_run.o)
# gpusim_tlm in SystemC platforms (tb/tlm/): an sc_main, one case a run;
# its hosts run the demo and the scenarios of tools/scen/.
SCEN_OBJ := $(addprefix $(B)/obj/tools/scen/,scen_demo.o scen_pipe.o scen_common.o scen_gpuva.o \
	scen_deferred.o scen_lock.o umd_work.o umd_work_gpu.o)
$(B)/obj/tb/tlm/%.o: tb/tlm/%.cpp $(wildcard tb/tlm/*.h) $(TLM_H) $(wildcard tools/scen/*.h)
	@mkdir -p $(@D)
	$(call say,CXX,$<)$(CXX) $(CXXFLAGS) -I$(SC_INC) -Imodel/tlm -Itb/tlm -Itools/scen -c $< -o $@
$(B)/obj/tb/tlm/%.o: CFLAGS += -Itb/tlm
$(B)/tests/test_tlm: $(B)/obj/tb/tlm/test_tlm.o $(B)/obj/tb/tlm/tlm_runs.o $(SCEN_OBJ) $(LIB) $(VL_ARCH) \
		$(VL_RT)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CXX) -o $@ $(B)/obj/tb/tlm/test_tlm.o $(B)/obj/tb/tlm/tlm_runs.o $(SCEN_OBJ) $(LIB) $(VL_ARCH) \
		$(VL_RT) $(LDLIBS)

$(B)/tests/test_rand: $(RAND_OBJ) $(SEED_OBJ) $(LIB) $(VL_ARCH) $(VL_RT)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CXX) -o $@ $(RAND_OBJ) $(SEED_OBJ) $(LIB) $(VL_ARCH) $(VL_RT) $(LDLIBS)

# ---------------------------------------------------------------- entry points
run: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN)
	$(BIN) demo

# RTL coverage: a Verilator --coverage-line --coverage-toggle --coverage-user model (no
# SystemC) in build-cov/, the demo, every scenario, the system tests and
# COV_SEEDS random programs run on it, the counts merged into
# build-cov/coverage.dat, annotated sources in build-cov/annotated/, and
# line and toggle coverage per module with the uncovered lines; HTML in
# build-cov/html/: rtl/ (line and toggle, verilator_coverage --write-info)
# and c/ (gcov line coverage of model/, dma/, mmu/, fw/, hw/), by lcov's genhtml.
# test_kmd_recovery is left out: on the coverage model it ran 28 minutes on the
# shared cores without finishing (53 s on the plain model).
COV_TESTS := test_cp test_apt test_apt_wc test_ce test_mmu_rtl test_cov test_cov_bp test_cov_toggle test_gpuva \
	test_umd_rtl test_kmd test_kmd_fence test_kmd_lock test_kmd_lock_paths test_kmd_lock_render \
	test_kmd_evict test_wave test_rand
COV_SEEDS ?= 300
COV_RUN = GPUSIM_COV_DIR=build-cov/cov
# fold the models' files into build-cov/coverage.dat as they come (each is ~3 MB)
COV_MERGE = verilator_coverage --write build-cov/coverage.dat $$(ls build-cov/coverage.dat 2>/dev/null) \
	build-cov/cov/cov-* && rm -f build-cov/cov/cov-*
coverage: deps-test deps-cov
	@$(MAKE) --no-print-directory -j$(JOBS) COV=1 build-cov/bin/gpusim $(addprefix build-cov/tests/,$(COV_TESTS))
	@rm -rf build-cov/cov build-cov/annotated build-cov/coverage.dat build-cov/html && mkdir -p build-cov/cov
	@find build-cov/obj -name '*.gcda' -delete
	$(COV_RUN) build-cov/bin/gpusim demo --quiet && $(COV_MERGE)
	for s in copies evict shared hang vaupdate tiled deferred lock; do \
		$(COV_RUN) build-cov/bin/gpusim run $$s --quiet && $(COV_MERGE) || exit 1; done
	for t in $(filter-out test_rand,$(COV_TESTS)); do \
		$(COV_RUN) build-cov/tests/$$t > build-cov/$$t.log && $(COV_MERGE) || exit 1; done
	for k in $$(seq 0 50 $$(($(COV_SEEDS) - 1))); do \
		$(COV_RUN) GPUSIM_SEED=$$((1 + k)) build-cov/tests/test_rand --count 50 --quiet && $(COV_MERGE) || exit 1; done
	verilator_coverage --annotate build-cov/annotated build-cov/coverage.dat
	python3 tools/cov_report.py build-cov/coverage.dat --uncovered
	verilator_coverage --write-info build-cov/rtl.info build-cov/coverage.dat
	lcov -q --capture --directory build-cov/obj --base-directory . -o build-cov/c-all.info
	lcov -q --extract build-cov/c-all.info '$(CURDIR)/model/*' '$(CURDIR)/dma/*' \
		'$(CURDIR)/mmu/*' '$(CURDIR)/fw/*' '$(CURDIR)/hw/*' -o build-cov/c.info
	genhtml -q --title "gpusim RTL (line, toggle)" -o build-cov/html/rtl build-cov/rtl.info
	genhtml -q --title "gpusim C (gcov)" -o build-cov/html/c build-cov/c.info
	@echo "coverage: HTML in build-cov/html/rtl/index.html and build-cov/html/c/index.html"

RAND_SEEDS ?= 10000
rand-nightly: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(B)/tests/test_rand
	$(B)/tests/test_rand --count $(RAND_SEEDS) --quiet

waves: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN)
	$(BIN) demo --wave $(B)/demo.fst
	@echo "open with: gtkwave $(B)/demo.fst traces/gtkw/cp.gtkw"

YOSYS_READ = read_verilog -sv -DSYNTHESIS -Irtl $(RTL_SRC)
LATCH_CHECK = select -assert-none t:\$$dlatch t:\$$_DLATCH_*

# Lint: Verilator -Wall, and Yosys's elaboration (every construct read,
# the hierarchy checked, processes turned to logic by proc, which is where
# a latch is inferred: the rest of the coarse synthesis only optimises, and
# took 48 s of the 63 this did before).  make synth runs the whole flow.
lint: deps-test
	@mkdir -p $(B)
	$(VERILATOR) --lint-only $(filter-out --trace-fst --output-split 20000,$(VFLAGS))
	yosys -q -l $(B)/lint-yosys.log -p "$(YOSYS_READ); hierarchy -check -top gpu_top; proc; $(LATCH_CHECK)"
	@echo "lint: verilator -Wall clean, yosys elaborates gpu_top with no latches"

# Full Yosys synthesis to gates (about 4 minutes, 2 GB): no latches, and the size.
synth: deps-test
	@mkdir -p $(B)
	yosys -q -l $(B)/synth.log -p "$(YOSYS_READ); synth -top gpu_top; $(LATCH_CHECK); \
		tee -o $(B)/synth.stat stat"
	@grep "Number of cells" $(B)/synth.stat | tail -1 | sed 's/^ */yosys: gpu_top /'

# The regression runner (tb/regress/regress.py) runs tb/tests.cmake through
# ctest: make test with the fixed seeds of tb/regress/ci.list and one
# rotating seed it prints, into $(B)/junit.xml; each failure's command with
# its seed, its waves, and the line "N passed, N failed".
# make tests: every test program (tb/tests.cmake's), without running them.
tests: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(TEST_BIN) $(VP_BIN)

TEST_LIST ?= tb/regress/ci.list
test: deps-test
	@mkdir -p $(B)
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(TEST_BIN) $(VP_BIN)
	@python3 tb/regress/regress.py --build $(B) --list $(TEST_LIST) -j $(JOBS) \
		--junit $(B)/junit.xml $(REGRESS_ARGS)

# The sanitizer run in pieces, as make test runs it (SAN=1): the build (the
# library and gpusim, then the tests: two CTests, none a long pole), then
# a shard of tb/regress/san.list at a time, each a CTest of its own so none
# is a long pole and the shards run beside the rest.
san-build-lib: deps-test
	@mkdir -p $(B)
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(VP_BIN)
san-build: deps-test
	@mkdir -p $(B)
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(TEST_BIN) $(VP_BIN)
san-run: deps-test
	python3 tb/regress/regress.py --build $(B) --list $(TEST_LIST) --shard $(SHARD) -j 1 \
		$(REGRESS_ARGS)

# make regress [REGRESS_LIST=FILE] [SHARD=K/N]: one shard of a larger list.
REGRESS_LIST ?= tb/regress/nightly.list
SHARD ?= 1/1
regress: deps-test
	@mkdir -p $(B)
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(TEST_BIN)
	python3 tb/regress/regress.py --build $(B) --list $(REGRESS_LIST) --shard $(SHARD) -j $(JOBS) \
		$(REGRESS_ARGS)

# make regress-slurm [SHARDS=N] [SHARD_JOBS=J]: the list's N shards as one
# Slurm job array (sbatch --array, a shard a task of J CPUs), their JUnit
# files merged into one report.  Needs a cluster (sbatch on PATH).
SHARDS ?= 2
SHARD_JOBS ?= 1
regress-slurm: deps-test
	@mkdir -p $(B)
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(TEST_BIN)
	python3 tb/regress/regress.py slurm --build $(B) --list $(REGRESS_LIST) --shards $(SHARDS) \
		-j $(SHARD_JOBS) $(REGRESS_ARGS)

# The Slurm path for real: a one-node cluster (munge, slurmctld, slurmd)
# started on localhost in a temporary folder, tb/regress/smoke.list through
# it in two shards, the merged report checked, the cluster stopped.
test-slurm: deps-test deps-slurm
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(TEST_BIN)
	sh tb/regress/slurm/test_slurm.sh

# gpusim bench, then bench-ipc's table, written as markdown tables to
# tb/bench/FIGURES.md (committed: the README's figures; NOTES.md beside it
# holds their history), so a change's effect shows in git diff.  The runs'
# raw output stays in build/bench/ (tools/bench_figures.sh --render).
BENCH_FIGURES := tb/bench/FIGURES.md
bench: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN)
	tools/bench_figures.sh $(BIN) $(BENCH_FIGURES)

# Host instructions per simulated cycle (callgrind, steady under load) and
# cycles/s of idle, the demo, copy streaming and a scenario on each backend.
bench-ipc: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN)
	tools/bench_ipc.sh $(BIN)

# The same, split by RTL block (tools/ipc_blocks.py), from build-prof/ (PROF
# above): which block a cycle's instructions go to, idle, demo and copies.
bench-blocks: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) PROF=1 build-prof/bin/gpusim
	tools/bench_blocks.sh build-prof/bin/gpusim

# The speed build, build-fast/bin/gpusim (FAST above): built instrumented,
# trained on the benchmark workloads on both backends, built again with
# the profile.  The Verilator model is verilated once; every object is
# rebuilt in each phase.  Waves need build/bin/gpusim.
FAST_BIN := build-fast/bin/gpusim
PGO_TRAIN := "demo --rounds 200" "demo --rounds 200 --backend ref" "run copies" \
	"run copies --backend ref" "run evict --backend ref" "run lock"
FAST_CLEAN = find build-fast \( -name '*.o' -o -name '*.a' $(1) \) -delete; rm -f $(FAST_BIN)
fast: deps
	@mkdir -p build-fast && $(call FAST_CLEAN,-o -name '*.gcda')
	@$(MAKE) --no-print-directory -j$(JOBS) FAST=gen $(FAST_BIN)
	for w in $(PGO_TRAIN); do $(FAST_BIN) $$w --quiet > /dev/null || exit 1; done
	@$(call FAST_CLEAN,)
	@$(MAKE) --no-print-directory -j$(JOBS) FAST=use $(FAST_BIN)

# The capture corpus (traces/FORMAT.md): the demo and every scenario,
# captured again into traces/capture/ (commit it when the firmware's
# behaviour changes on purpose; make test fails until then).
captures: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN)
	sh tools/captures.sh $(BIN) traces/capture

# libFuzzer + ASan/UBSan on the validator, the patcher and the disassembler
# (tb/fuzz/fuzz_dma.c); the corpus grows in build/fuzz/corpus.
FUZZ_SECONDS ?= 120
FUZZ_C := tb/fuzz/fuzz_dma.c dma/dma_validate.c dma/dma_patch.c dma/dma_disasm.c \
	dma/dma_buf.c $(HW_C) model/gm_status.c
$(B)/fuzz/fuzz_dma: $(FUZZ_C) $(wildcard dma/*.h hw/*.h model/*.h)
	@mkdir -p $(@D)/corpus
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		$(INCS) $(FUZZ_C) -o $@

# The capture parser and `replay --disasm` (tb/fuzz/fuzz_capture.c), seeded
# with the corpus of traces/capture; its findings grow build/fuzz/corpus-capture.
FUZZ_CAP_C := tb/fuzz/fuzz_capture.c model/gm_capture_read.c tools/replay_disasm.c model/gm_mem.c \
	model/gm_backends.c dma/dma_disasm.c dma/dma_buf.c $(HW_C) mmu/mmu_walk.c mmu/mmu_pt.c model/gm_status.c
$(B)/fuzz/fuzz_capture: $(FUZZ_CAP_C) $(wildcard dma/*.h hw/*.h model/*.h mmu/*.h) tools/replay.h
	@mkdir -p $(@D)/corpus-capture
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		$(INCS) -Itools $(FUZZ_CAP_C) -o $@

fuzz: deps-fuzz
	@$(MAKE) --no-print-directory $(B)/fuzz/fuzz_dma $(B)/fuzz/fuzz_capture
	cd $(B)/fuzz && ./fuzz_dma -max_total_time=$(FUZZ_SECONDS) -timeout=5 \
		-print_final_stats=1 corpus
	@for f in traces/capture/*.gcap; do [ $$(wc -c < $$f) -le 100000 ] && \
		{ printf '\001'; cat $$f; } > $(B)/fuzz/corpus-capture/seed-$$(basename $$f); done; true
	cd $(B)/fuzz && ./fuzz_capture -max_total_time=$(FUZZ_SECONDS) -timeout=5 -max_len=131072 \
		-print_final_stats=1 corpus-capture

clean:
	rm -rf build build-san build-cov build-fast build-prof
