// Row groups (--opsnn-gpu-warp-reduce fuse-row-ops) on the forms the ONNX
// importer gives, run on the CPU (emulate-on-cpu) against NumPy:
// linalg.softmax over the last of three dimensions (decomposed into max,
// exp(x - max), sum and division, and bufferized with the sum overwriting
// the max's buffer and the division in place: still one kernel, every
// access to a reused buffer through one map), and layer norm as
// linalg.reduce (taken as its linalg.generic), a mean per row (an
// elementwise op over the rows alone: computed in every lane from the
// sum in registers), the variance and the normalisation: one kernel.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-warp-reductions}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-warp-reductions" --mlir-print-ir-after=opsnn-gpu-warp-reduce 2>&1 >/dev/null | FileCheck %s
// REF: e = np.exp(in0 - in0.max(axis=2, keepdims=True)); out0 = e / e.sum(axis=2, keepdims=True)
// REF: mu = in1.mean(axis=2, keepdims=True); var = ((in1 - mu) ** 2).mean(axis=2, keepdims=True); out1 = (in1 - mu) / np.sqrt(var + 1e-5) * in2
// TOL: 1e-6

// One row loop each (32 and 12 rows), no linalg op left.
// CHECK-LABEL: func.func @importer_forms
// CHECK-NOT: linalg.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32 step %c1
// CHECK-COUNT-2: arith.xori %{{.*}}, %c16
// CHECK-NOT: linalg.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c12 step %c1
// CHECK-COUNT-2: arith.xori %{{.*}}, %c16
// CHECK-NOT: linalg.
// CHECK: return

#full3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#cols3 = affine_map<(d0, d1, d2) -> (d2)>
func.func @importer_forms(%x: tensor<4x8x96xf32>, %y: tensor<2x6x128xf32>, %g: tensor<128xf32>)
    -> (tensor<4x8x96xf32>, tensor<2x6x128xf32>) {
  %e = tensor.empty() : tensor<4x8x96xf32>
  %sm = linalg.softmax dimension(2) ins(%x : tensor<4x8x96xf32>) outs(%e : tensor<4x8x96xf32>) -> tensor<4x8x96xf32>

  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %es = tensor.empty() : tensor<2x6xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6xf32>) -> tensor<2x6xf32>
  %sum = linalg.reduce ins(%y : tensor<2x6x128xf32>) outs(%fs : tensor<2x6xf32>) dimensions = [2]
    (%a: f32, %o: f32) {
      %r = arith.addf %a, %o : f32
      linalg.yield %r : f32
    }
  %em = tensor.empty() : tensor<2x6xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2x6xf32>) outs(%em : tensor<2x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<2x6xf32>
  %ev = tensor.empty() : tensor<2x6xf32>
  %fv = linalg.fill ins(%zero : f32) outs(%ev : tensor<2x6xf32>) -> tensor<2x6xf32>
  %var = linalg.generic {indexing_maps = [#full3, #rows3, #rows3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%y, %mean : tensor<2x6x128xf32>, tensor<2x6xf32>) outs(%fv : tensor<2x6xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %q, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x6xf32>
  %eo = tensor.empty() : tensor<2x6x128xf32>
  %ln = linalg.generic {indexing_maps = [#full3, #rows3, #rows3, #cols3, #full3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y, %mean, %var, %g : tensor<2x6x128xf32>, tensor<2x6xf32>, tensor<2x6xf32>, tensor<128xf32>) outs(%eo : tensor<2x6x128xf32>) {
  ^bb0(%a: f32, %m: f32, %v: f32, %gg: f32, %o: f32):
    %v1 = arith.divf %v, %n : f32
    %v2 = arith.addf %v1, %eps : f32
    %inv = math.rsqrt %v2 : f32
    %d = arith.subf %a, %m : f32
    %y0 = arith.mulf %d, %inv : f32
    %y1 = arith.mulf %y0, %gg : f32
    linalg.yield %y1 : f32
  } -> tensor<2x6x128xf32>
  return %sm, %ln : tensor<4x8x96xf32>, tensor<2x6x128xf32>
}
