// RUN: ops-nn-opt %s --opsnn-vectorize-parallel-loops="vector-bytes=12" -verify-diagnostics
// RUN: not ops-nn-opt %s --opsnn-vectorize-parallel-loops="vector-bytes=32" 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not ops-nn-opt %s --opsnn-vectorize-parallel-loops="min-row-vectors=0" 2>&1 | FileCheck %s --check-prefix=ROWS

// WIDE: error: vector-bytes must be 2, 4, 8 or 16, got 32
// ROWS: error: min-row-vectors must be positive, got 0

// expected-error @+1 {{vector-bytes must be 2, 4, 8 or 16, got 12}}
func.func @f(%x: memref<4xf32>) {
  return
}
