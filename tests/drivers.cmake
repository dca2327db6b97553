# SPDX-License-Identifier: MIT
# The device tests and the conformance suite on more than the default device
# (PoCL's pthread driver, CPU class): each set has its label, so
# `ctest -L oclgrind|basic|gpu-class` selects it.
#
#   gpu-class  PoCL pthread with DMLCL_DEVICE_CLASS=gpu: the GPU variants and
#              launch geometry, on the CPU.
#   basic      PoCL's basic driver (one thread, no work-group parallelism)
#              beside pthread.
#   oclgrind   Oclgrind, a second OpenCL implementation, as the CPU and the GPU
#              class, with its checks on (out-of-bounds, API errors, data
#              races, uninitialised values): any report fails the test
#              (scripts/oclgrind). Oclgrind interprets every work-item, so the
#              device tests run a reduced set there (below).
#
# DMLCL_OCLGRIND: ON requires Oclgrind, AUTO (default) registers its tests
# when it is installed, OFF never.

set(DMLCL_OCLGRIND AUTO CACHE STRING "Oclgrind tests: ON, OFF or AUTO (when installed)")
set(DMLCL_POCL_PLATFORM "Portable Computing Language")

if(TARGET dmlcl-conformance)
  set(DMLCL_CASES ${PROJECT_SOURCE_DIR}/conformance/cases)
  set(DMLCL_CONFORMANCE_PATHS ${DMLCL_CASES}) # what conformance-SUFFIX runs
endif()

