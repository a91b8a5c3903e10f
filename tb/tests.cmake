# gpusim regression: the CTest list.  `make test` copies this file to
# build/CTestTestfile.cmake and runs `ctest -j2 --output-junit junit.xml`.
# It is the one list of tests: the Makefile builds every tests/test_NAME an
# add_test line here runs (TESTS), so a new test binary is added here only.
# Paths are relative to build/; tests that need the sources run in the
# repository root.  Labels: unit, rtl, fw, waves, systemc, lint.

add_test(check_gen python3 regspec/regtool.py --check)
set_tests_properties(check_gen PROPERTIES WORKING_DIRECTORY .. LABELS lint TIMEOUT 60)

add_test(lint make --no-print-directory lint)
set_tests_properties(lint PROPERTIES WORKING_DIRECTORY .. LABELS lint TIMEOUT 300)

# Full synthesis alone takes about 8 minutes on this 2-core machine
# (465-509 s), 667 s beside other work: the timeout keeps it under half.
# make regress runs it (tb/regress/nightly.list); make test's list skips it.
add_test(synth make --no-print-directory synth)
set_tests_properties(synth PROPERTIES WORKING_DIRECTORY .. LABELS lint TIMEOUT 1500)

add_test(unit_gm_mem tests/test_gm_mem)
set_tests_properties(unit_gm_mem PROPERTIES LABELS unit TIMEOUT 60)
add_test(unit_gm_port tests/test_gm_port)
set_tests_properties(unit_gm_port PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_dma tests/test_dma)
set_tests_properties(unit_dma PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_mmu tests/test_mmu)
set_tests_properties(unit_mmu PROPERTIES LABELS unit TIMEOUT 120)

add_test(unit_mmu_va tests/test_mmu_va)
set_tests_properties(unit_mmu_va PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_mmu_update tests/test_mmu_update)
set_tests_properties(unit_mmu_update PROPERTIES LABELS unit TIMEOUT 120)

add_test(unit_tile tests/test_tile)
set_tests_properties(unit_tile PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_patch tests/test_patch)
set_tests_properties(unit_patch PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_disasm tests/test_disasm)
set_tests_properties(unit_disasm PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_fw_mem tests/test_fw_mem)
set_tests_properties(unit_fw_mem PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_fw_res tests/test_fw_res)
set_tests_properties(unit_fw_res PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_fw_handles tests/test_fw_handles)
set_tests_properties(unit_fw_handles PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_fw_residency tests/test_fw_residency)
set_tests_properties(unit_fw_residency PROPERTIES LABELS unit TIMEOUT 60)

# The user-mode driver's contexts (D3D11 deferred-context handles) without the GPU, then the same
# test built with clang's ThreadSanitizer (a report fails it) and under
# valgrind (out of memory at every allocation point leaks nothing).
add_test(unit_umd tests/test_umd)
set_tests_properties(unit_umd PROPERTIES LABELS unit TIMEOUT 60)

