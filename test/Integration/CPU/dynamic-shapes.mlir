// RUN: %check %s
// Dynamic shapes: a matmul with dynamic M and K and a broadcast bias add
// with dynamic rows, run on 7x13 @ 13x24.
// ARGS: 7x13xf32, 13x24xf32, 24xf32
// REF: out0 = in0 @ in1 + in2
// TOL: 1e-5

func.func @dyn(%a: tensor<?x?xf32>, %b: tensor<?x24xf32>, %bias: tensor<24xf32>) -> tensor<?x24xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x24xf32>) -> tensor<?x24xf32>
  %c = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x24xf32>) outs(%acc : tensor<?x24xf32>) -> tensor<?x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<?x24xf32>, tensor<24xf32>) outs(%e : tensor<?x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x24xf32>
  return %r : tensor<?x24xf32>
}
