// Attention's context on the mixed-precision path: P V accumulates in f32,
// is cast to f16 and transposed back to [b, s, h, d] for the output
// projection. --opsnn-fuse-elementwise makes the cast and the transpose
// one elementwise op whose output map is a permutation; the tensor-core
// kernel takes it as its epilogue and stores the f16 rows at their
// (b, s, h, d) position, the row index split into (b, h, s) by floordiv
// and mod, d innermost as vector stores (emulated on the CPU, A100 tiles),
// against NumPy. No other kernel is left; the f32 context is not stored.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// REF: out0 = (np.einsum('bhik,bkhj->bihj', in0.astype(np.float32), in1.astype(np.float32)) * np.float32(0.5)).astype(np.float16)
// TOL: 2e-3

// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-NOT: linalg.
// CHECK: vector.contract
// CHECK-NOT: vector.transfer_write {{.*}}xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: vector.store {{.*}} : memref<2x64x3x32xf16>, vector<8xf16>
// CHECK-NOT: vector.transfer_write {{.*}}xf32>
// CHECK-NOT: linalg.generic
// CHECK: return

func.func @context(%p: tensor<2x3x64x64xf16>, %v: tensor<2x64x3x32xf16>) -> tensor<2x64x3x32xf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ev = tensor.empty() : tensor<2x3x64x32xf16>
  %vt = linalg.transpose ins(%v : tensor<2x64x3x32xf16>) outs(%ev : tensor<2x3x64x32xf16>) permutation = [0, 2, 1, 3]
  %e1 = tensor.empty() : tensor<2x3x64x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x64x32xf32>) -> tensor<2x3x64x32xf32>
  %ctx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, k, j)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vt : tensor<2x3x64x64xf16>, tensor<2x3x64x32xf16>) outs(%f1 : tensor<2x3x64x32xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x64x32xf32>
  %eh = tensor.empty() : tensor<2x3x64x32xf16>
  %narrow = linalg.generic {indexing_maps = [affine_map<(b, h, i, d) -> (b, h, i, d)>, affine_map<(b, h, i, d) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ctx : tensor<2x3x64x32xf32>) outs(%eh : tensor<2x3x64x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.mulf %x, %half : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x3x64x32xf16>
  %ec = tensor.empty() : tensor<2x64x3x32xf16>
  %out = linalg.transpose ins(%narrow : tensor<2x3x64x32xf16>) outs(%ec : tensor<2x64x3x32xf16>) permutation = [0, 2, 1, 3]
  return %out : tensor<2x64x3x32xf16>
}
