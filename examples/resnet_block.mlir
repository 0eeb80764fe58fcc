// A ResNet-50 stage-1 basic block in the framework's layout (NCHW, f32):
//   y = relu(bn2(conv2(relu(bn1(conv1(x))))) + x)
// with 3x3 convolutions (64 -> 64 channels, padding 1) on 1x64x56x56 and
// inference-mode batch norm (scale, shift, running mean, running variance).
//
// Run it:   ./scripts/demo.sh  (or see README: ops-nn-run ... --repeat)
// Checked against NumPy by test/Integration/CPU/resnet-block.mlir with the
// directives below (test/Integration/check.py).
//
// POSITIVE: 5, 10
// REF: pad = lambda t: np.pad(t, ((0, 0), (0, 0), (1, 1), (1, 1)))
// REF: h = ref.relu(ref.batchnorm_nchw(ref.conv_nc(pad(in0), in1), in2, in3, in4, in5))
// REF: out0 = ref.relu(ref.batchnorm_nchw(ref.conv_nc(pad(h), in6), in7, in8, in9, in10) + in0)
// TOL: 1e-5

#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#c = affine_map<(n, c, h, w) -> (c)>
func.func @resnet_block(%x: tensor<1x64x56x56xf32>,
    %w1: tensor<64x64x3x3xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %m1: tensor<64xf32>, %v1: tensor<64xf32>,
    %w2: tensor<64x64x3x3xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>, %m2: tensor<64xf32>, %v2: tensor<64xf32>)
    -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>

  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xp, %w1 : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>)
      outs(%acc : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %h = linalg.generic {indexing_maps = [#x, #c, #c, #c, #c, #x],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %g1, %b1, %m1, %v1 : tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
      outs(%e : tensor<1x64x56x56xf32>) {
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
  } -> tensor<1x64x56x56xf32>

  %hp = tensor.pad %h low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%hp, %w2 : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>)
      outs(%acc : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %out = linalg.generic {indexing_maps = [#x, #c, #c, #c, #c, #x, #x],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %g2, %b2, %m2, %v2, %x : tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<1x64x56x56xf32>)
      outs(%e : tensor<1x64x56x56xf32>) {
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
  } -> tensor<1x64x56x56xf32>
  return %out : tensor<1x64x56x56xf32>
}
