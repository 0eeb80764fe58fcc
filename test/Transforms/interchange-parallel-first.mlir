// RUN: ops-nn-opt %s --opsnn-interchange-parallel-first -split-input-file | FileCheck %s
// RUN: ops-nn-opt %s --split-input-file --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" --mlir-print-ir-after=gpu-kernel-outlining -o /dev/null 2>&1 | FileCheck %s --check-prefix=GRID

// NHWC global average pooling's sum (loops n, h, w, c): c moves before the
// reductions, which keep their order.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @nhwc_sum
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// On the GPU every (n, c) is a thread: 8 x 2048 outputs in 64 blocks of
// 32 x 8 threads (one thread per n before, each summing 49 x 2048), the
// zero fill of its (n, c) fused into the same kernel; with vector accesses
// (--opsnn-vectorize-parallel-loops) a thread sums 4 channels (one 16-byte
// load per pixel), 16 blocks.
// GRID-LABEL: IR Dump After GpuKernelOutliningPass
// GRID-NOT: gpu.launch_func
// GRID: gpu.launch_func @nhwc_sum_kernel::@nhwc_sum_kernel blocks in (%c16, %c1, %c1) threads in (%c32, %c8, %c1)
func.func @nhwc_sum(%x: tensor<8x7x7x2048xf32>) -> tensor<8x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x2048xf32>) -> tensor<8x2048xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, c)>],
                       iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<8x7x7x2048xf32>) outs(%f : tensor<8x2048xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<8x2048xf32>
  return %s : tensor<8x2048xf32>
}

// -----

// linalg.reduce over H and W is generalized and interchanged the same way.
// CHECK-LABEL: func.func @reduce_hw
// CHECK-NOT: linalg.reduce
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.maximumf
func.func @reduce_hw(%x: tensor<2x5x5x64xf32>, %init: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %s = linalg.reduce ins(%x : tensor<2x5x5x64xf32>) outs(%init : tensor<2x64xf32>) dimensions = [1, 2]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %s : tensor<2x64xf32>
}

// -----

// Already parallel first (a row sum; a matmul), and an elementwise op: left
// alone. On buffers as well as tensors.
// CHECK-LABEL: func.func @already_ordered
// CHECK: linalg.reduce
// CHECK: linalg.matmul
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
func.func @already_ordered(%x: memref<4x8xf32>, %r: memref<4xf32>, %a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  linalg.reduce ins(%x : memref<4x8xf32>) outs(%r : memref<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A column sum on buffers (loops k, j: the reduction first): j moves out.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[J:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @column_sum_buffers
// CHECK: linalg.generic {indexing_maps = [#[[T]], #[[J]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<64x32xf32>) outs(%arg1 : memref<32xf32>)
func.func @column_sum_buffers(%x: memref<64x32xf32>, %r: memref<32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(k, j) -> (k, j)>, affine_map<(k, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%r : memref<32xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}
