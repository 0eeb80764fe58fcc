// RUN: ops-nn-opt %s --opsnn-implicit-padding -split-input-file | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-implicit-padding="keep-tensor-core-ops" -split-input-file | FileCheck %s --check-prefix=KEEP

// A depthwise convolution behind a zero padding reads the unpadded input:
// the position (oh * 2 + kh - 1, ow * 2 + kw - 2) is checked against 8 x 9,
// clamped into it for the read (rows 0..7, columns 0..8), and the padding
// value taken outside.
// CHECK-LABEL: func @depthwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x9x16xf32>, %[[W:.*]]: tensor<3x3x16xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT: tensor.pad
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[W]] : tensor<3x3x16xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK: %[[H0:.*]] = arith.addi
// CHECK: %[[V0:.*]] = arith.addi
// CHECK: %[[H:.*]] = arith.subi %[[H0]], %[[C1]]
// CHECK: arith.cmpi sge, %[[H]], %[[C0]]
// CHECK: arith.cmpi slt, %[[H]], %[[C8]]
// CHECK: %[[H_IN:.*]] = arith.andi
// CHECK: %[[V:.*]] = arith.subi %[[V0]], %[[C2]]
// CHECK: arith.cmpi sge, %[[V]], %[[C0]]
// CHECK: arith.cmpi slt, %[[V]], %[[C9]]
// CHECK: %[[V_IN:.*]] = arith.andi
// CHECK: %[[IN_BOUNDS:.*]] = arith.andi %[[H_IN]], %[[V_IN]]
// CHECK: %[[H0C:.*]] = arith.maxsi %[[H]], %[[C0]]
// CHECK: %[[HC:.*]] = arith.minsi %[[H0C]], %[[C7]]
// CHECK: %[[V0C:.*]] = arith.maxsi %[[V]], %[[C0]]
// CHECK: %[[VC:.*]] = arith.minsi %[[V0C]], %[[C8]]
// CHECK: %[[E:.*]] = tensor.extract %[[X]][%[[C0]], %[[HC]], %[[VC]], %{{.*}}]
// CHECK: %[[A:.*]] = arith.select %[[IN_BOUNDS]], %[[E]], %[[ZERO]]
// CHECK: arith.mulf %[[A]], %[[IN]]
// KEEP-LABEL: func @depthwise
// KEEP-NOT: tensor.pad
func.func @depthwise(%x: tensor<1x8x9x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x4x5x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 2, 0] high[0, 1, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x9x16xf32> to tensor<1x10x11x16xf32>
  %e = tensor.empty() : tensor<1x4x5x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x16xf32>) -> tensor<1x4x5x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w : tensor<1x10x11x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x4x5x16xf32>) -> tensor<1x4x5x16xf32>
  return %y : tensor<1x4x5x16xf32>
}

// -----

// A dynamic batch (not padded) and a dynamic low padding: the bound is
// the source's static 6, the low padding's value is subtracted in the
// payload. The padding value, a constant in the pad's body, is recreated
// in the payload (-inf for a max pooling; the rewrite driver hoists it).
// CHECK-LABEL: func @dynamic_pool
// CHECK-SAME: (%[[X:.*]]: tensor<?x6x8xf32>, %[[LOW:.*]]: index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NOT: tensor.pad
// CHECK: linalg.generic
// CHECK: %[[P:.*]] = arith.subi %{{.*}}, %[[LOW]]
// CHECK: arith.cmpi slt, %[[P]], %[[C6]]
// CHECK: tensor.extract %[[X]]
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[NINF]]
// CHECK: arith.maximumf
func.func @dynamic_pool(%x: tensor<?x6x8xf32>, %low: index, %init: tensor<?x?x8xf32>) -> tensor<?x?x8xf32> {
  %p = tensor.pad %x low[0, %low, 0] high[0, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index):
    %ninf = arith.constant 0xFF800000 : f32
    tensor.yield %ninf : f32
  } : tensor<?x6x8xf32> to tensor<?x?x8xf32>
  %win = tensor.empty() : tensor<3xf32>
  %y = linalg.pooling_nwc_max {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%p, %win : tensor<?x?x8xf32>, tensor<3xf32>) outs(%init : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %y : tensor<?x?x8xf32>
}

// -----

// The tensor-core kernel's convolutions keep their pad with
// keep-tensor-core-ops (that kernel folds it); a pad another op also reads
// stays for that op.
// CHECK-LABEL: func @conv_and_other_user
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: linalg.generic
// CHECK-NOT: ins(%[[P]]
// CHECK: tensor.extract
// CHECK: return %{{.*}}, %[[P]]
// KEEP-LABEL: func @conv_and_other_user
// KEEP: %[[P:.*]] = tensor.pad
// KEEP: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]], %{{.*}} :
func.func @conv_and_other_user(%x: tensor<1x6x6x8xf16>, %w: tensor<3x3x8x16xf16>) -> (tensor<1x6x6x16xf32>, tensor<1x8x8x8xf16>) {
  %zero = arith.constant 0.0 : f16
  %fzero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f16
  } : tensor<1x6x6x8xf16> to tensor<1x8x8x8xf16>
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%fzero : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x8x8x8xf16>, tensor<3x3x8x16xf16>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y, %p : tensor<1x6x6x16xf32>, tensor<1x8x8x8xf16>
}

// -----

// Left alone: a padding value that depends on the position, a transposing
// read (the tiled-transpose kernel stages it), a padded dimension whose
// size is known only at run time (it may be 0: no element to read), and
// ops on buffers.
// CHECK-LABEL: func @left_alone
// CHECK: tensor.pad
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<6xf32>)
// CHECK: %[[PD:.*]] = tensor.pad
// CHECK: linalg.generic {{.*}} ins(%[[PD]] : tensor<?xf32>)
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: linalg.transpose ins(%[[P]] : tensor<4x6xf32>)
// CHECK: linalg.copy ins(%{{.*}} : memref<4xf32>)
func.func @left_alone(%x: tensor<4xf32>, %a: memref<4xf32>, %b: memref<4xf32>, %m: tensor<4x4xf32>, %d: tensor<?xf32>) -> (tensor<6xf32>, tensor<?xf32>, tensor<6x4xf32>) {
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    %c = arith.index_cast %i : index to i32
    %v = arith.sitofp %c : i32 to f32
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%p : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<6xf32>
  %zero = arith.constant 0.0 : f32
  %pd = tensor.pad %d low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<?xf32> to tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %pd, %c0 : tensor<?xf32>
  %ed = tensor.empty(%n) : tensor<?xf32>
  %yd = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%pd : tensor<?xf32>) outs(%ed : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n2 = arith.negf %in : f32
    linalg.yield %n2 : f32
  } -> tensor<?xf32>
  %pm = tensor.pad %m low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<4x6xf32>
  %et = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%pm : tensor<4x6xf32>) outs(%et : tensor<6x4xf32>) permutation = [1, 0]
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return %y, %yd, %t : tensor<6xf32>, tensor<?xf32>, tensor<6x4xf32>
}
