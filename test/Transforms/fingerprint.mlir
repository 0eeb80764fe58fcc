// RUN: ops-nn-opt %s -split-input-file --opsnn-fingerprint | FileCheck %s

// conv_2d_nchw_fchw, stride 2: 1*4*4*4 outputs x 3*3*3 taps = 1728 MACs =
// 3456 FLOPs; reads x (972 B), w (432 B) and the accumulator (256 B),
// writes 256 B.
// CHECK-LABEL: func @conv_named
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-SAME: opsnn.fingerprint = {bytes_read = 1660 : i64, bytes_written = 256 : i64, class = "conv", flops = 3456 : i64, intensity = 1.80{{[0-9]*}} : f64, roles = ["batch", "output_channel", "spatial", "spatial", "input_channel", "window", "window"], sizes = array<i64: 1, 4, 4, 4, 3, 3, 3>}
func.func @conv_named(%x: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// The same convolution written as a linalg.generic is recognised as one,
// with identical numbers.
// CHECK-LABEL: func @conv_generic
// CHECK: linalg.generic
// CHECK-SAME: opsnn.fingerprint = {bytes_read = 1660 : i64, bytes_written = 256 : i64, class = "conv", flops = 3456 : i64, {{.*}}roles = ["batch", "output_channel", "spatial", "spatial", "input_channel", "window", "window"]
func.func @conv_generic(%x: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>,
                                        affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>,
                                        affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%o : tensor<1x4x4x4xf32>) {
  ^bb0(%i: f32, %f: f32, %acc: f32):
    %m = arith.mulf %i, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Depthwise NHWC: the channel is a "depth" dimension kept through the op.
// CHECK-LABEL: func @depthwise
// CHECK: class = "conv"
// CHECK-SAME: roles = ["batch", "spatial", "spatial", "depth", "window", "window"]
func.func @depthwise(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// Pooling: the window operand only shapes the loops (never read).
// 1*2*4*4 outputs x 9 taps = 288 max operations. The pooled channel is a
// "depth" dimension like a depthwise convolution's.
// CHECK-LABEL: func @pooling
// CHECK: opsnn.fingerprint = {bytes_read = 776 : i64, bytes_written = 128 : i64, class = "pooling", flops = 288 : i64
// CHECK-SAME: roles = ["batch", "depth", "spatial", "spatial", "window", "window"]
func.func @pooling(%x: tensor<1x2x9x9xf32>, %o: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %k = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nchw_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x2x9x9xf32>, tensor<3x3xf32>) outs(%o : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// 3-D convolution (NDHWC/DHWCF) and 3-D sum pooling (NHWC family): three
// spatial and three window dimensions. conv: 2*2*2*2*8 outputs x 27*4
// taps x 2 = 13824 FLOPs; pool: 1*2*2*2*4 outputs x 8 taps = 256 adds.
// CHECK-LABEL: func @three_d
// CHECK: linalg.conv_3d_ndhwc_dhwcf {{.*}}class = "conv", flops = 13824 : i64
// CHECK-SAME: roles = ["batch", "spatial", "spatial", "spatial", "output_channel", "window", "window", "window", "input_channel"]
// CHECK: linalg.pooling_ndhwc_sum {{.*}}class = "pooling", flops = 256 : i64
// CHECK-SAME: roles = ["batch", "spatial", "spatial", "spatial", "depth", "window", "window", "window"]
func.func @three_d(%x: tensor<1x4x4x4x4xf32>, %w: tensor<3x3x3x4x8xf32>, %o: tensor<1x2x2x2x8xf32>,
                   %p: tensor<1x2x2x2x4xf32>) -> (tensor<1x2x2x2x8xf32>, tensor<1x2x2x2x4xf32>) {
  %0 = linalg.conv_3d_ndhwc_dhwcf {strides = dense<1> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x4x4x4xf32>, tensor<3x3x3x4x8xf32>) outs(%o : tensor<1x2x2x2x8xf32>) -> tensor<1x2x2x2x8xf32>
  %k = tensor.empty() : tensor<2x2x2xf32>
  %1 = linalg.pooling_ndhwc_sum {strides = dense<2> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>}
      ins(%x, %k : tensor<1x4x4x4x4xf32>, tensor<2x2x2xf32>) outs(%p : tensor<1x2x2x2x4xf32>) -> tensor<1x2x2x2x4xf32>
  return %0, %1 : tensor<1x2x2x2x8xf32>, tensor<1x2x2x2x4xf32>
}

// -----

// matmul: 2*64*48*32 FLOPs; a, b and the accumulator read, c written.
// CHECK-LABEL: func @matmul
// CHECK: opsnn.fingerprint = {bytes_read = 26624 : i64, bytes_written = 12288 : i64, class = "contraction", flops = 196608 : i64, intensity = 5.05{{[0-9]*}} : f64, roles = ["m", "n", "k"], sizes = array<i64: 64, 48, 32>}
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}

// -----

// INT8 batch matmul into i32: 1-byte operands (1024 + 2048 B), 4-byte
// accumulator (1024 B); 2*2*8*16*64 ops, the casts in the payload are free.
// CHECK-LABEL: func @batch_matmul_i8
// CHECK: opsnn.fingerprint = {bytes_read = 4096 : i64, bytes_written = 1024 : i64, class = "contraction", flops = 32768 : i64
// CHECK-SAME: roles = ["batch", "m", "n", "k"], sizes = array<i64: 2, 8, 16, 64>
func.func @batch_matmul_i8(%a: tensor<2x8x64xi8>, %b: tensor<2x64x16xi8>, %c: tensor<2x8x16xi32>) -> tensor<2x8x16xi32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x8x64xi8>, tensor<2x64x16xi8>) outs(%c : tensor<2x8x16xi32>) -> tensor<2x8x16xi32>
  return %0 : tensor<2x8x16xi32>
}

// -----

// A matmul as a linalg.generic (transposed B) is a contraction too.
// CHECK-LABEL: func @matmul_generic
// CHECK: class = "contraction", flops = 196608 : i64
func.func @matmul_generic(%a: tensor<64x32xf32>, %bt: tensor<48x32xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %bt : tensor<64x32xf32>, tensor<48x32xf32>) outs(%c : tensor<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}

// -----

// Dynamic M: counts are polynomials in d0 (the dynamic loop), no intensity.
// CHECK-LABEL: func @matmul_dynamic
// CHECK: opsnn.fingerprint = {bytes_read = "320*d0 + 6144", bytes_written = "192*d0", class = "contraction", flops = "3072*d0", roles = ["m", "n", "k"], sizes = array<i64: -1, 48, 32>, symbolic}
func.func @matmul_dynamic(%a: tensor<?x32xf32>, %b: tensor<32x48xf32>, %c: tensor<?x48xf32>) -> tensor<?x48xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x32xf32>, tensor<32x48xf32>) outs(%c : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %0 : tensor<?x48xf32>
}

