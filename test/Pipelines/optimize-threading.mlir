// --opsnn-optimize gives the same output with and without multithreading:
// the function passes run on the functions in parallel, and nothing they
// record (decisions, ranges, constants) depends on the order.
// RUN: ops-nn-opt %s --opsnn-optimize="target=a100 precision=mixed-fp16" --mlir-disable-threading > %t.serial.mlir
// RUN: ops-nn-opt %s --opsnn-optimize="target=a100 precision=mixed-fp16" --mlir-disable-threading=false > %t.parallel.mlir
// RUN: diff %t.serial.mlir %t.parallel.mlir
// RUN: FileCheck %s < %t.parallel.mlir

// CHECK-LABEL: func.func @conv_a
// CHECK: layout.convert %{{.*}} from "NCHW" to "NHWC"
// CHECK: precision.decision = {precision = f16
// CHECK-LABEL: func.func @conv_b
// CHECK: layout.convert %{{.*}} from "NCHW" to "NHWC"
// CHECK: precision.decision = {precision = f16
// CHECK-LABEL: func.func @matmul_relu
// CHECK: precision.decision = {precision = f16
// CHECK-LABEL: func.func @conv_c

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>

func.func @conv_a(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x54x54xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>)
                                outs(%acc : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x64x56x56xf32>) outs(%e : tensor<1x64x56x56xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>
  %e2 = tensor.empty() : tensor<1x64x54x54xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%r, %w : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>)
                                 outs(%acc2 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  return %c2 : tensor<1x64x54x54xf32>
}

func.func @conv_b(%x: tensor<2x32x30x30xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<2x32x26x26xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x32x28x28xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32x28x28xf32>) -> tensor<2x32x28x28xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<2x32x30x30xf32>, tensor<32x32x3x3xf32>)
                                outs(%acc : tensor<2x32x28x28xf32>) -> tensor<2x32x28x28xf32>
  %e2 = tensor.empty() : tensor<2x32x26x26xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x32x26x26xf32>) -> tensor<2x32x26x26xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%c, %w : tensor<2x32x28x28xf32>, tensor<32x32x3x3xf32>)
                                 outs(%acc2 : tensor<2x32x26x26xf32>) -> tensor<2x32x26x26xf32>
  return %c2 : tensor<2x32x26x26xf32>
}

func.func @matmul_relu(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                      outs(%acc : tensor<128x64xf32>) -> tensor<128x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<128x64xf32>) outs(%e : tensor<128x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

func.func @conv_c(%x: tensor<1x16x18x18xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x16x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x16x18x18xf32>, tensor<16x16x3x3xf32>)
                                outs(%acc : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %c : tensor<1x16x16x16xf32>
}
