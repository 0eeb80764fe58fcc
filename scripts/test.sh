#!/usr/bin/env bash
# Sets up (installs what is missing, builds into build/) and runs every test
# suite: the lit regression tests, the GoogleTest unit tests and the
# documentation build. Exits non-zero when any of them fails.
#
# Usage: ./scripts/test.sh [--sanitize]
# --sanitize: build into build-sanitize with AddressSanitizer and
# UndefinedBehaviorSanitizer (and the libFuzzer target), run the lit and unit
# suites there, then a bounded libFuzzer run on the test corpus
# (OPSNN_FUZZ_SECONDS, default 120; 0 skips it).
sanitize=0
if [ "${1:-}" = "--sanitize" ]; then
  sanitize=1
  export OPSNN_BUILD_DIR="${OPSNN_BUILD_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build-sanitize}"
  export OPSNN_SANITIZE=address,undefined OPSNN_FUZZ=ON
  # MLIR's registries live for the process: not leaks worth reporting.
  # allow_user_poisoning=0: libMLIR.so is not instrumented, so its inlined
  # BumpPtrAllocator code never unpoisons what our instrumented copy poisoned.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allow_user_poisoning=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi

source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

opsnn_setup

status=0
# The lit and unit suites of the build in $OPSNN_BUILD_DIR; $1 says which.
run_lit_and_unit_suites() {
  log "lit regression tests (check-opsnn)$1"
  cmake --build "$OPSNN_BUILD_DIR" --target check-opsnn || status=1
  log "unit tests (opsnn-unittests, opsnn-runtime-unittests)$1"
  "$OPSNN_BUILD_DIR/bin/opsnn-unittests" --gtest_brief=1 || status=1
  "$OPSNN_BUILD_DIR/bin/opsnn-runtime-unittests" --gtest_brief=1 || status=1
}

if [ $sanitize -eq 1 ]; then
  run_lit_and_unit_suites " under ASan+UBSan"
  # A fresh corpus and a fixed seed: the bounded run is the same sequence of
  # inputs everywhere (a slower machine runs a prefix of it within 120 s).
  # OPSNN_FUZZ_SECONDS=0 skips it (CI: the lit and unit suites only).
  fuzz_s=${OPSNN_FUZZ_SECONDS:-120}
  if [ "$fuzz_s" -gt 0 ]; then
    log "libFuzzer: --opsnn-optimize on mutated test IR (${fuzz_s} s, seed ${OPSNN_FUZZ_SEED:-1})"
    corpus="$OPSNN_BUILD_DIR/fuzz-corpus"
    rm -rf "$corpus"
    python3 "$OPSNN_ROOT/scripts/fuzz_corpus.py" "$corpus"
    mkdir -p "$OPSNN_BUILD_DIR/fuzz-findings"
    "$OPSNN_BUILD_DIR/bin/opsnn-fuzz-optimize" -max_total_time="$fuzz_s" -timeout=30 \
      -seed="${OPSNN_FUZZ_SEED:-1}" -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$OPSNN_BUILD_DIR/fuzz-findings/" "$corpus" || status=1
  else
    log "libFuzzer run skipped (OPSNN_FUZZ_SECONDS=0)"
  fi
  [ $status -eq 0 ] && log "sanitizer suites passed" || log "FAILED"
  exit $status
fi

run_lit_and_unit_suites ""

log "structured fuzzing: random linalg graphs, optimized vs not, executed (bounded)"
python3 "$OPSNN_ROOT/scripts/fuzz_graphs.py" --count 200 --time-budget 60 \
  --seed "${OPSNN_FUZZ_SEED:-0}" --ops-nn-run "$OPSNN_BUILD_DIR/bin/ops-nn-run" \
  --failures "$OPSNN_BUILD_DIR/fuzz-failures" || status=1

log "documentation generated from ODS (opsnn-doc)"
cmake --build "$OPSNN_BUILD_DIR" --target opsnn-doc >/dev/null || status=1

# python/opsnn: importer, CLI and zoo tests (pytest), then the ONNX backend
# node tests of the operators the importer claims.
log "Python package tests (pytest python/tests)"
OPSNN_BUILD_DIR="$OPSNN_BUILD_DIR" PYTHONPATH="$OPSNN_ROOT/python" \
  python3 -m pytest -q -p no:cacheprovider "$OPSNN_ROOT/python/tests" || status=1
# The dashboard's generator test is python/tests/test_dashboard.py (above);
# this renders the committed example in headless Chromium and checks the PNG.
log "dashboard screenshot check (headless Chromium, docs/dashboard-example.html)"
python3 "$OPSNN_ROOT/bench/dashboard/screenshot_check.py" || status=1
log "ONNX conformance (onnx/backend/test/data/node, claimed operators)"
OPSNN_BUILD_DIR="$OPSNN_BUILD_DIR" PYTHONPATH="$OPSNN_ROOT/python" \
  python3 -m opsnn.conformance -j 2 || status=1

if [ $status -ne 0 ]; then
  log "FAILED"
else
  log "all test suites passed"
fi
exit $status
