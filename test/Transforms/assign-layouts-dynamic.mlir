// Dynamic shapes do not multiply conversions: the ResNet block with a
// dynamic batch gets exactly the conversions of the static one (costs use
// dynamic-size-hint for the batch, so the decisions are the same), and
// after propagation each activation is converted once, into the block and
// out of it, whatever the batch. Dynamic empty tensors are re-created in
// the new layout instead of converted. The dynamic block is executed in
// test/Integration/CPU/alte-dynamic-batch.mlir.
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=a100" | FileCheck %s --check-prefix=ASSIGN
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=a100" --opsnn-propagate-layouts | FileCheck %s

// After assignment: the input, two filters, the second conv's result.
// ASSIGN-LABEL: func @resnet_block(
// ASSIGN-COUNT-4: layout.convert
// ASSIGN-NOT: layout.convert
// ASSIGN: return
// ASSIGN-LABEL: func @resnet_block_dynamic(
// ASSIGN-COUNT-4: layout.convert
// ASSIGN-NOT: layout.convert
// ASSIGN: return

// After propagation the last conversion is folded into the final
// batch-norm/add/relu generic's indexing map (it reads NHWC directly), and
// the conversions of arguments run first, once per call.
// CHECK-LABEL: func @resnet_block(
// CHECK-COUNT-3: layout.convert
// CHECK-NOT: layout.convert
// CHECK: return
// CHECK-LABEL: func @resnet_block_dynamic(
// CHECK: layout.convert %arg0 from "NCHW" to "NHWC" : tensor<?x64x56x56xf32> -> tensor<?x56x56x64xf32>
// CHECK: layout.convert %arg1 from "FCHW" to "HWCF"
// CHECK: layout.convert %arg6 from "FCHW" to "HWCF"
// CHECK-NOT: layout.convert
// CHECK: tensor.empty(%{{.*}}) : tensor<?x56x56x64xf32>
// CHECK-NOT: layout.convert
// CHECK: return

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