// -----

// A dynamic size with a known upper bound (a tile: min(n, 16)) counts as
// its bound, and the fingerprint says so: 2*16*48*32 FLOPs.
// CHECK-LABEL: func @matmul_bounded
// CHECK: opsnn.fingerprint = {bytes_read = 11264 : i64, bytes_written = 3072 : i64, class = "contraction", flops = 49152 : i64, {{.*}}sizes = array<i64: 16, 48, 32>, upper_bound_dims = array<i64: 0>}
func.func @matmul_bounded(%a: tensor<?x32xf32>, %b: tensor<32x48xf32>, %n: index) -> tensor<?x48xf32> {
  %m = affine.min affine_map<(d0) -> (d0, 16)>(%n)
  %s = tensor.extract_slice %a[0, 0] [%m, 32] [1, 1] : tensor<?x32xf32> to tensor<?x32xf32>
  %e = tensor.empty(%m) : tensor<?x48xf32>
  %0 = linalg.matmul ins(%s, %b : tensor<?x32xf32>, tensor<32x48xf32>) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %0 : tensor<?x48xf32>
}

// -----

#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#c = affine_map<(n, c, h, w) -> (c)>
// Elementwise (ReLU), broadcast (bias add), normalization (a batch norm as
// it appears lowered: rsqrt of a broadcast variance).
// CHECK-LABEL: func @pointwise
// CHECK: opsnn.fingerprint = {bytes_read = 512 : i64, bytes_written = 512 : i64, class = "elementwise", flops = 128 : i64
// CHECK: opsnn.fingerprint = {bytes_read = 520 : i64, bytes_written = 512 : i64, class = "broadcast", flops = 128 : i64
// CHECK: opsnn.fingerprint = {bytes_read = 528 : i64, bytes_written = 512 : i64, class = "normalization", flops = 512 : i64
func.func @pointwise(%x: tensor<1x2x8x8xf32>, %bias: tensor<2xf32>, %var: tensor<2xf32>) -> (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) {
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %add = linalg.generic {indexing_maps = [#x, #c, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %bias : tensor<1x2x8x8xf32>, tensor<2xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %bn = linalg.generic {indexing_maps = [#x, #c, #c, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %bias, %var : tensor<1x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %v: f32, %o: f32):
    %eps = arith.constant 1.0e-5 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %n = arith.mulf %d, %r : f32
    linalg.yield %n : f32
  } -> tensor<1x2x8x8xf32>
  return %relu, %add, %bn : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>
}

// -----

// Reductions, data movement (transpose, fill, layout.convert, pad;
// reshapes move no bytes), gather (a payload that extracts), softmax.
// CHECK-LABEL: func @others
// CHECK: linalg.reduce {{.*}}opsnn.fingerprint = {bytes_read = 576 : i64, bytes_written = 64 : i64, class = "reduction", flops = 128 : i64
// CHECK: linalg.transpose {{.*}}opsnn.fingerprint = {bytes_read = 512 : i64, bytes_written = 512 : i64, class = "data_movement", flops = 0 : i64
// CHECK: linalg.fill {{.*}}opsnn.fingerprint = {bytes_read = 0 : i64, bytes_written = 512 : i64, class = "data_movement"
// CHECK: layout.convert {{.*}}opsnn.fingerprint = {bytes_read = 512 : i64, bytes_written = 512 : i64, class = "data_movement", flops = 0 : i64, intensity = 0.000000e+00 : f64}
// CHECK: tensor.pad
// CHECK: } {opsnn.fingerprint = {bytes_read = 512 : i64, bytes_written = 800 : i64, class = "data_movement"
// CHECK: tensor.collapse_shape {{.*}}opsnn.fingerprint = {bytes_read = 0 : i64, bytes_written = 0 : i64, class = "data_movement"
// CHECK: linalg.generic {{.*}}opsnn.fingerprint = {bytes_read = 96 : i64, bytes_written = 64 : i64, class = "gather"
// CHECK: linalg.softmax {opsnn.fingerprint = {bytes_read = 512 : i64, bytes_written = 512 : i64, class = "softmax", flops = 640 : i64, intensity = 6.250000e-01 : f64}}
func.func @others(%x: tensor<1x2x8x8xf32>, %ids: tensor<4xindex>, %table: tensor<100x4xf32>)
    -> (tensor<1x2x8xf32>, tensor<1x8x8x2xf32>, tensor<1x2x8x8xf32>, tensor<1x8x8x2xf32>, tensor<1x2x10x10xf32>, tensor<128xf32>, tensor<4x4xf32>, tensor<1x2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<1x2x8xf32>
  %s = linalg.reduce ins(%x : tensor<1x2x8x8xf32>) outs(%e3 : tensor<1x2x8xf32>) dimensions = [3]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %et = tensor.empty() : tensor<1x8x8x2xf32>
  %t = linalg.transpose ins(%x : tensor<1x2x8x8xf32>) outs(%et : tensor<1x8x8x2xf32>) permutation = [0, 2, 3, 1]
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %l = layout.convert %x from "NCHW" to "NHWC" : tensor<1x2x8x8xf32> -> tensor<1x8x8x2xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %m: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %r = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<1x2x8x8xf32> into tensor<128xf32>
  %eg = tensor.empty() : tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xindex>) outs(%eg : tensor<4x4xf32>) {
  ^bb0(%id: index, %o: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%id, %j] : tensor<100x4xf32>
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  %sm = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  return %s, %t, %f, %l, %p, %r, %g, %sm : tensor<1x2x8xf32>, tensor<1x8x8x2xf32>, tensor<1x2x8x8xf32>, tensor<1x8x8x2xf32>, tensor<1x2x10x10xf32>, tensor<128xf32>, tensor<4x4xf32>, tensor<1x2x8x8xf32>
}
