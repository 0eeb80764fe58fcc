// Row groups on the GPU's one-warp-per-row kernel (--opsnn-gpu-warp-reduce
// fuse-row-ops, the default), run on the CPU (emulate-on-cpu) against NumPy:
// a row reduction and the row reductions and elementwise ops after it on
// the same rows that read its result become one kernel, the per-row
// results passed on in registers. Softmax (max, sum of exp(x - max),
// exp(x - max) / sum: three ops, one kernel), softmax with exp(x - max)
// written out in between (its lanes read back what they wrote: four ops,
// one kernel), layer norm (mean, variance, normalise with per-column
// scale and shift), and a consumer that reads the row maxima transposed
// (another row's value: it stays a kernel of its own), and a softmax over
// rows of 12 (shorter than a warp's vectors: 2 lanes a row, 16 rows a
// warp; lane 0 has vectors 0 and 2, lane 1 vector 1). The forms the ONNX
// importer gives: gpu-row-fusion-importer-emulated.mlir.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-warp-reductions}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-warp-reductions" --mlir-print-ir-after=opsnn-gpu-warp-reduce 2>&1 >/dev/null | FileCheck %s
// REF: e = np.exp(in0 - in0.max(axis=1, keepdims=True)); out0 = e / e.sum(axis=1, keepdims=True)
// REF: e = np.exp(in1 - in1.max(axis=1, keepdims=True)); out1 = e / e.sum(axis=1, keepdims=True)
// REF: mu = in2.mean(axis=1, keepdims=True); var = ((in2 - mu) ** 2).mean(axis=1, keepdims=True); out2 = (in2 - mu) / np.sqrt(var + 1e-5) * in3 + in4
// REF: out3 = in5 - in5.max(axis=1)[None, :]
// REF: e = np.exp(in6 - in6.max(axis=1, keepdims=True)); out4 = e / e.sum(axis=1, keepdims=True)
// TOL: 1e-6

