// Every upstream op with a LayoutTransformOpInterface model, rewritten into
// channels-last by pinning each op class (and back into channels-first for
// an op already channels-last). The results keep their meaning: every
// rewrite converts its activations in and its results back; the
// executed versions are test/Integration/CPU/alte-*.test.
// RUN: ops-nn-opt %s --opsnn-assign-layouts="prefer=conv:nhwc,pool:nhwc,elementwise:nhwc,reduction:nhwc,softmax:nhwc,data-movement:nhwc,norm:nhwc" | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-assign-layouts="prefer=conv:nchw" | FileCheck %s --check-prefix=NCHW

// The maps of the rewritten generic (@generic_index).
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[LAST:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>

// CHECK-LABEL: func @conv1d
// CHECK: %[[X:.*]] = layout.convert %arg0 from "NCW" to "NWC" : tensor<2x3x17xf32> -> tensor<2x17x3xf32>
// CHECK: %[[W:.*]] = layout.convert %arg1 from "FCW" to "WCF" : tensor<4x3x3xf32> -> tensor<3x3x4xf32>
// CHECK: %[[O:.*]] = layout.convert %arg2 from "NCW" to "NWC"
// CHECK: %[[C:.*]] = linalg.conv_1d_nwc_wcf {{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[O]] : tensor<2x15x4xf32>)
// CHECK: %[[R:.*]] = layout.convert %[[C]] from "NWC" to "NCW"
// CHECK: return %[[R]]
// NCHW-LABEL: func @conv1d
// NCHW-NOT: layout.convert
func.func @conv1d(%x: tensor<2x3x17xf32>, %w: tensor<4x3x3xf32>, %o: tensor<2x4x15xf32>) -> tensor<2x4x15xf32> {
  %0 = linalg.conv_1d_ncw_fcw {strides = dense<1> : tensor<1xi64>, dilations = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<2x3x17xf32>, tensor<4x3x3xf32>) outs(%o : tensor<2x4x15xf32>) -> tensor<2x4x15xf32>
  return %0 : tensor<2x4x15xf32>
}

// CHECK-LABEL: func @conv3d
// CHECK: layout.convert %arg0 from "NCDHW" to "NDHWC" : tensor<1x3x5x6x7xf32> -> tensor<1x5x6x7x3xf32>
// CHECK: layout.convert %arg1 from "FCDHW" to "DHWCF" : tensor<4x3x2x2x2xf32> -> tensor<2x2x2x3x4xf32>
// CHECK: linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
// CHECK: layout.convert %{{.*}} from "NDHWC" to "NCDHW"
func.func @conv3d(%x: tensor<1x3x5x6x7xf32>, %w: tensor<4x3x2x2x2xf32>, %o: tensor<1x4x4x5x6xf32>) -> tensor<1x4x4x5x6xf32> {
  %0 = linalg.conv_3d_ncdhw_fcdhw {strides = dense<1> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x3x5x6x7xf32>, tensor<4x3x2x2x2xf32>) outs(%o : tensor<1x4x4x5x6xf32>) -> tensor<1x4x4x5x6xf32>
  return %0 : tensor<1x4x4x5x6xf32>
}

// CHECK-LABEL: func @depthwise
// CHECK: layout.convert %arg1 from "CHW" to "HWC" : tensor<8x3x3xf32> -> tensor<3x3x8xf32>
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise(%x: tensor<1x8x9x9xf32>, %w: tensor<8x3x3xf32>, %o: tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x9x9xf32>, tensor<8x3x3xf32>) outs(%o : tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32>
  return %0 : tensor<1x8x7x7xf32>
}

// Already channels-last: left alone; asked for channels-first it becomes
// conv_2d_nchw_fchw.
// CHECK-LABEL: func @conv_fhwc
// CHECK-NOT: layout.convert
// CHECK: linalg.conv_2d_nhwc_fhwc
// NCHW-LABEL: func @conv_fhwc
// NCHW: %[[X:.*]] = layout.convert %arg0 from "NHWC" to "NCHW" : tensor<1x9x9x8xf32> -> tensor<1x8x9x9xf32>
// NCHW: %[[W:.*]] = layout.convert %arg1 from "FHWC" to "FCHW" : tensor<16x3x3x8xf32> -> tensor<16x8x3x3xf32>
// NCHW: %[[O:.*]] = layout.convert %arg2 from "NHWC" to "NCHW"
// NCHW: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[O]] : tensor<1x16x7x7xf32>)
// NCHW: layout.convert %[[C]] from "NCHW" to "NHWC"
func.func @conv_fhwc(%x: tensor<1x9x9x8xf32>, %w: tensor<16x3x3x8xf32>, %o: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  %0 = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x8xf32>, tensor<16x3x3x8xf32>) outs(%o : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %0 : tensor<1x7x7x16xf32>
}

// The pooling window has no layout.
// CHECK-LABEL: func @pool
// CHECK: %[[K:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[X:.*]] = layout.convert %arg0 from "NCHW" to "NHWC"
// CHECK: linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %[[K]] : tensor<1x9x9x8xf32>, tensor<3x3xf32>)
func.func @pool(%x: tensor<1x8x9x9xf32>, %o: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %k = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nchw_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x8x9x9xf32>, tensor<3x3xf32>) outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>

// Loops follow the layout (channels innermost); the bias map follows its
// loop and linalg.index 3 (the width) becomes loop 2.
// CHECK-LABEL: func @generic_index
// CHECK: %[[X:.*]] = layout.convert %arg0 from "NCHW" to "NHWC"
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x5x7x8xf32>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[LAST]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X]], %arg1 : tensor<1x5x7x8xf32>, tensor<8xf32>) outs(%[[E]] : tensor<1x5x7x8xf32>) attrs = {layout.compute_layout = #layout<"NHWC">}
// CHECK: linalg.index 2 : index
// CHECK: layout.convert %[[G]] from "NHWC" to "NCHW"
func.func @generic_index(%x: tensor<1x8x5x7xf32>, %b: tensor<8xf32>) -> tensor<1x8x5x7xf32> {
  %e = tensor.empty() : tensor<1x8x5x7xf32>
  %0 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<1x8x5x7xf32>, tensor<8xf32>) outs(%e : tensor<1x8x5x7xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %i = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %a, %c : f32
    %r = arith.addf %s, %f : f32
    linalg.yield %r : f32
  } -> tensor<1x8x5x7xf32>
  return %0 : tensor<1x8x5x7xf32>
}