add_test(unit_umd_tsan tests/test_umd_tsan)
set_tests_properties(unit_umd_tsan PROPERTIES LABELS "unit;tsan" TIMEOUT 120
  ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1:exitcode=66")

add_test(memcheck_umd valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite tests/test_umd)
set_tests_properties(memcheck_umd PROPERTIES LABELS "unit;memcheck" TIMEOUT 300)

add_test(rtl_apt tests/test_apt)
set_tests_properties(rtl_apt PROPERTIES LABELS rtl TIMEOUT 300)

add_test(rtl_apt_wc tests/test_apt_wc)
set_tests_properties(rtl_apt_wc PROPERTIES LABELS rtl TIMEOUT 300)

add_test(rtl_ce tests/test_ce)
set_tests_properties(rtl_ce PROPERTIES LABELS rtl TIMEOUT 600)

add_test(rtl_mmu tests/test_mmu_rtl)
set_tests_properties(rtl_mmu PROPERTIES LABELS rtl TIMEOUT 600)

add_test(rtl_mmu_pwc tests/test_mmu_pwc)
set_tests_properties(rtl_mmu_pwc PROPERTIES LABELS rtl TIMEOUT 300)

# The RTL primitives (rtl/prim/), each against a model in its own SV
# testbench: the FIFO, the byte FIFO, the round-robin arbiter, and an
# assertion of the macros (prim_assert.svh) stopping a push into a full
# FIFO by its label (and one past the byte FIFO's room).
add_test(rtl_prim_fifo tests/test_prim_fifo)
set_tests_properties(rtl_prim_fifo PROPERTIES LABELS rtl TIMEOUT 60)

add_test(rtl_prim_fifo_bytes tests/test_prim_fifo_bytes)
set_tests_properties(rtl_prim_fifo_bytes PROPERTIES LABELS rtl TIMEOUT 60)

add_test(rtl_prim_fifo_bytes_assert sh -c "tests/test_prim_fifo_bytes +overflow 2>&1 | grep 'prim_fifo_bytes.sv:[0-9]*: Assertion failed in .*FifoBytesBounds_A'")
set_tests_properties(rtl_prim_fifo_bytes_assert PROPERTIES LABELS rtl TIMEOUT 60)

add_test(rtl_prim_arb tests/test_prim_arb)
set_tests_properties(rtl_prim_arb PROPERTIES LABELS rtl TIMEOUT 60)

add_test(rtl_prim_assert sh -c "tests/test_prim_fifo +overflow 2>&1 | grep 'prim_fifo_sync.sv:[0-9]*: Assertion failed in .*FifoBounds_A'")
set_tests_properties(rtl_prim_assert PROPERTIES LABELS rtl TIMEOUT 60)

# What the regression does not reach (the RTL cover points): same-cycle
# invalidations, interrupts and errors.
add_test(rtl_cov tests/test_cov)
set_tests_properties(rtl_cov PROPERTIES LABELS rtl TIMEOUT 600)
# ... back-pressure on the MMU's and the aperture's buffers.
add_test(rtl_cov_bp tests/test_cov_bp)
set_tests_properties(rtl_cov_bp PROPERTIES LABELS rtl TIMEOUT 600)
# ... and the bits nothing else sets (toggle coverage): every read/write
# register bit, the engine counters, surfaces at the top of the VA space,
# the largest pitch, X and Y, commands nearly 2^32 bytes wide.
add_test(rtl_cov_toggle tests/test_cov_toggle)
set_tests_properties(rtl_cov_toggle PROPERTIES LABELS rtl TIMEOUT 600)

add_test(rtl_cp tests/test_cp)
set_tests_properties(rtl_cp PROPERTIES LABELS rtl TIMEOUT 300)

# The prefetch drops what may be stale: a doorbell mid-packet, an IB jump,
# a reset with reads in flight, a halt with the ring rewritten.
add_test(rtl_cp_fetch tests/test_cp_fetch)
set_tests_properties(rtl_cp_fetch PROPERTIES LABELS rtl TIMEOUT 120)

add_test(rtl_kmd tests/test_kmd)
set_tests_properties(rtl_kmd PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

add_test(rtl_kmd_fence tests/test_kmd_fence)
set_tests_properties(rtl_kmd_fence PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

add_test(rtl_kmd_lock tests/test_kmd_lock)
set_tests_properties(rtl_kmd_lock PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

add_test(rtl_kmd_lock_paths tests/test_kmd_lock_paths)
set_tests_properties(rtl_kmd_lock_paths PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

add_test(rtl_kmd_lock_render tests/test_kmd_lock_render)
set_tests_properties(rtl_kmd_lock_render PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

add_test(rtl_kmd_recovery tests/test_kmd_recovery)
set_tests_properties(rtl_kmd_recovery PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

add_test(rtl_kmd_evict tests/test_kmd_evict)
set_tests_properties(rtl_kmd_evict PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

add_test(rtl_kmd_conf tests/test_kmd_conf)
set_tests_properties(rtl_kmd_conf PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

add_test(rtl_gpuva_conf tests/test_gpuva_conf)
set_tests_properties(rtl_gpuva_conf PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

# Random sequences of Lock, UpdateGpuVirtualAddress, Render, eviction, TDR
# and destroy on three processes against a C model (2 seeds here; nightly:
# tb/regress/nightly.list).
add_test(rtl_kmd_rand_seq tests/test_kmd_rand_seq --count 2)
set_tests_properties(rtl_kmd_rand_seq PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

add_test(rtl_waves tests/test_wave)
set_tests_properties(rtl_waves PROPERTIES LABELS waves TIMEOUT 120)

# gm_reg_peek: registers read for a report without moving the clock.
add_test(rtl_peek tests/test_peek)
set_tests_properties(rtl_peek PROPERTIES LABELS rtl TIMEOUT 60)
add_test(ref_peek tests/test_peek)
set_tests_properties(ref_peek PROPERTIES LABELS "rtl;ref" TIMEOUT 60 ENVIRONMENT "GPUSIM_BACKEND=ref")
add_test(systemc_smoke tests/test_sc_smoke)
set_tests_properties(systemc_smoke PROPERTIES LABELS systemc TIMEOUT 300)

# gpusim_tlm, the TLM-2.0 module (model/tlm/), in SystemC platforms: one
# case a process (the kernel elaborates once).
add_test(tlm_bar tests/test_tlm bar)
add_test(tlm_parity_demo tests/test_tlm parity demo)
add_test(tlm_parity_copies tests/test_tlm parity copies)
add_test(tlm_lt_mem tests/test_tlm lt_mem)
add_test(tlm_two tests/test_tlm two)
add_test(tlm_cli_parity sh ../tb/tlm/cli_parity.sh bin/gpusim tlm)
add_test(systemc_run_all sh ../tb/tlm/cli_parity.sh bin/gpusim systemc)
add_test(tlm_waves sh ../tb/tlm/waves.sh bin/gpusim)
add_test(tlm_vp bin/gpusim_vp --quantum 10000)
set_tests_properties(tlm_bar tlm_parity_demo tlm_parity_copies tlm_lt_mem tlm_two tlm_waves tlm_vp
	PROPERTIES LABELS "systemc;tlm" TIMEOUT 120)
set_tests_properties(tlm_cli_parity PROPERTIES LABELS "systemc;tlm" TIMEOUT 300)
set_tests_properties(systemc_run_all PROPERTIES LABELS systemc TIMEOUT 300)

add_test(demo_verilator bin/gpusim demo --quiet)
set_tests_properties(demo_verilator PROPERTIES LABELS fw TIMEOUT 120)

add_test(demo_systemc bin/gpusim demo --quiet --backend systemc)
set_tests_properties(demo_systemc PROPERTIES LABELS "fw;systemc" TIMEOUT 300)

add_test(demo_windowed_fst bin/gpusim demo --quiet --wave demo-window.fst --wave-from 500 --wave-to 900)
set_tests_properties(demo_windowed_fst PROPERTIES LABELS "fw;waves" TIMEOUT 120)

# The submission pipeline end to end (gpusim run NAME): each scenario checks its results.
foreach(scen copies evict shared hang vaupdate tiled deferred lock)
  add_test(run_${scen} bin/gpusim run ${scen} --quiet)
  set_tests_properties(run_${scen} PROPERTIES LABELS fw TIMEOUT 300)
endforeach()

add_test(cli_bad_args sh ../tb/cli_args.sh bin/gpusim)
set_tests_properties(cli_bad_args PROPERTIES LABELS fw TIMEOUT 120)

# The capture corpus (traces/capture/, traces/FORMAT.md): each RTL capture
# replayed on both RTL backends and each reference-model capture on ref,
# every recorded result checked; and the current firmware still sends
# exactly what the corpus holds (else: make captures, and commit).
foreach(cap demo copies evict shared hang vaupdate tiled deferred lock)
  foreach(be verilator systemc)
    add_test(replay_${cap}_${be} bin/gpusim replay ../traces/capture/${cap}.gcap --quiet --backend ${be})
    set_tests_properties(replay_${cap}_${be} PROPERTIES LABELS "fw;capture" TIMEOUT 300)
  endforeach()
endforeach()
foreach(cap demo copies evict shared hang vaupdate tiled deferred lock)
  add_test(replay_${cap}_ref bin/gpusim replay ../traces/capture/ref/${cap}.gcap --quiet --backend ref)
  set_tests_properties(replay_${cap}_ref PROPERTIES LABELS "fw;capture;ref" TIMEOUT 120)
endforeach()
# RTL captures whose every result the reference model reproduces exactly
# (the others diverge at a timing-dependent value: the demo's first
# TIMESTAMP, evict's and lock's fence polls, vaupdate's MMU_HITS, tiled's
# INT_STATUS poll).
foreach(cap copies shared hang deferred)
  add_test(replay_${cap}_rtl_on_ref bin/gpusim replay ../traces/capture/${cap}.gcap --quiet --backend ref)
  set_tests_properties(replay_${cap}_rtl_on_ref PROPERTIES LABELS "fw;capture;ref" TIMEOUT 120)
endforeach()
add_test(capture_corpus_current sh ../tools/captures.sh --check bin/gpusim ../traces/capture)
set_tests_properties(capture_corpus_current PROPERTIES LABELS "fw;capture" TIMEOUT 600)
# its negative twin: a corpus file that differs is named, exit 1
add_test(capture_corpus_stale sh -c "rm -rf stale-corpus && cp -r ../traces/capture stale-corpus && printf x | dd of=stale-corpus/hang.gcap bs=1 seek=100 conv=notrunc 2>/dev/null && { sh ../tools/captures.sh --check bin/gpusim stale-corpus 2>&1 | grep -q 'stale-corpus/hang.gcap: the current firmware sends something else'; }")
set_tests_properties(capture_corpus_stale PROPERTIES LABELS "fw;capture" TIMEOUT 600)

add_test(memcheck_replay valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite bin/gpusim replay ../traces/capture/ref/hang.gcap --quiet)
set_tests_properties(memcheck_replay PROPERTIES LABELS "fw;capture;memcheck" TIMEOUT 300)
add_test(memcheck_replay_disasm valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite bin/gpusim replay --disasm ../traces/capture/demo.gcap)
set_tests_properties(memcheck_replay_disasm PROPERTIES LABELS "fw;capture;memcheck" TIMEOUT 300)

add_test(unit_capture tests/test_capture)
set_tests_properties(unit_capture PROPERTIES LABELS "unit;capture" TIMEOUT 60)
add_test(unit_capture_bounds tests/test_capture_bounds)
set_tests_properties(unit_capture_bounds PROPERTIES LABELS "unit;capture" TIMEOUT 60)

add_test(memcheck_demo valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite bin/gpusim demo --quiet)
set_tests_properties(memcheck_demo PROPERTIES LABELS "fw;memcheck" TIMEOUT 600)

add_test(memcheck_run_shared valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite bin/gpusim run shared --quiet)
set_tests_properties(memcheck_run_shared PROPERTIES LABELS "fw;memcheck" TIMEOUT 600)

# A sanitizer report stops its test: each error the run must catch, in a
# child that may not run on (skipped, exit 77, in a build without sanitizers).
add_test(san_fatal tests/test_san_fatal)
set_tests_properties(san_fatal PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 60)

# Everything above (but lint and valgrind) again, built with ASan + UBSan
# (tb/regress/san.list): the build of every program of ours into build-san/
# (linking build/'s Verilated models: the library and gpusim, then the
# tests), then the list in three shards, each its own test so they run
# beside the rest.  COST starts the builds first (beside each other: run
# one at a time, RESOURCE_LOCK, they made the clean-clone run 859 s, not
# 577-643 s).
add_test(san_build_lib make --no-print-directory san-build-lib SAN=1)
set_tests_properties(san_build_lib PROPERTIES WORKING_DIRECTORY .. LABELS sanitizers TIMEOUT 900
  FIXTURES_SETUP san_lib COST 1000)
add_test(san_build make --no-print-directory san-build SAN=1)
set_tests_properties(san_build PROPERTIES WORKING_DIRECTORY .. LABELS sanitizers TIMEOUT 900
  FIXTURES_REQUIRED san_lib FIXTURES_SETUP san COST 1000)
foreach(k 1 2 3)
  add_test(sanitizers_${k} make --no-print-directory san-run SAN=1 SHARD=${k}/3)
  set_tests_properties(sanitizers_${k} PROPERTIES WORKING_DIRECTORY .. LABELS sanitizers
    TIMEOUT 600 FIXTURES_REQUIRED san COST 500)
endforeach()

# Results that do not depend on power-up values: the model verilated with
# --x-assign unique --x-initial unique (make XU=1, build-xu/), its demo,
# every scenario and random programs under two seeds of Verilator's all-ones
# and random resets, against the default build's transcripts
# (tools/reset_check.sh).  make regress runs eight seeds.
add_test(reset_build sh -c "make --no-print-directory -j2 XU=1 build-xu/bin/gpusim build-xu/tests/test_rand > build/reset-xu.log 2>&1 || { tail -30 build/reset-xu.log; exit 1; }")
set_tests_properties(reset_build PROPERTIES WORKING_DIRECTORY .. LABELS rtl TIMEOUT 900
  FIXTURES_SETUP xu COST 900)
add_test(reset_values bash tools/reset_check.sh build/bin/gpusim build-xu "1 2")
set_tests_properties(reset_values PROPERTIES WORKING_DIRECTORY .. LABELS rtl TIMEOUT 600
  FIXTURES_REQUIRED xu COST 800)
add_test(reset_values_nightly bash tools/reset_check.sh build/bin/gpusim build-xu "1 2 3 4 5 6 7 8")
set_tests_properties(reset_values_nightly PROPERTIES WORKING_DIRECTORY .. LABELS rtl TIMEOUT 1500
  FIXTURES_REQUIRED xu)

# Every signal the GTKWave views show exists in a dump (and the check fails on one that does not).
add_test(views_signals sh -c "bin/gpusim demo --quiet --wave views.fst && python3 ../tb/check_views.py views.fst ../traces/gtkw/*.gtkw && printf 'TOP.gpu_top.no_such_q\\n' > views-bad.gtkw && { python3 ../tb/check_views.py views.fst views-bad.gtkw; test $? -eq 1; }")
set_tests_properties(views_signals PROPERTIES LABELS waves TIMEOUT 120)

add_test(views_run sh ../tb/check_run_view.sh bin/gpusim ../tb)
set_tests_properties(views_run PROPERTIES LABELS waves TIMEOUT 120)

# MMU fault markers on the cycle MMU_FAULT_COUNT counted each fault (the MMU test's first
# model, its seven faults, dumped through GPUSIM_WAVE_DIR), and the check fails the events
# moved off those cycles.
add_test(views_fault sh -c "rm -rf fault-waves && mkdir fault-waves && GPUSIM_WAVE_MODEL=0 GPUSIM_WAVE_DIR=fault-waves tests/test_mmu_rtl > fault-waves/out 2>&1 && python3 ../tb/check_views.py fault-waves/test_mmu_rtl-0.fst fault-waves/test_mmu_rtl-0.gtkw --mark 'fault ' 'TOP.gpu_top.u_regs.fault_count_q[31:0]' && sed 's/^\\[\\*\\] event \\([0-9]*\\)500 fault /[*] event \\1900 fault /' fault-waves/test_mmu_rtl-0.gtkw > fault-waves/late.gtkw && grep -q '900 fault' fault-waves/late.gtkw && ! python3 ../tb/check_views.py fault-waves/test_mmu_rtl-0.fst fault-waves/late.gtkw --mark 'fault ' 'TOP.gpu_top.u_regs.fault_count_q[31:0]' > fault-waves/late.out")
set_tests_properties(views_fault PROPERTIES LABELS waves TIMEOUT 120)

# --wave FILE for a file that does not exist yet, and in a folder that does not exist.
add_test(waves_path sh ../tb/check_wave_path.sh bin/gpusim)
set_tests_properties(waves_path PROPERTIES LABELS waves TIMEOUT 120)

add_test(rtl_gpuva tests/test_gpuva)
set_tests_properties(rtl_gpuva PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

# Two GPU-VA processes: one's UpdateGpuVirtualAddress batch waits for its own
# held render fence, the other's (FenceValue reached) runs; prints the cycles
# it took against alone (regspec/DESIGN.md, Hardware queues and the scheduler).
add_test(rtl_hwq_twoproc tests/test_hwq_twoproc)
set_tests_properties(rtl_hwq_twoproc PROPERTIES LABELS "rtl;fw" TIMEOUT 300)
# The hardware-queue front end: the doorbell table (DB_WPTR, DB_UNMAPPED).
add_test(rtl_hwq tests/test_hwq)
set_tests_properties(rtl_hwq PROPERTIES LABELS rtl TIMEOUT 60)

# Deferred contexts recorded on threads, executed through the pipeline on the RTL
# (D3D11 deferred contexts, context-local DDI handles).
add_test(rtl_umd tests/test_umd_rtl)
set_tests_properties(rtl_umd PROPERTIES LABELS "rtl;fw" TIMEOUT 300)

# The C reference backend (model/ref/, --backend ref): the demo, every
# scenario and the system tests run on it unchanged and check the same
# results; it has no waveforms (--wave with ref is a usage error, exit 2).
add_test(demo_ref bin/gpusim demo --quiet --backend ref)
set_tests_properties(demo_ref PROPERTIES LABELS "fw;ref" TIMEOUT 60)
add_test(demo_ref_no_wave sh -c "bin/gpusim demo --quiet --backend ref --wave ref.fst; test $? -eq 2 && test ! -e ref.fst")
set_tests_properties(demo_ref_no_wave PROPERTIES LABELS "fw;ref" TIMEOUT 60)
foreach(scen copies evict shared hang vaupdate tiled deferred lock)
  add_test(run_ref_${scen} bin/gpusim run ${scen} --quiet --backend ref)
  set_tests_properties(run_ref_${scen} PROPERTIES LABELS "fw;ref" TIMEOUT 120)
endforeach()
add_test(memcheck_demo_ref valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite bin/gpusim demo --quiet --backend ref)
set_tests_properties(memcheck_demo_ref PROPERTIES LABELS "fw;ref;memcheck" TIMEOUT 300)
foreach(t cp cp_fetch apt apt_wc ce mmu_rtl mmu_pwc gpuva umd_rtl kmd kmd_fence kmd_lock kmd_lock_paths
          kmd_lock_render kmd_recovery kmd_evict hwq_twoproc hwq)
  add_test(ref_${t} tests/test_${t})
  set_tests_properties(ref_${t} PROPERTIES LABELS "rtl;ref" TIMEOUT 120 ENVIRONMENT "GPUSIM_BACKEND=ref")
endforeach()

# Random programs (tb/rand/) on the RTL and on the ref backend, end states
# compared by the scoreboard; 300 seeds from a seed printed at the start
# (GPUSIM_SEED=N reruns them).  Nightly size: make rand-nightly (10,000).
add_test(rand_scoreboard tests/test_rand --count 300 --quiet)
set_tests_properties(rand_scoreboard PROPERTIES LABELS "rtl;ref" TIMEOUT 300)
# ... and with null tiles carrying FRAG64K, also among a fragment's pages
# (the TLB's null and overlapping-fill rules, mmu/mmu_walk.h).
add_test(rand_null_frag tests/test_rand --count 100 --null-frag --quiet)
set_tests_properties(rand_null_frag PROPERTIES LABELS "rtl;ref" TIMEOUT 300)

# The testplan (tb/testplan.txt): every rule of regspec/REGISTERS.md (derived
# from regspec/gpusim.json), traces/FORMAT.md, the README and the public WDDM
# documents it names has a record; every record names tests that exist, or is
# marked GAP with a reason; --self-test proves broken plans and documents fail.
add_test(check_testplan python3 tb/check_testplan.py --self-test)
set_tests_properties(check_testplan PROPERTIES WORKING_DIRECTORY .. LABELS lint TIMEOUT 60)

# One clock and a synchronous active-low reset in every RTL file, which lint
# and synthesis accept either way; --self-test: broken copies fail.
add_test(check_rtl_clocking python3 tb/check_rtl_clocking.py --self-test)
set_tests_properties(check_rtl_clocking PROPERTIES WORKING_DIRECTORY .. LABELS lint TIMEOUT 60)

# The driver's roles (fw/umd, vidmm, vidsch, kmd) depend one way: the role
# graph from fw/'s #include lines has no circle; --self-test: a planted
# circle and a file no role claims fail.
add_test(check_roles python3 tb/check_roles.py --self-test)
set_tests_properties(check_roles PROPERTIES WORKING_DIRECTORY .. LABELS lint TIMEOUT 60)

# Lint waivers only in rtl/lint/*.vlt, each rule explained in its comments;
# --self-test: a waiver in a source or one without a reason fails.
add_test(check_waivers python3 tb/check_waivers.py --self-test)
set_tests_properties(check_waivers PROPERTIES WORKING_DIRECTORY .. LABELS lint TIMEOUT 60)

# The C layers include only downwards (hw/README.md): model/ref/ takes the
# packet rules and the swizzle from hw/, never from dma/; nothing gpusim
# ships includes tb/; --self-test: a tree with an upward include fails.
add_test(check_layers python3 tb/check_layers.py --self-test)
set_tests_properties(check_layers PROPERTIES WORKING_DIRECTORY .. LABELS lint TIMEOUT 60)

# The regression runner (tb/regress/regress.py, which runs this list): shard
# specs refused, a failure's seed, command and waves, the JUnit file, merges.
add_test(regress_selftest sh tb/regress/selftest.sh)
set_tests_properties(regress_selftest PROPERTIES WORKING_DIRECTORY .. LABELS regress TIMEOUT 120)

# The runner's Slurm path on a one-node cluster it starts on localhost
# (about 25 s; skipped, exit 77, without the packages of tools/deps.sh slurm).
add_test(regress_slurm sh tb/regress/slurm/test_slurm.sh)
set_tests_properties(regress_slurm PROPERTIES WORKING_DIRECTORY .. LABELS "regress;slurm" SKIP_RETURN_CODE 77 TIMEOUT 300)