// Every group is one row loop (its reductions' butterflies inside) and
// leaves no linalg op; the transposed read stays a linalg.generic after
// the maxima's own row loop.
// CHECK-LABEL: func.func @row_groups
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16 step
// CHECK-COUNT-2: arith.xori %{{.*}}, %c16
// CHECK-NOT: linalg.generic
// CHECK: scf.for %{{.*}} = %{{.*}} to %c8 step
// CHECK-COUNT-2: arith.xori %{{.*}}, %c16
// CHECK-NOT: linalg.generic
// CHECK: scf.for %{{.*}} = %{{.*}} to %c12 step
// CHECK-COUNT-2: arith.xori %{{.*}}, %c16
// CHECK-NOT: linalg.generic
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64 step
// CHECK: arith.xori %{{.*}}, %c16
// CHECK-NOT: arith.xori %{{.*}}, %c16
// CHECK: linalg.generic
// CHECK: memref.alloca() : memref<2xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c10 step
// CHECK-NOT: arith.xori %{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK-COUNT-2: arith.xori %{{.*}}, %c1{{(_[0-9]+)?}} : index
// CHECK-NOT: linalg.generic

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @row_groups(%x0: tensor<16x200xf32>, %x1: tensor<8x96xf32>,
                      %x2: tensor<12x256xf32>, %gamma: tensor<256xf32>, %beta: tensor<256xf32>,
                      %x3: tensor<64x64xf32>, %x4: tensor<10x12xf32>)
    -> (tensor<16x200xf32>, tensor<8x96xf32>, tensor<12x256xf32>, tensor<64x64xf32>,
        tensor<10x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // Softmax: max, sum of exp(x - max), exp(x - max) / sum.
  %em0 = tensor.empty() : tensor<16xf32>
  %fm0 = linalg.fill ins(%ninf : f32) outs(%em0 : tensor<16xf32>) -> tensor<16xf32>
  %max0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<16x200xf32>) outs(%fm0 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %es0 = tensor.empty() : tensor<16xf32>
  %fs0 = linalg.fill ins(%zero : f32) outs(%es0 : tensor<16xf32>) -> tensor<16xf32>
  %sum0 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x0, %max0 : tensor<16x200xf32>, tensor<16xf32>) outs(%fs0 : tensor<16xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %eo0 = tensor.empty() : tensor<16x200xf32>
  %out0 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x0, %max0, %sum0 : tensor<16x200xf32>, tensor<16xf32>, tensor<16xf32>) outs(%eo0 : tensor<16x200xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<16x200xf32>

  // Softmax with exp(x - max) written out and read back.
  %em1 = tensor.empty() : tensor<8xf32>
  %fm1 = linalg.fill ins(%ninf : f32) outs(%em1 : tensor<8xf32>) -> tensor<8xf32>
  %max1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x1 : tensor<8x96xf32>) outs(%fm1 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %ee1 = tensor.empty() : tensor<8x96xf32>
  %exp1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x1, %max1 : tensor<8x96xf32>, tensor<8xf32>) outs(%ee1 : tensor<8x96xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<8x96xf32>
  %es1 = tensor.empty() : tensor<8xf32>
  %fs1 = linalg.fill ins(%zero : f32) outs(%es1 : tensor<8xf32>) -> tensor<8xf32>
  %sum1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp1 : tensor<8x96xf32>) outs(%fs1 : tensor<8xf32>) {
  ^bb0(%e: f32, %acc: f32):
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %eo1 = tensor.empty() : tensor<8x96xf32>
  %out1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp1, %sum1 : tensor<8x96xf32>, tensor<8xf32>) outs(%eo1 : tensor<8x96xf32>) {
  ^bb0(%e: f32, %s: f32, %o: f32):
    %r = arith.divf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<8x96xf32>

  // Layer norm over rows of 256, scale and shift per column.
  %n = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %es2 = tensor.empty() : tensor<12xf32>
  %fs2 = linalg.fill ins(%zero : f32) outs(%es2 : tensor<12xf32>) -> tensor<12xf32>
  %sum2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x2 : tensor<12x256xf32>) outs(%fs2 : tensor<12xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<12xf32>
  %ev2 = tensor.empty() : tensor<12xf32>
  %fv2 = linalg.fill ins(%zero : f32) outs(%ev2 : tensor<12xf32>) -> tensor<12xf32>
  %var2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x2, %sum2 : tensor<12x256xf32>, tensor<12xf32>) outs(%fv2 : tensor<12xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %mu = arith.divf %s, %n : f32
    %d = arith.subf %a, %mu : f32
    %sq = arith.mulf %d, %d : f32
    %v = arith.addf %sq, %acc : f32
    linalg.yield %v : f32
  } -> tensor<12xf32>
  %eo2 = tensor.empty() : tensor<12x256xf32>
  %out2 = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x2, %sum2, %var2, %gamma, %beta : tensor<12x256xf32>, tensor<12xf32>, tensor<12xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%eo2 : tensor<12x256xf32>) {
  ^bb0(%a: f32, %s: f32, %v: f32, %g: f32, %b: f32, %o: f32):
    %mu = arith.divf %s, %n : f32
    %d = arith.subf %a, %mu : f32
    %var = arith.divf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %y = arith.mulf %d, %rs : f32
    %yg = arith.mulf %y, %g : f32
    %r = arith.addf %yg, %b : f32
    linalg.yield %r : f32
  } -> tensor<12x256xf32>

  // The maxima read transposed: element (i, j) needs row j's maximum.
  %em3 = tensor.empty() : tensor<64xf32>
  %fm3 = linalg.fill ins(%ninf : f32) outs(%em3 : tensor<64xf32>) -> tensor<64xf32>
  %max3 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x3 : tensor<64x64xf32>) outs(%fm3 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %eo3 = tensor.empty() : tensor<64x64xf32>
  %out3 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x3, %max3 : tensor<64x64xf32>, tensor<64xf32>) outs(%eo3 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %r = arith.subf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>

  // Softmax over rows of 12.
  %em4 = tensor.empty() : tensor<10xf32>
  %fm4 = linalg.fill ins(%ninf : f32) outs(%em4 : tensor<10xf32>) -> tensor<10xf32>
  %max4 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x4 : tensor<10x12xf32>) outs(%fm4 : tensor<10xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<10xf32>
  %es4 = tensor.empty() : tensor<10xf32>
  %fs4 = linalg.fill ins(%zero : f32) outs(%es4 : tensor<10xf32>) -> tensor<10xf32>
  %sum4 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x4, %max4 : tensor<10x12xf32>, tensor<10xf32>) outs(%fs4 : tensor<10xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>
  %eo4 = tensor.empty() : tensor<10x12xf32>
  %out4 = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x4, %max4, %sum4 : tensor<10x12xf32>, tensor<10xf32>, tensor<10xf32>) outs(%eo4 : tensor<10x12xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<10x12xf32>
  return %out0, %out1, %out2, %out3, %out4 : tensor<16x200xf32>, tensor<8x96xf32>, tensor<12x256xf32>, tensor<64x64xf32>, tensor<10x12xf32>
}

