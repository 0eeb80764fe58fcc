// RUN: ops-nn-opt %s --opsnn-gpu-tiled-transpose="tile=30" -verify-diagnostics
// RUN: not ops-nn-opt %s --opsnn-gpu-tiled-transpose="tile=64 block-rows=32" 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not ops-nn-opt %s --opsnn-gpu-tiled-transpose="min-extent=0" 2>&1 | FileCheck %s --check-prefix=EXTENT

// THREADS: error: tile x block-rows = 2048 threads per block; CUDA allows at most 1024
// EXTENT: error: min-extent must be positive, got 0

// expected-error @+1 {{tile (30) must be a positive multiple of block-rows (8)}}
func.func @f(%x: memref<4xf32>) {
  return
}
