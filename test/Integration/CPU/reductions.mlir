// RUN: %check %s
// With the reductions' loops innermost (the GPU pipeline's order; out1's
// channel max and out0's sum over H, W are interchanged):
// RUN: %check --pipeline="func.func(opsnn-interchange-parallel-first),opsnn-lower-to-cpu" %s
// Reductions: global average pooling (sum over H, W), max over channels
// (linalg.reduce), sum of squares over the last axis (a generic).
// REF: out0 = in0.sum(axis=(2, 3)) / (7 * 13)
// REF: out1 = in0.max(axis=1)
// REF: out2 = (in1 * in1).sum(axis=1)
// TOL: 1e-5

func.func @red(%x: tensor<2x6x7x13xf32>, %y: tensor<5x100xf32>)
    -> (tensor<2x6xf32>, tensor<2x7x13xf32>, tensor<5xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %inv = arith.constant 0.010989010989010988 : f32
  %e = tensor.empty() : tensor<2x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6xf32>) -> tensor<2x6xf32>
  %s = linalg.reduce ins(%x : tensor<2x6x7x13xf32>) outs(%z : tensor<2x6xf32>) dimensions = [2, 3]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %mean = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<2x6xf32>) outs(%e : tensor<2x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %inv : f32
    linalg.yield %r : f32
  } -> tensor<2x6xf32>
  %e1 = tensor.empty() : tensor<2x7x13xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2x7x13xf32>) -> tensor<2x7x13xf32>
  %m = linalg.reduce ins(%x : tensor<2x6x7x13xf32>) outs(%m0 : tensor<2x7x13xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %e2 = tensor.empty() : tensor<5xf32>
  %q0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<5xf32>) -> tensor<5xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<5x100xf32>) outs(%q0 : tensor<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %acc : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  return %mean, %m, %q : tensor<2x6xf32>, tensor<2x7x13xf32>, tensor<5xf32>
}