// Reducing H and W of NCHW is reducing dimensions 1 and 2 of NHWC; the
// result (N, C) is unchanged.
// CHECK-LABEL: func @reduce_spatial
// CHECK: %[[X:.*]] = layout.convert %arg0 from "NCHW" to "NHWC"
// CHECK: linalg.reduce ins(%[[X]] : tensor<1x5x7x8xf32>) outs(%{{.*}} : tensor<1x8xf32>) dimensions = [1, 2]
func.func @reduce_spatial(%x: tensor<1x8x5x7xf32>) -> tensor<1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %s = linalg.reduce ins(%x : tensor<1x8x5x7xf32>) outs(%z : tensor<1x8xf32>) dimensions = [2, 3]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<1x8xf32>
}

// Reducing only H would reorder the kept dimensions (N, C, W -> N, W, C):
// not a candidate, left alone.
// CHECK-LABEL: func @reduce_height
// CHECK-NOT: layout.convert
// CHECK: linalg.reduce ins(%arg0 : tensor<1x8x5x7xf32>)
func.func @reduce_height(%x: tensor<1x8x5x7xf32>) -> tensor<1x8x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x7xf32>) -> tensor<1x8x7xf32>
  %s = linalg.reduce ins(%x : tensor<1x8x5x7xf32>) outs(%z : tensor<1x8x7xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<1x8x7xf32>
}

// CHECK-LABEL: func @softmax
// CHECK: linalg.softmax {layout.compute_layout = #layout<"NHWC">} dimension(3) ins(%{{.*}} : tensor<2x5x7x8xf32>)
func.func @softmax(%x: tensor<2x8x5x7xf32>) -> tensor<2x8x5x7xf32> {
  %e = tensor.empty() : tensor<2x8x5x7xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x8x5x7xf32>) outs(%e : tensor<2x8x5x7xf32>) -> tensor<2x8x5x7xf32>
  return %0 : tensor<2x8x5x7xf32>
}

// CHECK-LABEL: func @pad
// CHECK: %[[X:.*]] = layout.convert %arg0 from "NCHW" to "NHWC"
// CHECK: tensor.pad %[[X]] low[0, 1, 2, 0] high[0, 1, 1, 0]
// CHECK: } {layout.compute_layout = #layout<"NHWC">} : tensor<1x5x7x8xf32> to tensor<1x7x10x8xf32>
func.func @pad(%x: tensor<1x8x5x7xf32>) -> tensor<1x8x7x10xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.pad %x low[0, 0, 1, 2] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x5x7xf32> to tensor<1x8x7x10xf32>
  return %0 : tensor<1x8x7x10xf32>
}

// Grouped: NGCHW <-> NHWGC, filter GFCHW <-> GFHWC.
// CHECK-LABEL: func @grouped
// CHECK: layout.convert %arg0 from "NGCHW" to "NHWGC" : tensor<1x2x4x9x9xf32> -> tensor<1x9x9x2x4xf32>
// CHECK: layout.convert %arg1 from "GFCHW" to "GFHWC" : tensor<2x3x4x3x3xf32> -> tensor<2x3x3x3x4xf32>
// CHECK: linalg.conv_2d_nhwgc_gfhwc
// CHECK: layout.convert %{{.*}} from "NHWGC" to "NGCHW" : tensor<1x7x7x2x3xf32> -> tensor<1x2x3x7x7xf32>
func.func @grouped(%x: tensor<1x2x4x9x9xf32>, %w: tensor<2x3x4x3x3xf32>, %o: tensor<1x2x3x7x7xf32>) -> tensor<1x2x3x7x7xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x4x9x9xf32>, tensor<2x3x4x3x3xf32>) outs(%o : tensor<1x2x3x7x7xf32>) -> tensor<1x2x3x7x7xf32>
  return %0 : tensor<1x2x3x7x7xf32>
}
