// RUN: %check %s
// Ops ALTE rewrites by permuting indices rather than by swapping named
// ops: a 4-D softmax over the channels, a pad, a generic that reads
// linalg.index of the width, a reduction over H and W. Run as is here and
// with every op in NHWC by test/Integration/CPU/alte.test.
// REF: e = np.exp(in0 - in0.max(axis=1, keepdims=True))
// REF: out0 = e / e.sum(axis=1, keepdims=True)
// REF: out1 = np.pad(in0, ((0, 0), (0, 0), (1, 2), (2, 1))) + np.arange(10.0)
// REF: out2 = in0.sum(axis=(2, 3))
// TOL: 1e-5

func.func @models(%x: tensor<2x6x5x7xf32>) -> (tensor<2x6x5x7xf32>, tensor<2x6x8x10xf32>, tensor<2x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x5x7xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x6x5x7xf32>) outs(%e : tensor<2x6x5x7xf32>) -> tensor<2x6x5x7xf32>
  %p = tensor.pad %x low[0, 0, 1, 2] high[0, 0, 2, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x6x5x7xf32> to tensor<2x6x8x10xf32>
  %ep = tensor.empty() : tensor<2x6x8x10xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<2x6x8x10xf32>) outs(%ep : tensor<2x6x8x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.addf %a, %f : f32
    linalg.yield %r : f32
  } -> tensor<2x6x8x10xf32>
  %er = tensor.empty() : tensor<2x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<2x6xf32>) -> tensor<2x6xf32>
  %sum = linalg.reduce ins(%x : tensor<2x6x5x7xf32>) outs(%z : tensor<2x6xf32>) dimensions = [2, 3]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %s, %w, %sum : tensor<2x6x5x7xf32>, tensor<2x6x8x10xf32>, tensor<2x6xf32>
}
