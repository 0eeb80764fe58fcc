// RUN: %check %s
// Boolean tensors: the vectorized CPU pipeline must not store vector<..xi1>
// (packed bits in LLVM) into a memref of i1 (one byte per element); ops on
// i1 tensors stay scalar.
// VALUES: int [-2, 2]
// REF: out0 = (in0 == in1)
// TOL: 0
func.func @equal(%a: tensor<16xi32>, %b: tensor<16xi32>) -> tensor<16xi1> {
  %e = tensor.empty() : tensor<16xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<16xi32>, tensor<16xi32>) outs(%e : tensor<16xi1>) {
  ^bb0(%x: i32, %y: i32, %o: i1):
    %c = arith.cmpi eq, %x, %y : i32
    linalg.yield %c : i1
  } -> tensor<16xi1>
  return %r : tensor<16xi1>
}
