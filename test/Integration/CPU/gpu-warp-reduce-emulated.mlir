// Row reductions on the GPU's one-warp-per-row kernel
// (--opsnn-gpu-warp-reduce), run on the CPU (emulate-on-cpu) against NumPy:
// the row index split into the parallel loops, each lane's strided partial
// (V consecutive elements at a time: from V x lane, then 32 V further on,
// ...; V = 2 for the rows of 100 f32 and 64 i32, 4 for 200 and 256 f32;
// rows of 100 and 200 leave the last lanes one vector short), the
// five-step xor butterfly and lane 0's combination
// with the output's initial value. A row sum (f32), a row max over the last
// of three dimensions (-inf fill), a softmax denominator sum(exp(x - m))
// with a per-row operand, an i32 row sum onto a non-zero initial value, a
// column sum (reduced dimension not innermost) that keeps the generic path;
// an f16 row sum into f32 (8 f16, 16 bytes, per lane and access). Rows
// shorter than 32 vectors share a warp: 16 f32 as 4 lanes of 4 (xor 2, 1),
// 12 f32 as 2 lanes (lane 0 has vectors 0 and 2), 7 f32 as 4 lanes of one
// element (lanes 0..2 have two).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-warp-reductions}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-warp-reductions" --mlir-print-ir-after=opsnn-gpu-warp-reduce 2>&1 >/dev/null | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-warp-reductions" --mlir-print-ir-after=opsnn-gpu-warp-reduce 2>&1 >/dev/null | FileCheck %s --check-prefix=VEC
// REF: out0 = in0.sum(axis=1)
// REF: out1 = in1.max(axis=2)
// REF: out2 = np.exp(in2 - in3[:, None]).sum(axis=1)
// REF: out3 = in4.sum(axis=1) + 5
// REF: out4 = in5.sum(axis=0)
// REF: out5 = in6.sum(axis=1)
// REF: out6 = in7.sum(axis=1)
// REF: out7 = in8.max(axis=1)
// REF: out8 = in9.sum(axis=1)
// TOL: 1e-6

// Five warp kernels (a butterfly of five xor steps each) whose fills fold
// into lane 0's store (the i32 sum's 5 included), the column sum keeps its
// fill and linalg.generic; the short rows' butterflies start at half their
// lanes.
// CHECK-LABEL: func.func @reductions
// CHECK-COUNT-4: arith.xori %{{.*}}, %c16
// CHECK-NOT: arith.xori %{{.*}}, %c16
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK: memref.alloca() : memref<4xf32>
// CHECK-NOT: arith.xori %{{.*}}, %c4{{(_[0-9]+)?}} : index
// CHECK: arith.xori %{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK: memref.alloca() : memref<32xf32>
// CHECK: arith.xori %{{.*}}, %c16
// CHECK: memref.alloca() : memref<4xf32>
// CHECK-NOT: arith.xori %{{.*}}, %c4{{(_[0-9]+)?}} : index
// CHECK: arith.xori %{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK: memref.alloca() : memref<2xf32>
// CHECK-NOT: arith.xori %{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK: arith.xori %{{.*}}, %c1{{(_[0-9]+)?}} : index
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.fill

// VEC-LABEL: func.func @reductions
// VEC: vector.load {{.*}} : memref<64x100xf32>, vector<2xf32>
// VEC: vector.load {{.*}} : memref<4x6x256xf32>, vector<4xf32>
// VEC: vector.load {{.*}} : memref<16x200xf32>, vector<4xf32>
// VEC: vector.load {{.*}} : memref<8x64xi32>, vector<2xi32>
// VEC: vector.load {{.*}} : memref<12x16xf32>, vector<4xf32>
// VEC: vector.load {{.*}} : memref<4x512xf16>, vector<8xf16>
// VEC: memref.load {{.*}} : memref<10x7xf32>
// VEC: vector.load {{.*}} : memref<6x12xf32>, vector<4xf32>

#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#id3 = affine_map<(i, j, k) -> (i, j, k)>
#row3 = affine_map<(i, j, k) -> (i, j)>
#col_in = affine_map<(j, i) -> (i, j)>
#col_out = affine_map<(j, i) -> (j)>
func.func @reductions(%x0: tensor<64x100xf32>, %x1: tensor<4x6x256xf32>,
                      %x2: tensor<16x200xf32>, %m2: tensor<16xf32>,
                      %x3: tensor<8x64xi32>, %x4: tensor<96x24xf32>,
                      %x5: tensor<12x16xf32>, %x6: tensor<4x512xf16>,
                      %x7: tensor<10x7xf32>, %x8: tensor<6x12xf32>)
    -> (tensor<64xf32>, tensor<4x6xf32>, tensor<16xf32>, tensor<8xi32>, tensor<24xf32>, tensor<12xf32>,
        tensor<4xf32>, tensor<10xf32>, tensor<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %five = arith.constant 5 : i32

  %e0 = tensor.empty() : tensor<64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<64x100xf32>) outs(%f0 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>

  %e1 = tensor.empty() : tensor<4x6xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x1 : tensor<4x6x256xf32>) outs(%f1 : tensor<4x6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>

  %e2 = tensor.empty() : tensor<16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  %den = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x2, %m2 : tensor<16x200xf32>, tensor<16xf32>) outs(%f2 : tensor<16xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>

  %e3 = tensor.empty() : tensor<8xi32>
  %f3 = linalg.fill ins(%five : i32) outs(%e3 : tensor<8xi32>) -> tensor<8xi32>
  %isum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x3 : tensor<8x64xi32>) outs(%f3 : tensor<8xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %s = arith.addi %a, %acc : i32
    linalg.yield %s : i32
  } -> tensor<8xi32>

  %e4 = tensor.empty() : tensor<24xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<24xf32>) -> tensor<24xf32>
  %colsum = linalg.generic {indexing_maps = [#col_in, #col_out], iterator_types = ["parallel", "reduction"]}
      ins(%x4 : tensor<96x24xf32>) outs(%f4 : tensor<24xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>

  %e5 = tensor.empty() : tensor<12xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<12xf32>) -> tensor<12xf32>
  %short = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x5 : tensor<12x16xf32>) outs(%f5 : tensor<12xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<12xf32>

  %e6 = tensor.empty() : tensor<4xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<4xf32>) -> tensor<4xf32>
  %hsum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x6 : tensor<4x512xf16>) outs(%f6 : tensor<4xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %w = arith.extf %a : f16 to f32
    %s = arith.addf %w, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>

  %e7 = tensor.empty() : tensor<10xf32>
  %f7 = linalg.fill ins(%ninf : f32) outs(%e7 : tensor<10xf32>) -> tensor<10xf32>
  %max7 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x7 : tensor<10x7xf32>) outs(%f7 : tensor<10xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>

  %e8 = tensor.empty() : tensor<6xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<6xf32>) -> tensor<6xf32>
  %sum12 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x8 : tensor<6x12xf32>) outs(%f8 : tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %sum, %max, %den, %isum, %colsum, %short, %hsum, %max7, %sum12 : tensor<64xf32>, tensor<4x6xf32>, tensor<16xf32>, tensor<8xi32>, tensor<24xf32>, tensor<12xf32>, tensor<4xf32>, tensor<10xf32>, tensor<6xf32>
}
