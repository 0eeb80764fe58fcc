// RUN: %check %s
// Elementwise and broadcast generics: bias add (channel broadcast), ReLU,
// GELU (erf), sigmoid, tanh, exp; odd sizes.
// REF: b = in0 + in1.reshape(1, -1, 1, 1)
// REF: out0 = ref.relu(b)
// REF: out1 = ref.gelu_erf(b)
// REF: out2 = 1 / (1 + np.exp(-in2)) + np.tanh(in2) * np.exp(in2 / 4)
// TOL: 1e-5

#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#c = affine_map<(n, c, h, w) -> (c)>
#m = affine_map<(i, j) -> (i, j)>
func.func @ew(%x: tensor<2x5x7x13xf32>, %bias: tensor<5xf32>, %y: tensor<9x31xf32>)
    -> (tensor<2x5x7x13xf32>, tensor<2x5x7x13xf32>, tensor<9x31xf32>) {
  %e = tensor.empty() : tensor<2x5x7x13xf32>
  %b = linalg.generic {indexing_maps = [#x, #c, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %bias : tensor<2x5x7x13xf32>, tensor<5xf32>) outs(%e : tensor<2x5x7x13xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x5x7x13xf32>
  %relu = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<2x5x7x13xf32>) outs(%e : tensor<2x5x7x13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x5x7x13xf32>
  %gelu = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<2x5x7x13xf32>) outs(%e : tensor<2x5x7x13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.70710678118654752 : f32
    %s = arith.mulf %a, %rsqrt2 : f32
    %erf = math.erf %s : f32
    %p = arith.addf %erf, %one : f32
    %h = arith.mulf %a, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x5x7x13xf32>
  %e2 = tensor.empty() : tensor<9x31xf32>
  %z = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<9x31xf32>) outs(%e2 : tensor<9x31xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %quarter = arith.constant 0.25 : f32
    %na = arith.negf %a : f32
    %en = math.exp %na : f32
    %d = arith.addf %one, %en : f32
    %sig = arith.divf %one, %d : f32
    %t = math.tanh %a : f32
    %q = arith.mulf %a, %quarter : f32
    %eq = math.exp %q : f32
    %te = arith.mulf %t, %eq : f32
    %r = arith.addf %sig, %te : f32
    linalg.yield %r : f32
  } -> tensor<9x31xf32>
  return %relu, %gelu, %z : tensor<2x5x7x13xf32>, tensor<2x5x7x13xf32>, tensor<9x31xf32>
}
