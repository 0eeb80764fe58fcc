// Padding on the GPU's generic path (an NCHW convolution, no tensor
// cores). By default the convolution reads the ReLU's output through
// bounds checks (--opsnn-implicit-padding): two kernels, the ReLU and the
// convolution, and no padded buffer. With implicit-padding=false,
// tensor.pad bufferizes to a fill of the padded buffer and a copy of the
// data into its interior; --opsnn-gpu-device-copies makes the copy a loop
// (a kernel, not a host copy on managed memory between kernels), and
// --opsnn-fuse-parallel-loops lifts the fill above the ReLU that produces
// the data, so the ReLU and the copy into the interior are one kernel:
// three kernels (fill, ReLU with the copy, convolution). The ReLU's output
// is also returned (it stays written). Both run on the CPU
// (emulate-gpu-loops: the same loops) against NumPy, and are lowered for
// the GPU.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-gpu-loops}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-gpu-loops emulate-implicit-padding=false}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-gpu-loops emulate-implicit-padding=false" --mlir-print-ir-after=opsnn-fuse-parallel-loops -o /dev/null 2>&1 | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx implicit-padding=false" --mlir-print-ir-after=gpu-kernel-outlining -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" --mlir-print-ir-after=gpu-kernel-outlining -o /dev/null 2>&1 | FileCheck %s --check-prefix=IMPLICIT
// REF: r = np.maximum(in0, 0)
// REF: out0 = ref.conv_nc(np.pad(r, ((0, 0), (0, 0), (1, 1), (2, 0))), in1)
// REF: out1 = r
// TOL: 1e-5

// The fill of the padded 1x4x10x10 buffer first, then one loop over the
// data's 1x4x8x8 space: the ReLU stored and copied into the interior.
// CHECK-LABEL: IR Dump After FuseParallelLoopsPass
// CHECK: scf.parallel {{.*}} to (%c1, %c4, %c10, %c10)
// CHECK: scf.parallel {{.*}} to (%c1, %c4, %c8, %c8)
// CHECK: arith.maximumf
// CHECK: memref.store
// CHECK: memref.store
// CHECK-NOT: scf.parallel {{.*}} to (%c1, %c4, %c8, %c8)
// CHECK: scf.parallel

// GPU-LABEL: func.func @relu_pad_conv
// GPU-NOT: memref.copy
// GPU-COUNT-3: gpu.launch_func
// GPU-NOT: gpu.launch_func
// GPU: return

// IMPLICIT-LABEL: func.func @relu_pad_conv
// IMPLICIT-NOT: memref<1x4x10x10xf32>
// IMPLICIT-COUNT-2: gpu.launch_func
// IMPLICIT-NOT: gpu.launch_func
// IMPLICIT: return

func.func @relu_pad_conv(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>)
    -> (tensor<1x8x8x8xf32>, tensor<1x4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  %p = tensor.pad %r low[0, 0, 1, 2] high[0, 0, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %eo = tensor.empty() : tensor<1x8x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %y, %r : tensor<1x8x8x8xf32>, tensor<1x4x8x8xf32>
}