# dmlcl_driver_tests(SUFFIX LABEL TIMEOUT OPS_ARGS EW_CASES ENV...): ops-SUFFIX and
# conformance-SUFFIX, run through WRAPPER when set. With EW_CASES (not ""), OPS_ARGS's filter
# leaves the element-wise suites out and ops-SUFFIX-elementwise runs them at their first
# EW_CASES random cases: the representative subset the slow drivers take of the map family,
# whose kernels have no local memory, barriers or work-group geometry of their own to test
# there (every operator on every type is still reached; the full draw runs on PoCL pthread).
# The arithmetic suites: element-wise (the map family) and the reductions' random tests. The slow
# drivers take their first EW_CASES random cases (still every operator on every type, and on the
# GPU class every reduction through its work-group tree and barriers).
set(DMLCL_ARITH_SUITES elementwise*/* reduce/* normalize/* scan_topk/* batch_norm/* gemm/* pool/*
    resample/* conv/*)
list(JOIN DMLCL_ARITH_SUITES "|" DMLCL_ARITH_ALTERNATIVES)
function(dmlcl_driver_tests suffix label timeout ops_args ew_cases)
  set(env DMLCL_KERNEL_WERROR=1 ${ARGN})
  add_test(NAME ops-${suffix} COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> ${ops_args})
  set_tests_properties(ops-${suffix} PROPERTIES LABELS ${label} TIMEOUT ${timeout}
                       ENVIRONMENT "${env}")
  if(NOT ew_cases STREQUAL "")
    set(ew_env ${env})
    list(FILTER ew_env EXCLUDE REGEX "^DMLCL_TEST_CASES=")
    add_test(NAME ops-${suffix}-elementwise
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --jobs 1 --filter
                     "@(${DMLCL_ARITH_ALTERNATIVES})")
    set_tests_properties(ops-${suffix}-elementwise PROPERTIES LABELS ${label} TIMEOUT ${timeout}
                         ENVIRONMENT "${ew_env};DMLCL_TEST_CASES=${ew_cases}")
  endif()
  if(TARGET dmlcl-conformance)
    add_test(NAME conformance-${suffix}
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-conformance> ${DMLCL_CONFORMANCE_PATHS})
    set_tests_properties(conformance-${suffix} PROPERTIES LABELS ${label} TIMEOUT ${timeout}
                         ENVIRONMENT "${env}")
  endif()
endfunction()

# The device tests without the large ones, for the slow drivers. What they
# leave out is size, not code: with the conformance suite,
# layout/small_transposes_each_width and gather_tile/small_tiles (which stand
# in for the large transposes and tiled gathers) the rest compiles every
# kernel macro value of a full run.
# runtime_queues/status_reads_on_the_dispatch_queue blocks the device's own
# queue with a user event to prove status never reads there; PoCL basic and
# Oclgrind schedule all queues of a device in one order, so the block stalls
# the caller's queue too: that test runs on PoCL pthread only.
# intmm/*blocks* are the integer blocks' products of K up to 600 (minutes on Oclgrind); the
# small intmm tests reach the same kernels there, partial blocks and tails included. So are
# intmm/*chan* (90 s on Oclgrind's CPU class; the small convolution tests take intmm_conv_chan
# there too). They run apart with Oclgrind's other checks (ops-oclgrind-cpu-intmm-chan, below):
# a test's second dispatch reads the filter intmm_conv_pack wrote into a new temporary resource,
# and Oclgrind's slot-reuse defect (oclgrind-reuse-known-defect, below) reports those reads.
set(DMLCL_OPS_LARGE
    broadcast/documented_examples gather/large gather/streaming_inner_axis gather/streaming_rows
    gather_ext/gather1_streaming_rows gather_ext/gather1_inner_axis identity/broadcast_paths
    identity/layout_changes identity/short_runs_streaming identity/split_runs_streaming
    slice/streaming_runs
    layout/*_every_width layout/nchw_to_nhwc_vector_blocks_chunks_and_tails slice/long_runs
    views/long_tiles views/streaming_tiles views/streaming_splats depth_space/large gather_tile/*_of_a_layout_change*
    bands/streaming pad/eight_dimensions_padded_everywhere
    runtime_queues/status_reads_on_the_dispatch_queue gemm/packed_by_the_default_rule
    scatter/large_output intmm/*blocks* intmm/*chan*)
# ROI_ALIGN_GRAD's device tests beyond a representative two (AVERAGE LINEAR with both outputs,
# the page's NEAREST example) run on PoCL pthread only: each is a variant of its own to compile
# (CI time: the six took 17 s on PoCL's GPU class with a cold cache, 10 s on basic).
set(DMLCL_OPS_GRAD_VARIANTS roi/align_grad_max_linear_scaled_strided
    roi/align_grad_nearest_float16_no_input roi/align_grad_corners_roi_gradient_only
    roi/align_grad_max_float16_both)
list(JOIN DMLCL_OPS_GRAD_VARIANTS "|" DMLCL_OPS_GRAD_VARIANTS_ALT)
# A Criterion filter that runs every test but the listed ones.
function(dmlcl_ops_filter_without out)
  list(JOIN ARGN "|" alternatives)
  set(${out} "!(${alternatives})" PARENT_SCOPE)
endfunction()
dmlcl_ops_filter_without(DMLCL_OPS_WITHOUT_LARGE ${DMLCL_OPS_LARGE})
# The same without the element-wise suites, which the slow drivers run apart (above).
dmlcl_ops_filter_without(DMLCL_OPS_WITHOUT_LARGE_EW ${DMLCL_OPS_LARGE} ${DMLCL_ARITH_SUITES})

# ---- The inner loop: scripts/check ---------------------------------------------------------
# Every device test but the large ones at 3 random cases each, and the conformance suite, on
# the default device: the quick set scripts/check runs (label quick; scripts/test runs the
# full draw instead).
set(WRAPPER "")
dmlcl_driver_tests(quick quick 300 "--jobs;1;--filter;${DMLCL_OPS_WITHOUT_LARGE}" ""
                   DMLCL_TEST_CASES=3)

# The slow drivers' conformance run leaves out directml/resample_grad.json and roi_grad.json
# (their variants, some 30, cost 14 s of PoCL's GPU-class compiles cold: the gradients' device
# tests run there instead), directml/reduce.json, the reductions' generated
# draw (738 cases, a quarter of the suite), and directml/conv.json (145 convolutions, some 30
# kernel variants to compile): there the reductions and convolutions run through ONNX's node
# tests (onnx-node/), the graph cases and the arithmetic device tests.
# directml/gemm.json likewise (150 cases: ~13 min on Oclgrind per device class, 40 s on PoCL
# basic): GEMM runs there through ONNX's Gemm and MatMul node tests, its graph cases and its
# device tests (gemm/*).
# directml/bnorm_training.json too (53 cases: 24 s on Oclgrind per device class, 12 s cold on
# PoCL basic): the batch-normalization training family runs there through its device tests
# (bnorm/*: one random case of each operator, 2 s on Oclgrind per class, 9 s cold on basic)
# and ONNX's training-mode node tests.
if(TARGET dmlcl-conformance)
  file(GLOB DMLCL_DIRECTML_CASE_FILES CONFIGURE_DEPENDS ${DMLCL_CASES}/directml/*.json)
  list(FILTER DMLCL_DIRECTML_CASE_FILES EXCLUDE REGEX
       "/(reduce|gemm|conv|bnorm_training|resample_grad|roi_grad)\\.json$")
  # ONNX's node tests of pooling (3-D windows over 32^3 inputs), of Gemm/MatMul and of
  # Conv/ConvTranspose run on PoCL pthread only: on the slow drivers those operators run
  # through their generated cases (directml/pool.json), their graph cases and their device
  # tests (Oclgrind: ~1.5 min a class for the pooling files, ~1 min for Gemm/MatMul).
  file(GLOB DMLCL_ONNX_NODE_FILES CONFIGURE_DEPENDS ${DMLCL_CASES}/onnx-node/*.json)
  list(FILTER DMLCL_ONNX_NODE_FILES EXCLUDE REGEX
       "/(averagepool|maxpool|lppool|gemm|matmul|conv|convtranspose)\\.json$")
  set(DMLCL_CONFORMANCE_PATHS ${DMLCL_DIRECTML_CASE_FILES} ${DMLCL_CASES}/graph
                              ${DMLCL_CASES}/onnx ${DMLCL_ONNX_NODE_FILES} ${DMLCL_CASES}/openvino)
endif()

# ---- PoCL: the GPU class, and the basic driver ------------------------------------------
# PoCL compiles a work-group function per local size, and the GPU geometry
# varies the local size with the shape: a full random draw costs ~500 s of
# compiles on a cold kernel cache (CI), 2 cases per test (4: 223 s on a 2-core EPYC, cold), with
# every test (the large ones included) still run. The full draw by hand:
# DMLCL_DEVICE_CLASS=gpu build/tests/dmlcl-ops
# Its conformance run: DirectML's data-movement files and the graphs. The files of the
# reduction family (normalize, cumulative, top_k) and of the element-wise operators run on
# Oclgrind as the GPU class (conformance-oclgrind-gpu, below: the same GPU variants, with every
# check), and their operators through the arithmetic device tests (reduce/* and the element-wise
# suites also here, below): PoCL compiles a GPU-class reduction in
# 10-15 s (its work-group barriers make PoCL add implicit barriers to the row walk's uniform
# loops and keep each item's state in arrays; the CPU class's kernel compiles in 1 s), so
# directml/normalize.json alone took 462 s here on a cold cache (2026-11-29), the element-wise
# files 121 s. REDUCE's, GEMM's and CONVOLUTION's files likewise stay on pthread; the ONNX,
# ONNX-node and OpenVINO files run the same kernels with other data on pthread.
if(TARGET dmlcl-conformance)
  set(DMLCL_PATHS_MAIN ${DMLCL_CONFORMANCE_PATHS})
  set(DMLCL_CONFORMANCE_PATHS ${DMLCL_DIRECTML_CASE_FILES})
  list(FILTER DMLCL_CONFORMANCE_PATHS EXCLUDE REGEX
       "/(elementwise[a-z_]*|normalize|cumulative|top_k)\\.json$")
  list(APPEND DMLCL_CONFORMANCE_PATHS ${DMLCL_CASES}/graph)
endif()
# graph_reduce/* (the reductions fused with their element-wise producers) runs on Oclgrind as
# the GPU class with every check instead (ops-oclgrind-gpu): its two tests compile four
# GPU-class reductions, 132 s here on a cold cache.
# Its arithmetic suites leave normalize/* and scan_topk/* to Oclgrind's GPU class too
# (ops-oclgrind-gpu-elementwise: the same kernels with every check; 80 s of GPU-class compiles
# here): reduce/* still takes the GPU-class tree reductions through PoCL.
set(DMLCL_ARITH_ALL ${DMLCL_ARITH_ALTERNATIVES})
# Not GEMM's and the convolutions' suites: Oclgrind's GPU class runs the same GPU kernels (the
# tiles, conv_gemm, conv_tiled) with their outputs checked and its own checks on (CI time: their
# compiles were the costliest of this run). Nor reduce/softmax_far_below_the_maximum: PoCL
# builds its three GPU-class softmaxes (work-groups of 32 and 256, the tree's barriers in a
# loop) in 35 s; Oclgrind's GPU class runs it with every check in 2. Of the element-wise
# suites only elementwise/* (the map's GPU geometry on every type, strided, broadcast and
# fused inputs): the math, logic and activation suites are the same kernel with other
# expressions, which Oclgrind's GPU class runs with its checks and PoCL's CPU class on every
# draw (77 s of PoCL's GPU-class compiles).
set(DMLCL_ARITH_ALTERNATIVES
    "elementwise/*|reduce/!(softmax_far_below_the_maximum)|batch_norm/*|pool/*|resample/*")
dmlcl_driver_tests(gpu-class gpu-class 900
                   "--jobs;2;--filter;!(${DMLCL_ARITH_ALL}|graph_reduce/*|${DMLCL_OPS_GRAD_VARIANTS_ALT})" 1
                   "DMLCL_PLATFORM=${DMLCL_POCL_PLATFORM}" DMLCL_DEVICE_CLASS=gpu
                   DMLCL_TEST_CASES=1)
set(DMLCL_ARITH_ALTERNATIVES ${DMLCL_ARITH_ALL})
if(TARGET dmlcl-conformance)
  set(DMLCL_CONFORMANCE_PATHS ${DMLCL_PATHS_MAIN})
endif()
# basic runs a work-group at a time on one thread: the same kernels, another
# execution model. The large tests and the full random draw stay on pthread; its conformance
# run takes the DirectML cases and graphs (the ONNX, ONNX-node and OpenVINO files run the same
# kernels with other data: CI time).
# basic's arithmetic suites: the reduction ones (the compute families' kernels are the same on
# every driver; pthread, the GPU class and Oclgrind run them), and its conformance run
# DirectML's data-movement and normalisation files and the graphs (not the element-wise
# files: the map kernel runs the same on pthread, below).
if(TARGET dmlcl-conformance)
  set(DMLCL_PATHS_MAIN ${DMLCL_CONFORMANCE_PATHS})
  set(DMLCL_CONFORMANCE_PATHS ${DMLCL_DIRECTML_CASE_FILES})
  list(FILTER DMLCL_CONFORMANCE_PATHS EXCLUDE REGEX "/elementwise[a-z_]*\\.json$")
  list(APPEND DMLCL_CONFORMANCE_PATHS ${DMLCL_CASES}/graph)
endif()
set(DMLCL_ARITH_ALL ${DMLCL_ARITH_ALTERNATIVES})
# Of the arithmetic suites basic takes the reductions (their CPU column folds meet work-group
# barriers, which basic runs its own way); the map kernel has no barrier or local memory, and
# runs the same on pthread (CI time: 109 s with the element-wise suites).
set(DMLCL_ARITH_ALTERNATIVES "reduce/*|normalize/*")
# Nor the gathers and identities, whose CPU variants are element loops with no barrier or local
# memory for basic's work-group loop to meet (CI time; pthread and Oclgrind run them).
dmlcl_ops_filter_without(DMLCL_OPS_BASIC ${DMLCL_OPS_LARGE} ${DMLCL_ARITH_SUITES} gather/*
                         gather_ext/* gather_ref/* gather_ext_ref/* identity/*
                         ${DMLCL_OPS_GRAD_VARIANTS})
dmlcl_driver_tests(pocl-basic basic 900 "--jobs;1;--filter;${DMLCL_OPS_BASIC}" 1
                   "DMLCL_PLATFORM=${DMLCL_POCL_PLATFORM}" POCL_DEVICES=basic DMLCL_TEST_CASES=1)
set(DMLCL_ARITH_ALTERNATIVES ${DMLCL_ARITH_ALL})
if(TARGET dmlcl-conformance)
  set(DMLCL_CONFORMANCE_PATHS ${DMLCL_PATHS_MAIN})
endif()
# ctest -j2 starts the longest first (seconds on a cold cache, CI's 2 cores).
# The GPU maps' vector path (cl/map.cl GVEC, off by default until a GPU times it: src/tuning.c
# map_gpu_vector_bytes), turned on: the element-wise suite (aligned rows, tails, and
# streaming_stores_every_width's rows 3 elements apart, which take the element path), sigmoid,
# casts, clips, batch normalisation and fused chains on the GPU class (about 40 s cold).
add_test(NAME ops-gpu-class-vectors
         COMMAND dmlcl-ops --jobs 1 --filter
                 "@(elementwise/*|elementwise_activation/random_sigmoid|elementwise_math/*cast*|elementwise_math/*clip*|batch_norm/*|graph/element_wise_chains_fused_bit_exact)")
set_tests_properties(ops-gpu-class-vectors PROPERTIES LABELS gpu-class TIMEOUT 600
  ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_PLATFORM=${DMLCL_POCL_PLATFORM};DMLCL_DEVICE_CLASS=gpu;DMLCL_TEST_CASES=2;DMLCL_TUNING=map_gpu_vector_bytes=16")
# Split-K (src/launch_gemm.c dmli_tile_split): on this machine's units few products split, so
# GEMM's and the convolutions' suites run with 100000 items a unit wanted and a slice of one k
# step at least: every GPU tile of more than one step splits, gemm_tiles' and conv_gemm's two
# steps through the poisoned temporary resource, their outputs checked.
add_test(NAME ops-gpu-class-split
         COMMAND dmlcl-ops --jobs 2 --filter "@(gemm/*|conv/*)")
set_tests_properties(ops-gpu-class-split PROPERTIES LABELS gpu-class TIMEOUT 600
  ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_PLATFORM=${DMLCL_POCL_PLATFORM};DMLCL_DEVICE_CLASS=gpu;DMLCL_TEST_CASES=4;DMLCL_TUNING=tile_split_items=100000,tile_split_steps=1")
set_tests_properties(ops-gpu-class PROPERTIES COST 180)
set_tests_properties(ops-pocl-basic PROPERTIES COST 175)
# The GPU class's REDUCE functions built by PoCL's optimiser (Oclgrind builds without it): the
# random test of each function, one case, through the work-group tree (CI's part of
# ops-gpu-class-elementwise, a sweep below).
add_test(NAME ops-gpu-class-reduce COMMAND dmlcl-ops --jobs 1 --filter "reduce/random_*")
set_tests_properties(ops-gpu-class-reduce PROPERTIES LABELS gpu-class TIMEOUT 600
  ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_PLATFORM=${DMLCL_POCL_PLATFORM};DMLCL_DEVICE_CLASS=gpu;DMLCL_TEST_CASES=1")

# ---- Sweeps: scripts/test --full, or ctest -L sweep ---------------------------------------
# The slow drivers' runs whose kernels another run of scripts/test already takes, with the same
# checks or stronger ones; scripts/test leaves them out (CI's 30 minutes on 2 cores: on the
# 2-core Xeon VM of 2026-12-02, cold, these six took 462 of the slow drivers' 1,568
# test-seconds), `scripts/test --full` runs them.
#   conformance-gpu-class       its files and the graphs run on Oclgrind's GPU class, a
#                               superset (conformance-oclgrind-gpu and -graph), every check on.
#   ops-gpu-class-elementwise   the same suites run on Oclgrind's GPU class with every check
#                               (ops-oclgrind-gpu-elementwise); the reductions' random tests
#                               also on PoCL (ops-gpu-class-reduce, above).
#   ops-gpu-class-vectors       a tuning off by default; ops-oclgrind-gpu-vectors takes its
#                               vector path with every check.
#   ops-gpu-class-split         ops-oclgrind-gpu-split forces the same split-K with every check.
#   ops-pocl-basic, conformance-pocl-basic
#                               the data-movement kernels of the CPU class have no barrier or
#                               local memory, which is where basic's one-work-group-at-a-time
#                               loop differs from pthread: basic keeps its reductions and
#                               normalisations (ops-pocl-basic-elementwise) in the default run.
foreach(test conformance-gpu-class ops-gpu-class-elementwise ops-gpu-class-vectors
             ops-gpu-class-split ops-pocl-basic conformance-pocl-basic)
  if(TEST ${test})
    set_property(TEST ${test} APPEND PROPERTY LABELS sweep)
  endif()
endforeach()

# ---- Oclgrind ----------------------------------------------------------------------------
if(NOT DMLCL_OCLGRIND STREQUAL "OFF")
  find_file(DMLCL_OCLGRIND_ICD liboclgrind-rt-icd.so
            PATHS /usr/lib/oclgrind /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/oclgrind
                  /usr/local/lib /usr/local/lib/oclgrind NO_DEFAULT_PATH)
  if(NOT DMLCL_OCLGRIND_ICD)
    if(DMLCL_OCLGRIND STREQUAL "ON")
      message(FATAL_ERROR "DMLCL_OCLGRIND=ON but liboclgrind-rt-icd.so is not installed "
                          "(Debian: oclgrind; scripts/deps installs it)")
    endif()
    message(STATUS "Oclgrind not found: its tests are not registered")
  else()
    set(WRAPPER ${PROJECT_SOURCE_DIR}/scripts/oclgrind)
    # Oclgrind interprets every work-item and checks every access (a test of
    # 40000 elements takes over 40 s): the device tests without the large ones,
    # the first 3 random cases of each. With that cap three macro values are
    # reached only by later random draws (RUN_IS_K=-3/-4, RUN_XS_K=3, VN=1).
    # layout/small_transposes_each_width runs apart, without the
    # uninitialised-value check: on the register-block transposes that check
    # of Oclgrind 21.10 reports every vector built by interleaving high halves
    # (__builtin_shufflevector(a, b, 8, 24, 9, 25, ...) of two initialised
    # uchar16: "Uninitialized value written", with the right bytes written)
    # and half-width extracts (lanes 0..15 of a 32-lane pair), while the low
    # interleave passes. Out-of-bounds, race and API checks stay on there; the
    # transposes' bytes are checked byte for byte by the test itself.
    # graph/execute_on_host_memory runs apart without the uninitialised-value
    # check as well, for another 21.10 defect: that check keeps one shadow per
    # buffer slot, has no hook for a buffer's release, and a host write sizes
    # the shadow to the bytes written. A buffer the host never writes (the
    # temporary resource dmlcl_compiled_operator_execute allocates, written only
    # by the graph's steps) that takes the slot of a smaller released one
    # inherits its shadow: stores past it are not recorded, and reads past it
    # are reported ("Uninitialized value written" in indexed_copy, right bytes
    # written). Run alone, each of its 10 chains gets no report; together they
    # got 24, all in chain 9 and only when chain 4's buffers were released
    # before it. dmlcl-oclgrind-reuse reproduces it in plain OpenCL (below).
    # That graphs never read temporary bytes no step wrote is checked on every
    # driver, this one with all its checks included, by
    # graph/random_chains_bit_exact: each chain runs with its temporary all
    # 0x00, then all 0xFF, bit-exact both times.
    # gather_tile/small_tiles (the indexed copy's tiles, cl/transpose.cl shared
    # with the views) runs apart with it for the same defect: 224 reports, all
    # at the register-block store of whole output rows (PUT(row + c, ...)),
    # none on the private tiles; its bytes are checked against the C oracle.
    # persistent/* (DML_TENSOR_FLAG_OWNED_BY_DML inputs) runs apart without it
    # too: dmlcl_compiled_operator_initialize copies the owned inputs into the
    # persistent resource at offsets of 256 and up with clEnqueueCopyBuffer,
    # and 21.10's check reports every later read of bytes copied to a nonzero
    # destination offset (right values read); dmlcl-oclgrind-copy reproduces
    # it in plain OpenCL (below). The tests compare every output byte.
    # kernels/build_failure_names_the_error builds a program that fails on purpose, which
    # Oclgrind's API check reports (CL_BUILD_PROGRAM_FAILURE): it runs on every other driver.
    set(DMLCL_OCLGRIND_LEFT_OUT ${DMLCL_OPS_LARGE} layout/small_transposes_each_width
        gather_tile/small_tiles graph/execute_on_host_memory persistent/* ${DMLCL_ARITH_SUITES}
        kernels/build_failure_names_the_error ${DMLCL_OPS_GRAD_VARIANTS})
    dmlcl_ops_filter_without(DMLCL_OCLGRIND_OPS ${DMLCL_OCLGRIND_LEFT_OUT})
    # With Oclgrind's GPU class running the same suites with every check (ops-oclgrind-gpu,
    # below: races, barriers, out-of-bounds accesses; one case a test, as ops-gpu-class), PoCL's
    # GPU class keeps in the default run only what that run leaves out: the large tests, the
    # gathers, identities and other suites named here (ops-gpu-class-rest); ops-gpu-class, the
    # whole list, becomes a sweep (CI's 30 minutes: 335 of the slow drivers' test-seconds on the
    # 2-core VM of 2026-12-03).
    set(gpu_rest ${DMLCL_OPS_LARGE} layout/small_transposes_each_width gather_tile/small_tiles
        graph/execute_on_host_memory persistent/* kernels/build_failure_names_the_error gather/*
        gather_ext/* gather_ref/* gather_ext_ref/* identity/* kernels/exp* slice/chunked_rows)
    list(FILTER gpu_rest EXCLUDE REGEX "^gemm/")
    list(JOIN gpu_rest "|" gpu_rest_alternatives)
    add_test(NAME ops-gpu-class-rest COMMAND dmlcl-ops --jobs 2 --filter "@(${gpu_rest_alternatives})")
    set_tests_properties(ops-gpu-class-rest PROPERTIES LABELS gpu-class TIMEOUT 900 COST 120
      ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_PLATFORM=${DMLCL_POCL_PLATFORM};DMLCL_DEVICE_CLASS=gpu;DMLCL_TEST_CASES=1")
    set_property(TEST ops-gpu-class APPEND PROPERTY LABELS sweep)
    # The conformance graph cases run on host buffers too (the temporary
    # dmlcl_compiled_operator_execute allocates): one after another they meet
    # the same defect (cases/graph/multi.json: 8 reports in view_copy reading
    # the temporary, none for any of its cases run alone), so they run apart
    # without that check, and the other folders with every check.
    if(TARGET dmlcl-conformance)
      # DirectML's files: the ONNX, ONNX-node and OpenVINO files run the same kernels with other
      # data (pthread takes them; CI time).
      set(DMLCL_CONFORMANCE_PATHS ${DMLCL_DIRECTML_CASE_FILES})
    endif()
    # Oclgrind 21.10's uninitialized-value check crashes (a memcpy inside
    # Uninitialized::instructionExecuted) on the CPU class's pooling kernel with its vector
    # loads (directml/pool.json's long rows): on the CPU class the pooling cases and device
    # tests are left out (they run on the GPU class here, and on every other driver).
    # gemm/packed_by_the_default_rule is one of the large tests (DMLCL_OPS_LARGE), which the
    # arithmetic suites' own filter would take back: 279 s on Oclgrind's GPU class (three GEMMs
    # of 64 x 1024-1536 x 384-416, for a CPU rule), which put ops-oclgrind-gpu-elementwise at
    # 804 s of its 900 on a quiet 2-core VM (2026-12-02).
    string(REPLACE "gemm/*" "gemm/!(packed_by_the_default_rule)" DMLCL_ARITH_ALTERNATIVES
                   "${DMLCL_ARITH_ALTERNATIVES}")
    # resample/random_resample_grad (RESAMPLE_GRAD, rank 4) interprets for 6-7.5 s a case here
    # (each gradient element's binary searches): RESAMPLE_GRAD1's test (1 s), the same kernel
    # with RESAMPLE_GRAD's rounding among its draws, stands in; pthread and PoCL's GPU class
    # run both.
    string(REPLACE "resample/*" "resample/!(random_resample_grad)" DMLCL_ARITH_ALTERNATIVES
                   "${DMLCL_ARITH_ALTERNATIVES}")
    set(DMLCL_ARITH_ALL ${DMLCL_ARITH_ALTERNATIVES})
    set(DMLCL_PATHS_ALL ${DMLCL_CONFORMANCE_PATHS})
    foreach(class cpu gpu)
      set(DMLCL_ARITH_ALTERNATIVES ${DMLCL_ARITH_ALL})
      set(DMLCL_CONFORMANCE_PATHS ${DMLCL_PATHS_ALL})
      if(class STREQUAL "cpu")
        string(REPLACE "|pool/*" "" DMLCL_ARITH_ALTERNATIVES "${DMLCL_ARITH_ALL}")
        list(FILTER DMLCL_CONFORMANCE_PATHS EXCLUDE REGEX "/(pool|globalaveragepool|globalmaxpool)\\.json$")
        # The integer cases apart (conformance-oclgrind-cpu-intmm, below): their convolutions'
        # pre-step packs the filter into the temporary resource dmlcl_compiled_operator_execute
        # allocates, and one case after another meets the slot-reuse defect (720 reports in
        # intmm_conv_chan, 2026-12-03).
        list(FILTER DMLCL_CONFORMANCE_PATHS EXCLUDE REGEX "/intmm\\.json$")
      endif()
      # Two random cases a test (CI time: the GPU class's run was the longest test, 340 s at
      # three); the fixed cases all run.
      # The GPU class leaves out the gathers and identities (the largest data-movement suites;
      # their GPU variants use no local memory or barriers, and run on PoCL as the GPU class
      # with guard bytes checked): CI time (ops-oclgrind-gpu took 349 s). kernels/exp* (exp's
      # accuracy over every float, 50 s here) runs on the CPU class: the same arithmetic.
      set(ops_filter ${DMLCL_OCLGRIND_OPS})
      if(class STREQUAL "gpu")
        # Of the element-wise suites elementwise/* (the map's GPU geometry on every type,
        # strided, broadcast and fused inputs); the math, logic and activation suites are the
        # same kernel with other expressions, which the CPU class here runs with every check:
        # on the GPU class they are a sweep (ops-oclgrind-gpu-elementwise-math, below).
        string(REPLACE "elementwise*/*" "elementwise/*" DMLCL_ARITH_ALTERNATIVES
                       "${DMLCL_ARITH_ALL}")
        # Nor slice/chunked_rows: CPUs' chunks of 16 KiB rows (what it tests, on the CPU
        # class here), a byte an item on the GPU class: 88 s of Oclgrind's interpreting.
        dmlcl_ops_filter_without(ops_filter ${DMLCL_OCLGRIND_LEFT_OUT} gather/* gather_ext/*
                                 gather_ref/* gather_ext_ref/* identity/* kernels/exp*
                                 slice/chunked_rows)
      endif()
      dmlcl_driver_tests(oclgrind-${class} oclgrind 900
                         "--jobs;1;--filter;${ops_filter}" 1
                         DMLCL_DEVICE_CLASS=${class} DMLCL_TEST_CASES=1)
      add_test(NAME ops-oclgrind-${class}-graph-host
               COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --filter
                       "@(graph/execute_on_host_memory|persistent/*)")
      set_tests_properties(
        ops-oclgrind-${class}-graph-host PROPERTIES LABELS oclgrind TIMEOUT 300
        ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=${class};OCLGRIND_UNINITIALIZED=0")
      if(TARGET dmlcl-conformance)
        add_test(NAME conformance-oclgrind-${class}-graph
                 COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-conformance> ${DMLCL_CASES}/graph)
        set_tests_properties(
          conformance-oclgrind-${class}-graph PROPERTIES LABELS oclgrind TIMEOUT 300
          ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=${class};OCLGRIND_UNINITIALIZED=0")
      endif()
    endforeach()
    set(DMLCL_ARITH_ALTERNATIVES ${DMLCL_ARITH_ALL})
    set(DMLCL_CONFORMANCE_PATHS ${DMLCL_PATHS_ALL})
    # ctest -j2 starts the longest first (seconds beside another test, cold, on the 2-core
    # Xeon VM of 2026-12-02: ops-oclgrind-gpu-elementwise 253, ops-oclgrind-gpu 126,
    # ops-oclgrind-cpu 103): the first run of a fresh build has no timings of its own.
    set_tests_properties(ops-oclgrind-gpu PROPERTIES COST 190)
    set_tests_properties(ops-oclgrind-gpu-elementwise PROPERTIES COST 250)
    set_tests_properties(ops-oclgrind-cpu PROPERTIES COST 100)
    add_test(NAME ops-oclgrind-gpu-elementwise-math
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --jobs 1 --filter
                     "@(elementwise_math|elementwise_logic|elementwise_activation)/*")
    set_tests_properties(ops-oclgrind-gpu-elementwise-math PROPERTIES LABELS "oclgrind;sweep"
      TIMEOUT 600 ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=gpu;DMLCL_TEST_CASES=1")
    # The band kernel (cl/bands.cl) alone, both classes: `ctest -L oclgrind -R bands`.
    foreach(class cpu gpu)
      add_test(NAME ops-oclgrind-${class}-bands
               COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --filter "bands/!(streaming)")
      set_tests_properties(ops-oclgrind-${class}-bands PROPERTIES LABELS oclgrind TIMEOUT 600
        ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=${class};DMLCL_TEST_CASES=3")
    endforeach()
    # The resample bands (cl/resample.cl BAND) on the CPU class with every check: bands of 8
    # rows x 64 columns, whose stage fits Oclgrind's 32 KiB of local memory (the default
    # 32 x 512 does not, and the launch takes the generic kernel there). Not the gradients'
    # tests: their kernel has no bands.
    add_test(NAME ops-oclgrind-cpu-resample-bands
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --jobs 1
                     --filter "resample/!(random_resample_grad*)")
    set_tests_properties(ops-oclgrind-cpu-resample-bands PROPERTIES LABELS oclgrind TIMEOUT 300
      ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=cpu;DMLCL_TEST_CASES=2;DMLCL_TUNING=resample_band_cols=64,resample_band_rows=8")
    # Max pooling's bands (cl/pool.cl BAND) on the CPU class with every check (the pooling
    # suites are left out of ops-oclgrind-cpu above): bands of 4 rows x 64 columns over 12
    # staged rows; pool/resnet_shapes apart (its generic kernels crash the check, above).
    add_test(NAME ops-oclgrind-cpu-pool-bands
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --jobs 1 --filter "pool/!(resnet_shapes)")
    set_tests_properties(ops-oclgrind-cpu-pool-bands PROPERTIES LABELS oclgrind TIMEOUT 300
      ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=cpu;DMLCL_TEST_CASES=2;DMLCL_TUNING=pool_band_cols=64,pool_band_rows=4,pool_band_slots=12")
    # The GPU maps' vector path under Oclgrind's checks (its vector loads and stores, and the
    # rows that fall back to elements).
    add_test(NAME ops-oclgrind-gpu-vectors
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --filter
                     "@(elementwise/streaming_stores_every_width|elementwise/random_add|elementwise/random_multiply|elementwise_math/random_cast|elementwise_activation/random_sigmoid)")
    set_tests_properties(ops-oclgrind-gpu-vectors PROPERTIES LABELS oclgrind TIMEOUT 300
      ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=gpu;DMLCL_TEST_CASES=1;DMLCL_TUNING=map_gpu_vector_bytes=16")
    # Split-K's two steps (above, ops-gpu-class-split) under Oclgrind's checks.
    add_test(NAME ops-oclgrind-gpu-split
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --filter
                     "@(gemm/random|gemm/tile_configs|gemm/known_values|conv/random|conv/known_values|conv/gemm_tiles)")
    set_tests_properties(ops-oclgrind-gpu-split PROPERTIES LABELS oclgrind TIMEOUT 600
      ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=gpu;DMLCL_TEST_CASES=1;DMLCL_TUNING=tile_split_items=100000,tile_split_steps=1")
    if(TARGET dmlcl-conformance)
      add_test(NAME conformance-oclgrind-cpu-intmm
               COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-conformance> ${DMLCL_CASES}/directml/intmm.json)
      set_tests_properties(
        conformance-oclgrind-cpu-intmm PROPERTIES LABELS oclgrind TIMEOUT 300
        ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=cpu;OCLGRIND_UNINITIALIZED=0")
    endif()
    # The integer convolutions' channel blocks (intmm/*chan*, every stride form and width, the
    # folds, partial blocks; 25 s) with every check but uninitialised values: each test's second
    # dispatch reads what its pre-step wrote into a fresh temporary resource in a released
    # buffer's slot, which Oclgrind's slot-reuse defect reports (below; with the temporary
    # resource written from the host first, 0 reports, 2026-12-03).
    add_test(NAME ops-oclgrind-cpu-intmm-chan
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --jobs 1 --filter "intmm/*chan*")
    set_tests_properties(ops-oclgrind-cpu-intmm-chan PROPERTIES LABELS oclgrind TIMEOUT 300
      ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=cpu;DMLCL_TEST_CASES=1;OCLGRIND_UNINITIALIZED=0")
    add_test(NAME ops-oclgrind-cpu-transposes
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --filter
                     "@(layout/small_transposes_each_width|gather_tile/small_tiles)")
    set_tests_properties(ops-oclgrind-cpu-transposes PROPERTIES LABELS oclgrind TIMEOUT 300
                         ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=cpu;OCLGRIND_UNINITIALIZED=0")
    # The same on the GPU class, whose work-group tiles (TRANSPOSE 3: local
    # memory, a barrier, no shuffles) take every check.
    add_test(NAME ops-oclgrind-gpu-transposes
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-ops> --filter
                     "@(layout/small_transposes_each_width|gather_tile/small_tiles)")
    set_tests_properties(ops-oclgrind-gpu-transposes PROPERTIES LABELS oclgrind TIMEOUT 300
                         ENVIRONMENT "DMLCL_KERNEL_WERROR=1;DMLCL_DEVICE_CLASS=gpu")

    # The slot-reuse defect outside dmlcl: a buffer written in full by one
    # kernel and read by the next gets 12 reports once it takes a released
    # 16-byte buffer's slot, none on a fresh slot. When an Oclgrind upgrade
    # fails the known-defect test, graph/execute_on_host_memory can go back
    # into the set above.
    add_executable(dmlcl-oclgrind-reuse ${CMAKE_CURRENT_SOURCE_DIR}/drivers/oclgrind_reuse.c)
    target_link_libraries(dmlcl-oclgrind-reuse PRIVATE OpenCL::OpenCL)
    target_compile_options(dmlcl-oclgrind-reuse PRIVATE ${DMLCL_WARNINGS})
    add_test(NAME oclgrind-reuse-fresh COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-oclgrind-reuse> fresh)
    set_tests_properties(oclgrind-reuse-fresh PROPERTIES LABELS oclgrind
                         PASS_REGULAR_EXPRESSION "scripts/oclgrind: 0 Oclgrind reports, exit status 0")
    add_test(NAME oclgrind-reuse-known-defect
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-oclgrind-reuse> reuse)
    set_tests_properties(oclgrind-reuse-known-defect PROPERTIES LABELS oclgrind
                         PASS_REGULAR_EXPRESSION "scripts/oclgrind: FAIL: Oclgrind reported 12 error")

    # The copy defect outside dmlcl: 16 ints copied to byte 256 of a buffer
    # give 16 reports when a kernel reads them; to byte 0, none. When an
    # Oclgrind upgrade fails the known-defect test, persistent/* can go back
    # into the set above.
    add_executable(dmlcl-oclgrind-copy ${CMAKE_CURRENT_SOURCE_DIR}/drivers/oclgrind_copy.c)
    target_link_libraries(dmlcl-oclgrind-copy PRIVATE OpenCL::OpenCL)
    target_compile_options(dmlcl-oclgrind-copy PRIVATE ${DMLCL_WARNINGS})
    add_test(NAME oclgrind-copy-start COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-oclgrind-copy> start)
    set_tests_properties(oclgrind-copy-start PROPERTIES LABELS oclgrind
                         PASS_REGULAR_EXPRESSION "scripts/oclgrind: 0 Oclgrind reports, exit status 0")
    add_test(NAME oclgrind-copy-known-defect
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-oclgrind-copy> offset)
    set_tests_properties(oclgrind-copy-known-defect PROPERTIES LABELS oclgrind
                         PASS_REGULAR_EXPRESSION "scripts/oclgrind: FAIL: Oclgrind reported 16 error")
    # The same after a fill: 16 ints put by a kernel into a buffer filled with
    # clEnqueueFillBuffer give 16 reports when a second kernel reads them;
    # into one the host wrote, none. When an Oclgrind upgrade fails the
    # known-defect test, tests/ops/harness.c can fill its poison again.
    add_test(NAME oclgrind-copy-written
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-oclgrind-copy> written)
    set_tests_properties(oclgrind-copy-written PROPERTIES LABELS oclgrind
                         PASS_REGULAR_EXPRESSION "scripts/oclgrind: 0 Oclgrind reports, exit status 0")
    add_test(NAME oclgrind-fill-known-defect
             COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-oclgrind-copy> filled)
    set_tests_properties(oclgrind-fill-known-defect PROPERTIES LABELS oclgrind
                         PASS_REGULAR_EXPRESSION "scripts/oclgrind: FAIL: Oclgrind reported 16 error")

    # The checks can fail: each known fault must be reported, and nothing else.
    add_executable(dmlcl-oclgrind-probe ${CMAKE_CURRENT_SOURCE_DIR}/drivers/oclgrind_probe.c)
    target_link_libraries(dmlcl-oclgrind-probe PRIVATE OpenCL::OpenCL)
    target_compile_options(dmlcl-oclgrind-probe PRIVATE ${DMLCL_WARNINGS})
    add_test(NAME oclgrind-probe-clean COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-oclgrind-probe> clean)
    set_tests_properties(oclgrind-probe-clean PROPERTIES LABELS oclgrind
                         PASS_REGULAR_EXPRESSION "scripts/oclgrind: 0 Oclgrind reports, exit status 0")
    foreach(fault out-of-bounds race uninitialized api)
      add_test(NAME oclgrind-probe-${fault}
               COMMAND ${WRAPPER} $<TARGET_FILE:dmlcl-oclgrind-probe> ${fault})
      set_tests_properties(oclgrind-probe-${fault} PROPERTIES LABELS oclgrind
                           PASS_REGULAR_EXPRESSION "scripts/oclgrind: FAIL: Oclgrind reported [1-9]")
    endforeach()
  endif()
endif()
