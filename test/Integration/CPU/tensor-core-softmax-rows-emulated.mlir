// A softmax over a GEMM's rows in the tensor-core kernel (emulated on the
// CPU against NumPy) where the rows are awkward: M = 17 and N = 17 (a
// ragged M, an odd N: B copied element by element, the normalized rows
// walked one column per thread), the probabilities returned in f32 with
// no stage after the softmax. Then N = 264, wider than any block: the
// softmax stays apart and is decomposed on buffers after the kernel.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=t4}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-warp-reductions emulate-gpu-loops}" --tol=2e-6 %S/Inputs/tensor-core-softmax-wide.mlir
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// RUN: ops-nn-opt %S/Inputs/tensor-core-softmax-wide.mlir --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul --mlir-print-ir-after=opsnn-decompose-aggregated-ops -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE
// REF: s = in0.astype(np.float64) @ in1.astype(np.float64)
// REF: e = np.exp(s - s.max(-1, keepdims=True))
// REF: out0 = e / e.sum(-1, keepdims=True)
// TOL: 1e-6

// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK-NOT: linalg.generic
// CHECK: return

// The wide rows: the kernel stores the product, the softmax follows on
// buffers until the decomposition after the kernels.
// WIDE-LABEL: IR Dump After GPUTensorCoreMatmulPass
// WIDE: linalg.softmax dimension(1) ins(%{{.+}} : memref<16x264xf32>)
// WIDE-LABEL: IR Dump After DecomposeAggregatedOpsPass
// WIDE-NOT: linalg.softmax
// WIDE: arith.maxnumf
// WIDE: math.exp
// WIDE: arith.divf
// WIDE: return

func.func @rows(%a: tensor<17x24xf16>, %b: tensor<24x17xf16>) -> tensor<17x17xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<17x17xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<17x17xf32>) -> tensor<17x17xf32>
  %s = linalg.matmul ins(%a, %b : tensor<17x24xf16>, tensor<24x17xf16>) outs(%f : tensor<17x17xf32>) -> tensor<17x17xf32>
  %e2 = tensor.empty() : tensor<17x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<17x17xf32>) outs(%e2 : tensor<17x17xf32>) -> tensor<17x17xf32>
  return %p : tensor<17x17xf32>
}
