// Elementwise kernels of the GPU's generic path with vector accesses
// (--opsnn-vectorize-parallel-loops): each iteration (thread) handles up to
// 16 bytes of consecutive elements. Run on the CPU (emulate-gpu-loops: the
// same widened loops, unaligned) against NumPy:
// - an NHWC f32 bias + ReLU + f16 residual, cast to f16 (C = 256: 8 lanes,
//   the f32 operands as two 16-byte halves);
// - the channel concatenation of 100 and 156 f32 channels into 256: two
//   copies into views at channel offsets 0 and 100 (2 and 4 lanes: at
//   least 32 vectors per row, and the offset's alignment);
// - a position code from the channel index (linalg.index: lane k computes
//   with c + k), added to the input;
// - an f32 -> i8 quantization (clamp, round) of 512 channels: 16 lanes;
// - an f16 residual add on 2x4x8x16: rows of 16 too short, merged with W
//   and H (collapsed views) into rows of 512, 8 lanes.
// test/GPU/vector-accesses.mlir checks the PTX of such kernels.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-gpu-loops}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-gpu-loops" --mlir-print-ir-after=opsnn-vectorize-parallel-loops -o /dev/null 2>&1 | FileCheck %s
// REF: out0 = (np.maximum(in0 + in1, 0) + in2.astype(np.float16).astype(np.float64)).astype(np.float16)
// REF: out1 = np.concatenate([in3, in4], axis=-1)
// REF: out2 = in3 + np.arange(100) * 0.125
// REF: out3 = np.clip(np.round(in5 * 40.0), -128, 127)
// REF: out4 = (in6.astype(np.float16) + in7.astype(np.float16)).astype(np.float64)
// TOL: 2e-3

// CHECK-LABEL: IR Dump After VectorizeParallelLoopsPass
// CHECK: vector.load %arg0{{.*}} : memref<2x4x4x256xf32>, vector<8xf32>
// CHECK: vector.load %arg1{{.*}} : memref<256xf32>, vector<8xf32>
// CHECK: vector.load %arg2{{.*}} : memref<2x4x4x256xf16>, vector<8xf16>
// CHECK: vector.store {{.*}} : memref<2x4x4x256xf16>, vector<8xf16>
// CHECK-DAG: vector.store {{.*}} : memref<2x4x100xf32, strided<[1024, 256, 1]>>, vector<2xf32>
// CHECK-DAG: vector.store {{.*}} : memref<2x4x156xf32, strided<[1024, 256, 1], offset: 100>>, vector<4xf32>
// CHECK: arith.sitofp
// CHECK: vector.store {{.*}} : memref<2x4x100xf32>, vector<2xf32>
// CHECK: vector.load {{.*}} : memref<2x512xf32>, vector<16xf32>
// CHECK: vector.store {{.*}} : memref<2x512xi8>, vector<16xi8>
// CHECK: vector.load {{.*}} : memref<2x512xf16>, vector<8xf16>
// CHECK: vector.store {{.*}} : memref<2x512xf16>, vector<8xf16>

func.func @kernels(%x: tensor<2x4x4x256xf32>, %b: tensor<256xf32>, %r: tensor<2x4x4x256xf16>,
                   %u: tensor<2x4x100xf32>, %v: tensor<2x4x156xf32>, %q: tensor<2x512xf32>,
                   %ra: tensor<2x4x8x16xf16>, %rb: tensor<2x4x8x16xf16>)
    -> (tensor<2x4x4x256xf16>, tensor<2x4x256xf32>, tensor<2x4x100xf32>, tensor<2x512xi8>,
        tensor<2x4x8x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x256xf16>
  %y = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                       affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b, %r : tensor<2x4x4x256xf32>, tensor<256xf32>, tensor<2x4x4x256xf16>)
      outs(%e : tensor<2x4x4x256xf16>) {
  ^bb0(%a: f32, %bb: f32, %rr: f16, %o: f16):
    %s = arith.addf %a, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    %re = arith.extf %rr : f16 to f32
    %t = arith.addf %m, %re : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x4x4x256xf16>

  %cat = tensor.concat dim(2) %u, %v : (tensor<2x4x100xf32>, tensor<2x4x156xf32>) -> tensor<2x4x256xf32>

  %ep = tensor.empty() : tensor<2x4x100xf32>
  %eighth = arith.constant 0.125 : f32
  %pos = linalg.generic {
      indexing_maps = [affine_map<(n, s, c) -> (n, s, c)>, affine_map<(n, s, c) -> (n, s, c)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%u : tensor<2x4x100xf32>) outs(%ep : tensor<2x4x100xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = linalg.index 2 : index
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    %p = arith.mulf %cf, %eighth : f32
    %s = arith.addf %a, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x100xf32>

  %eq = tensor.empty() : tensor<2x512xi8>
  %scale = arith.constant 40.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %quant = linalg.generic {
      indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (n, c)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<2x512xf32>) outs(%eq : tensor<2x512xi8>) {
  ^bb0(%a: f32, %o: i8):
    %s = arith.mulf %a, %scale : f32
    %rd = math.roundeven %s : f32
    %c1 = arith.maximumf %rd, %lo : f32
    %c2 = arith.minimumf %c1, %hi : f32
    %i = arith.fptosi %c2 : f32 to i8
    linalg.yield %i : i8
  } -> tensor<2x512xi8>

  %er = tensor.empty() : tensor<2x4x8x16xf16>
  %res = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>,
                       affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ra, %rb : tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>) outs(%er : tensor<2x4x8x16xf16>) {
  ^bb0(%a: f16, %b2: f16, %o: f16):
    %s = arith.addf %a, %b2 : f16
    linalg.yield %s : f16
  } -> tensor<2x4x8x16xf16>
  return %y, %cat, %pos, %quant, %res : tensor<2x4x4x256xf16>, tensor<2x4x256xf32>, tensor<2x4x100xf32>, tensor<2x512xi8>, tensor<2x4x8x16xf16>
}
