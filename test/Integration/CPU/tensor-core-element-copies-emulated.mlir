// The tensor-core kernel on operands whose rows are not whole 16-byte
// copies and on N that is not a multiple of 8, run on the CPU
// (emulate-on-cpu) against NumPy. Such an operand's tiles are copied
// element by element (plain loads; zeros past its columns) and the stores
// past N are guarded element by element. Cases: ViT attention over 17
// tokens read where the projections wrote them ([b, s, h, d], 4 heads of
// 8): the scores Q K^T (N = 17 keys, odd) with their scaling fused, and
// P V with P's rows 17 f16 long (A copied element by element, K = 17); a
// classifier head (M = 1, K = 32, N = 10 classes: B's rows of 10 f16)
// with its bias; a GEMM with K = 20 and N = 17 (both operands element by
// element); one whose N x K weight has aligned rows but N = 19; TF32 with
// K = 6, N = 5; INT8 with K = 20, N = 17 (B transposed into its tile
// element by element); and a GEMM whose C is read (no fill folds) with
// K = 20 (a ragged N would need the fill; N = 16 is whole).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32 emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100 emulate-tensor-core-tf32 emulate-tensor-core-warpgroup-mma}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100 emulate-tensor-core-tf32 emulate-tensor-core-warpgroup-mma" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s --check-prefix=WG
// VALUES: int [-100, 100]
// REF: out0 = np.einsum('bihd,bjhd->bhij', in0, in1) * 0.35355339
// REF: out1 = np.einsum('bhij,bjhd->bhid', in2, in3)
// REF: out2 = in4 @ in5 + in6
// REF: out3 = in7 @ in8
// REF: out4 = in9 @ in10.T
// REF: out5 = ref.round_tf32(in11).astype(np.float64) @ ref.round_tf32(in12)
// REF: out6 = in13.astype(np.int64) @ in14.astype(np.int64)
// REF: out7 = in17 + in15 @ in16
// TOL: 2e-6

// Every contraction is on the tensor-core kernel. P's copies are loads
// of single elements checked against K = 17; the scores' stores sit under
// col < 17, one element at a time.
// On the warpgroup kernel (h100, warpgroup-mma) the element copies land
// in the swizzled tiles too, each element where its 16-byte chunk goes
// (the XOR of the chunk and the row): the six FP16 GEMMs (P's rows of 17,
// the head's B rows of 10, K = 20 and N = 17, ...) take it, 64 x 64
// blocks with an f32 row tile each; TF32 with a B stored K x N and INT8
// (B transposed while copied) keep mma.sync.
// WG-LABEL: func.func @element_copies
// WG-COUNT-2: memref.alloc() : memref<64x68xf32>
// WG: memref.load %{{.*}} : memref<17x17xf16, strided<[17, 1], offset: ?>>
// WG-NEXT: scf.yield
// WG: arith.xori
// WG-COUNT-4: memref.alloc() : memref<64x68xf32>
// WG-NOT: memref.alloc() : memref<64x68xf32>

// CHECK-LABEL: func.func @element_copies
// CHECK-NOT: linalg.generic {{.*}}reduction
// CHECK-NOT: linalg.matmul
// CHECK: arith.cmpi ult, %{{.*}}, %c17{{(_[0-9]+)?}} : index
// CHECK: arith.cmpi slt, %{{.*}}, %c17{{(_[0-9]+)?}} : index
// CHECK: memref.load %{{.*}} : memref<17x17xf16, strided<[17, 1], offset: ?>>
// CHECK: arith.cmpi ult, %{{.*}}, %c17{{(_[0-9]+)?}} : index
// CHECK-NOT: linalg.generic {{.*}}reduction
// CHECK-NOT: linalg.matmul
// CHECK: return

