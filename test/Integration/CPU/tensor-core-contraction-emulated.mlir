// linalg.generic contractions that are GEMMs on collapsed views, through
// the tensor-core kernel on the CPU (emulate-on-cpu, A100 tiles) against
// NumPy: the importer's attention projection x[b, s, k] * w[k, h, e] ->
// [b, s, h, e] (M = b*s = 128, N = h*e = 128, K = 64) with a per-(h, e)
// bias fused into the epilogue, a weight stored [out, in] (B transposed:
// N x K), an i8 x i8 -> i32 contraction with M split over two
// dimensions, and attention's batched GEMMs over (batch, head): scores
// Q K^T (K stored [j, k]: B transposed) and P V, each a batch of six GEMMs
// on rank-reduced slices with C's fill folded. No generic is left: each is
// one kernel (the bias too).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// VALUES: int [-100, 100]
// REF: out0 = np.einsum('bsk,khe->bshe', in0, in1) + in2
// REF: out1 = np.einsum('bsk,nk->bsn', in0, in3)
// REF: out2 = np.einsum('bsk,kn->bsn', in4.astype(np.int64), in5.astype(np.int64))
// REF: out3 = np.einsum('bhik,bhjk->bhij', in6, in7)
// REF: out4 = np.einsum('bhik,bhkj->bhij', in8, in9)
// TOL: 1e-5

// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-DAG: memref.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : memref<2x64x64xf16> into memref<128x64xf16>
// CHECK-DAG: memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<64x2x64xf16> into memref<64x128xf16>
// CHECK-DAG: memref.collapse_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] : memref<2x64x2x64xf32> into memref<128x128xf32>
// CHECK-DAG: memref.subview %{{.*}}[%{{.*}}, 0, 0] [1, 64, 32] [1, 1, 1] : memref<6x64x32xf16> to memref<64x32xf16, strided<[32, 1], offset: ?>>
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.fill
// CHECK: return

#x = affine_map<(b, s, h, e, k) -> (b, s, k)>
#w = affine_map<(b, s, h, e, k) -> (k, h, e)>
#o = affine_map<(b, s, h, e, k) -> (b, s, h, e)>
#o4 = affine_map<(b, s, h, e) -> (b, s, h, e)>
#bias = affine_map<(b, s, h, e) -> (h, e)>
#x3 = affine_map<(b, s, n, k) -> (b, s, k)>
#wt = affine_map<(b, s, n, k) -> (n, k)>
#w2 = affine_map<(b, s, n, k) -> (k, n)>
#o3 = affine_map<(b, s, n, k) -> (b, s, n)>
func.func @contractions(%x: tensor<2x64x64xf16>, %w: tensor<64x2x64xf16>, %bias: tensor<2x64xf32>,
                        %wt: tensor<64x64xf16>, %xi: tensor<2x32x64xi8>, %wi: tensor<64x64xi8>,
                        %qh: tensor<2x3x64x32xf16>, %kh: tensor<2x3x64x32xf16>,
                        %ph: tensor<2x3x64x64xf16>, %vh: tensor<2x3x64x32xf16>)
    -> (tensor<2x64x2x64xf32>, tensor<2x64x64xf32>, tensor<2x32x64xi32>,
        tensor<2x3x64x64xf32>, tensor<2x3x64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x64x2x64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x64x2x64xf32>) -> tensor<2x64x2x64xf32>
  %p = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x64x64xf16>, tensor<64x2x64xf16>) outs(%f0 : tensor<2x64x2x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x64x2x64xf32>
  %e1 = tensor.empty() : tensor<2x64x2x64xf32>
  %pb = linalg.generic {indexing_maps = [#o4, #bias, #o4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %bias : tensor<2x64x2x64xf32>, tensor<2x64xf32>) outs(%e1 : tensor<2x64x2x64xf32>) {
  ^bb0(%v: f32, %c: f32, %out: f32):
    %s = arith.addf %v, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x64x2x64xf32>

  %e2 = tensor.empty() : tensor<2x64x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %q = linalg.generic {indexing_maps = [#x3, #wt, #o3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %wt : tensor<2x64x64xf16>, tensor<64x64xf16>) outs(%f2 : tensor<2x64x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %b32, %a32 : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x64x64xf32>

  %izero = arith.constant 0 : i32
  %e3 = tensor.empty() : tensor<2x32x64xi32>
  %f3 = linalg.fill ins(%izero : i32) outs(%e3 : tensor<2x32x64xi32>) -> tensor<2x32x64xi32>
  %r = linalg.generic {indexing_maps = [#x3, #w2, #o3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%xi, %wi : tensor<2x32x64xi8>, tensor<64x64xi8>) outs(%f3 : tensor<2x32x64xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %a32 = arith.extsi %a : i8 to i32
    %b32 = arith.extsi %b : i8 to i32
    %m = arith.muli %a32, %b32 : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<2x32x64xi32>

  %e4 = tensor.empty() : tensor<2x3x64x64xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x3x64x64xf32>) -> tensor<2x3x64x64xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, j, k)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%qh, %kh : tensor<2x3x64x32xf16>, tensor<2x3x64x32xf16>) outs(%f4 : tensor<2x3x64x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x64x64xf32>
  %e5 = tensor.empty() : tensor<2x3x64x32xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x3x64x32xf32>) -> tensor<2x3x64x32xf32>
  %ctx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, k, j)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %vh : tensor<2x3x64x64xf16>, tensor<2x3x64x32xf16>) outs(%f5 : tensor<2x3x64x32xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x64x32xf32>
  return %pb, %q, %r, %scores, %ctx : tensor<2x64x2x64xf32>, tensor<2x64x64xf32>, tensor<2x32x64xi32>,
                                      tensor<2x3x64x64xf32>, tensor<2x3x64x32xf32>
}
