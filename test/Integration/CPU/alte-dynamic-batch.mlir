// RUN: %check %s
// The ResNet block with a dynamic batch (run with batch 2), checked as is
// and after ALTE (test/Integration/CPU/alte.test).
// ARGS: 2x64x56x56xf32, 64x64x3x3xf32, 64xf32, 64xf32, 64xf32, 64xf32, 64x64x3x3xf32, 64xf32, 64xf32, 64xf32, 64xf32
// POSITIVE: 5, 10
// REF: pad = lambda t: np.pad(t, ((0, 0), (0, 0), (1, 1), (1, 1)))
// REF: h = ref.relu(ref.batchnorm_nchw(ref.conv_nc(pad(in0), in1), in2, in3, in4, in5))
// REF: out0 = ref.relu(ref.batchnorm_nchw(ref.conv_nc(pad(h), in6), in7, in8, in9, in10) + in0)
// TOL: 1e-5

#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#c = affine_map<(n, c, h, w) -> (c)>
func.func @resnet_block_dynamic(%x: tensor<?x64x56x56xf32>,
    %w1: tensor<64x64x3x3xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %m1: tensor<64xf32>, %v1: tensor<64xf32>,
    %w2: tensor<64x64x3x3xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>, %m2: tensor<64xf32>, %v2: tensor<64xf32>)
    -> tensor<?x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %batch = tensor.dim %x, %c0 : tensor<?x64x56x56xf32>
  %e = tensor.empty(%batch) : tensor<?x64x56x56xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x64x56x56xf32>) -> tensor<?x64x56x56xf32>

  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x64x56x56xf32> to tensor<?x64x58x58xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xp, %w1 : tensor<?x64x58x58xf32>, tensor<64x64x3x3xf32>)
      outs(%acc : tensor<?x64x56x56xf32>) -> tensor<?x64x56x56xf32>
  %h = linalg.generic {indexing_maps = [#x, #c, #c, #c, #c, #x],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %g1, %b1, %m1, %v1 : tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
      outs(%e : tensor<?x64x56x56xf32>) {
  ^bb0(%a: f32, %g: f32, %b: f32, %m: f32, %v: f32, %o: f32):
    %eps = arith.constant 1.0e-5 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %s = arith.mulf %g, %r : f32
    %d = arith.subf %a, %m : f32
    %n = arith.mulf %d, %s : f32
    %y = arith.addf %n, %b : f32
    %relu = arith.maximumf %y, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<?x64x56x56xf32>

  %hp = tensor.pad %h low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x64x56x56xf32> to tensor<?x64x58x58xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%hp, %w2 : tensor<?x64x58x58xf32>, tensor<64x64x3x3xf32>)
      outs(%acc : tensor<?x64x56x56xf32>) -> tensor<?x64x56x56xf32>
  %out = linalg.generic {indexing_maps = [#x, #c, #c, #c, #c, #x, #x],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %g2, %b2, %m2, %v2, %x : tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<?x64x56x56xf32>)
      outs(%e : tensor<?x64x56x56xf32>) {
  ^bb0(%a: f32, %g: f32, %b: f32, %m: f32, %v: f32, %skip: f32, %o: f32):
    %eps = arith.constant 1.0e-5 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %s = arith.mulf %g, %r : f32
    %d = arith.subf %a, %m : f32
    %n = arith.mulf %d, %s : f32
    %y = arith.addf %n, %b : f32
    %sum = arith.addf %y, %skip : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<?x64x56x56xf32>
  return %out : tensor<?x64x56x56xf32>
}