func.func @element_copies(%q: tensor<1x17x4x8xf16>, %k: tensor<1x17x4x8xf16>,
                          %p: tensor<1x4x17x17xf16>, %v: tensor<1x17x4x8xf16>,
                          %cls: tensor<1x32xf16>, %head: tensor<32x10xf16>, %hb: tensor<10xf32>,
                          %a: tensor<24x20xf16>, %b: tensor<20x17xf16>,
                          %x: tensor<13x24xf16>, %w: tensor<19x24xf16>,
                          %at: tensor<16x6xf32>, %bt: tensor<6x5xf32>,
                          %ai: tensor<32x20xi8>, %bi: tensor<20x17xi8>,
                          %ac: tensor<16x20xf16>, %bc: tensor<20x16xf16>, %c: tensor<16x16xf32>)
    -> (tensor<1x4x17x17xf32>, tensor<1x4x17x8xf32>, tensor<1x10xf32>, tensor<24x17xf32>,
        tensor<13x19xf32>, tensor<16x5xf32>, tensor<32x17xi32>, tensor<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.35355339 : f32

  %es = tensor.empty() : tensor<1x4x17x17xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x4x17x17xf32>) -> tensor<1x4x17x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x17x4x8xf16>, tensor<1x17x4x8xf16>) outs(%fs : tensor<1x4x17x17xf32>) {
  ^bb0(%l: f16, %r: f16, %acc: f32):
    %l32 = arith.extf %l : f16 to f32
    %r32 = arith.extf %r : f16 to f32
    %m = arith.mulf %l32, %r32 : f32
    %sum = arith.addf %acc, %m : f32
    linalg.yield %sum : f32
  } -> tensor<1x4x17x17xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x4x17x17xf32>) outs(%es : tensor<1x4x17x17xf32>) {
  ^bb0(%in: f32, %o: f32):
    %t = arith.mulf %in, %scale : f32
    linalg.yield %t : f32
  } -> tensor<1x4x17x17xf32>

  %eo = tensor.empty() : tensor<1x4x17x8xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4x17x8xf32>) -> tensor<1x4x17x8xf32>
  %ctx = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, j, h, d)>,
                                        affine_map<(b, h, i, d, j) -> (b, h, i, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x4x17x17xf16>, tensor<1x17x4x8xf16>) outs(%fo : tensor<1x4x17x8xf32>) {
  ^bb0(%l: f16, %r: f16, %acc: f32):
    %l32 = arith.extf %l : f16 to f32
    %r32 = arith.extf %r : f16 to f32
    %m = arith.mulf %l32, %r32 : f32
    %sum = arith.addf %acc, %m : f32
    linalg.yield %sum : f32
  } -> tensor<1x4x17x8xf32>

  %eh = tensor.empty() : tensor<1x10xf32>
  %fh = linalg.fill ins(%zero : f32) outs(%eh : tensor<1x10xf32>) -> tensor<1x10xf32>
  %logits = linalg.matmul ins(%cls, %head : tensor<1x32xf16>, tensor<32x10xf16>) outs(%fh : tensor<1x10xf32>) -> tensor<1x10xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%logits, %hb : tensor<1x10xf32>, tensor<10xf32>) outs(%eh : tensor<1x10xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %t = arith.addf %l, %r : f32
    linalg.yield %t : f32
  } -> tensor<1x10xf32>

  %e3 = tensor.empty() : tensor<24x17xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<24x17xf32>) -> tensor<24x17xf32>
  %mm3 = linalg.matmul ins(%a, %b : tensor<24x20xf16>, tensor<20x17xf16>) outs(%f3 : tensor<24x17xf32>) -> tensor<24x17xf32>

  %e4 = tensor.empty() : tensor<13x19xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<13x19xf32>) -> tensor<13x19xf32>
  %mm4 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<13x24xf16>, tensor<19x24xf16>) outs(%f4 : tensor<13x19xf32>) {
  ^bb0(%l: f16, %r: f16, %acc: f32):
    %l32 = arith.extf %l : f16 to f32
    %r32 = arith.extf %r : f16 to f32
    %m = arith.mulf %l32, %r32 : f32
    %sum = arith.addf %acc, %m : f32
    linalg.yield %sum : f32
  } -> tensor<13x19xf32>

  %e5 = tensor.empty() : tensor<16x5xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<16x5xf32>) -> tensor<16x5xf32>
  %mm5 = linalg.matmul ins(%at, %bt : tensor<16x6xf32>, tensor<6x5xf32>) outs(%f5 : tensor<16x5xf32>) -> tensor<16x5xf32>

  %zi = arith.constant 0 : i32
  %e6 = tensor.empty() : tensor<32x17xi32>
  %f6 = linalg.fill ins(%zi : i32) outs(%e6 : tensor<32x17xi32>) -> tensor<32x17xi32>
  %mm6 = linalg.matmul ins(%ai, %bi : tensor<32x20xi8>, tensor<20x17xi8>) outs(%f6 : tensor<32x17xi32>) -> tensor<32x17xi32>

  %mm7 = linalg.matmul ins(%ac, %bc : tensor<16x20xf16>, tensor<20x16xf16>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %scaled, %ctx, %biased, %mm3, %mm4, %mm5, %mm6, %mm7
      : tensor<1x4x17x17xf32>, tensor<1x4x17x8xf32>, tensor<1x10xf32>, tensor<24x17xf32>,
        tensor<13x19xf32>, tensor<16x5xf32>, tensor<32x17xi32>, tensor<16x16xf32>
}
