// The GPU's generic path (no tensor cores: an f32 matmul, TF32 not
// allowed) as parallel loops: the fill of C, the matmul accumulating into
// it and the bias + ReLU consumer have one iteration space (i, j) and each
// reads C only at its own (i, j), so --opsnn-fuse-parallel-loops (in
// --opsnn-lower-to-nvvm) makes them one kernel, their outputs allocated
// first: one launch instead of three, each thread reading back only what
// it wrote itself. A consumer that reads C transposed over the same
// (square) space must wait for every element: it stays a kernel of its
// own (through a shared-memory tile, --opsnn-gpu-tiled-transpose: here its
// emulation's loops over blocks and threads). Run on the CPU (emulate-gpu-loops: the same fused loops, in
// sequence) against NumPy, and lowered for the GPU.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-gpu-loops}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-gpu-loops" --mlir-print-ir-after=opsnn-fuse-parallel-loops -o /dev/null 2>&1 | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" | FileCheck %s --check-prefix=GPU
// REF: c = in0.astype(np.float64) @ in1
// REF: out0 = np.maximum(c + in2, 0)
// REF: out1 = c.T * 2
// TOL: 1e-6

// CHECK-LABEL: IR Dump After FuseParallelLoopsPass
// CHECK: scf.parallel (%[[I:.+]], %[[J:.+]]) =
// CHECK-NEXT: memref.store %{{.*}}, %[[C:.+]][%[[I]], %[[J]]]
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[C]][%[[I]], %[[J]]]
// CHECK: arith.maximumf
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
// CHECK: memref.load %[[C]][%{{.*}}, %{{.*}}]
// CHECK: memref.store %{{.*}}, %[[TILE:.+]][%{{.*}}, %{{.*}}] : memref<32x33xf32>
// CHECK: memref.load %[[TILE]]
// CHECK: arith.mulf
// CHECK-NOT: scf.parallel
// CHECK: return

// GPU-COUNT-2: gpu.binary @
// GPU-NOT: gpu.binary @

func.func @matmul_bias_relu(%a: tensor<16x24xf32>, %b: tensor<24x16xf32>, %bias: tensor<16xf32>)
    -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x24xf32>, tensor<24x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<16x16xf32>, tensor<16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x16xf32>
  %et = tensor.empty() : tensor<16x16xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j, i)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<16x16xf32>) outs(%et : tensor<16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.mulf %x, %two : f32
    linalg.yield %d : f32
  } -> tensor<16x16xf32>
  return %r, %t : tensor<16x16xf32>, tensor<16x16xf32>
}
