// Attention's batched GEMMs with the heads where the projections put them,
// [b, s, h, d], as the ONNX importer gives them: Q, K and V transposed to
// [b, h, s, d] (K to [b, h, d, s]) before Q K^T and P V, the context
// transposed back after. --opsnn-fuse-elementwise folds the transposes
// into the contractions' indexing maps (Q, K and V are read in place, P V
// writes [b, s, h, d]); the tensor-core kernel reads and writes them
// through transposed views, one GEMM per (b, h) on gridDim.z (emulated on
// the CPU, A100 tiles), against NumPy. The scores' scaling and a mask per
// (batch, key) are the batched GEMM's epilogue (batch i's rows are rows
// i * 64 ... of the scaled scores; the mask's batch index is row floordiv
// 192). No copy and no other kernel is left.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-fuse-elementwise --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// REF: out0 = np.einsum('bihk,bjhk->bhij', in0, in1) * np.float32(0.17677669) + in4[:, None, None, :]
// REF: out1 = np.einsum('bhik,bkhj->bihj', in2, in3)
// TOL: 1e-6

// CHECK-LABEL: IR Dump After FuseElementwisePass
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x64x3x32xf16>, tensor<2x64x3x32xf16>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg2, %arg3 : tensor<2x3x64x64xf16>, tensor<2x64x3x32xf16>) outs(%{{.*}} : tensor<2x64x3x32xf32>)
// CHECK-NOT: linalg.generic
// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-DAG: memref.transpose %arg0 (d0, d1, d2, d3) -> (d0, d2, d1, d3) : memref<2x64x3x32xf16> to memref<2x3x64x32xf16, strided<[6144, 32, 96, 1]>>
// CHECK-DAG: memref.transpose %arg1 (d0, d1, d2, d3) -> (d0, d2, d1, d3)
// CHECK-DAG: memref.transpose %arg3 (d0, d1, d2, d3) -> (d0, d2, d1, d3)
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.fill
// CHECK: return

#id = affine_map<(b, h, i, d) -> (b, h, i, d)>
func.func @heads(%q: tensor<2x64x3x32xf16>, %k: tensor<2x64x3x32xf16>,
                 %p: tensor<2x3x64x64xf16>, %v: tensor<2x64x3x32xf16>,
                 %mask: tensor<2x64xf32>)
    -> (tensor<2x3x64x64xf32>, tensor<2x64x3x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<2x3x64x32xf16>
  %qt = linalg.transpose ins(%q : tensor<2x64x3x32xf16>) outs(%eq : tensor<2x3x64x32xf16>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<2x3x32x64xf16>
  %kt = linalg.transpose ins(%k : tensor<2x64x3x32xf16>) outs(%ek : tensor<2x3x32x64xf16>) permutation = [0, 2, 3, 1]
  %ev = tensor.empty() : tensor<2x3x64x32xf16>
  %vt = linalg.transpose ins(%v : tensor<2x64x3x32xf16>) outs(%ev : tensor<2x3x64x32xf16>) permutation = [0, 2, 1, 3]

  %e0 = tensor.empty() : tensor<2x3x64x64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x3x64x64xf32>) -> tensor<2x3x64x64xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, k, j)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%qt, %kt : tensor<2x3x64x32xf16>, tensor<2x3x32x64xf16>) outs(%f0 : tensor<2x3x64x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x64x64xf32>
  // The scores' scaling by 1/sqrt(d) and the mask per (batch, key): the
  // batched GEMM's epilogue (the mask's b from the row index).
  %scale = arith.constant 0.17677669 : f32
  %es = tensor.empty() : tensor<2x3x64x64xf32>
  %scaled = linalg.generic {indexing_maps = [#id, affine_map<(b, h, i, j) -> (b, j)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores, %mask : tensor<2x3x64x64xf32>, tensor<2x64xf32>) outs(%es : tensor<2x3x64x64xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %y = arith.mulf %x, %scale : f32
    %z = arith.addf %y, %mk : f32
    linalg.yield %z : f32
  } -> tensor<2x3x64x64xf32>

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
  %ec = tensor.empty() : tensor<2x64x3x32xf32>
  %out = linalg.transpose ins(%ctx : tensor<2x3x64x32xf32>) outs(%ec : tensor<2x64x3x32xf32>) permutation = [0, 2, 1, 3]
  return %scaled, %out : tensor<2x3x64x64xf32>, tensor<2x64x3x32xf32>
}
