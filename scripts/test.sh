#!/usr/bin/env bash
# Sets up (installs what is missing, builds into build/) and runs every test
# suite: the lit regression tests, the GoogleTest unit tests and the
# documentation build. Exits non-zero when any of them fails.
#
# Usage: ./scripts/test.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

opsnn_setup

status=0
log "lit regression tests (check-opsnn)"
cmake --build "$OPSNN_BUILD_DIR" --target check-opsnn || status=1

log "unit tests (opsnn-unittests, opsnn-runtime-unittests)"
"$OPSNN_BUILD_DIR/bin/opsnn-unittests" --gtest_brief=1 || status=1
"$OPSNN_BUILD_DIR/bin/opsnn-runtime-unittests" --gtest_brief=1 || status=1

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
log "ONNX conformance (onnx/backend/test/data/node, claimed operators)"
OPSNN_BUILD_DIR="$OPSNN_BUILD_DIR" PYTHONPATH="$OPSNN_ROOT/python" \
  python3 -m opsnn.conformance -j 2 || status=1

if [ $status -ne 0 ]; then
  log "FAILED"
else
  log "all test suites passed"
fi
exit $status
