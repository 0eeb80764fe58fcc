// Layout conversions of the GPU's generic path through shared-memory tiles
// (--opsnn-gpu-tiled-transpose), run on the CPU (emulate-gpu-loops: block
// by block, every thread's reads into the tile, then every thread's
// writes) against NumPy:
// - NCHW f32 -> NHWC f16 on 2x40x7x7: the H, W group (49) and C (40) both
//   ragged in 32-element tiles;
// - NHWC -> NCHW with a per-channel scale and shift (not staged) and a
//   ReLU, 2x8x12x64, the result padded by 1 on H and W (the kernel writes
//   the padded buffer's interior in the copy's place);
// - a 2-D f16 transpose 96x72 plus the column index (linalg.index);
// - an i8 transpose 3-D [0, 2, 1] of 4x33x65 (4 tiles of 33 x 65, the
//   batch as the grid's z).
// test/Transforms/gpu-tiled-transpose.mlir checks the kernels' IR.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-gpu-loops}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-gpu-loops" --mlir-print-ir-after=opsnn-gpu-tiled-transpose -o /dev/null 2>&1 | FileCheck %s
// REF: out0 = in0.transpose(0, 2, 3, 1).astype(np.float16).astype(np.float64)
// REF: out1 = np.pad(np.maximum(in1.transpose(0, 3, 1, 2) * in2[None, :, None, None] + in3[None, :, None, None], 0), ((0, 0), (0, 0), (1, 1), (1, 1)))
// REF: out2 = (in4.astype(np.float16).T.astype(np.float64) + np.arange(96)[None, :]).astype(np.float16).astype(np.float64)
// REF: out3 = in5.transpose(0, 2, 1)
// TOL: 2e-3

// CHECK-LABEL: IR Dump After GPUTiledTransposePass
// CHECK-COUNT-4: memref.alloc() : memref<32x33x{{.*}}>
// CHECK-NOT:   memref.copy
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   linalg.transpose

func.func @conversions(%a: tensor<2x40x7x7xf32>, %b: tensor<2x8x12x64xf32>,
                       %scale: tensor<64xf32>, %shift: tensor<64xf32>,
                       %c: tensor<96x72xf16>, %d: tensor<4x33x65xi8>)
    -> (tensor<2x7x7x40xf16>, tensor<2x64x10x14xf32>, tensor<72x96xf16>, tensor<4x65x33xi8>) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<2x7x7x40xf16>
  %ya = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, c, h, w)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x40x7x7xf32>) outs(%ea : tensor<2x7x7x40xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x7x7x40xf16>

  %eb = tensor.empty() : tensor<2x64x8x12xf32>
  %yb = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>, affine_map<(n, c, h, w) -> (c)>,
                       affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b, %scale, %shift : tensor<2x8x12x64xf32>, tensor<64xf32>, tensor<64xf32>)
      outs(%eb : tensor<2x64x8x12xf32>) {
  ^bb0(%x: f32, %s: f32, %sh: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    %p = arith.addf %m, %sh : f32
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x64x8x12xf32>
  %padded = tensor.pad %yb low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x64x8x12xf32> to tensor<2x64x10x14xf32>

  %ec = tensor.empty() : tensor<72x96xf16>
  %yc = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<96x72xf16>) outs(%ec : tensor<72x96xf16>) {
  ^bb0(%x: f16, %o: f16):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f16
    %s = arith.addf %x, %jf : f16
    linalg.yield %s : f16
  } -> tensor<72x96xf16>

  %ed = tensor.empty() : tensor<4x65x33xi8>
  %yd = linalg.transpose ins(%d : tensor<4x33x65xi8>) outs(%ed : tensor<4x65x33xi8>) permutation = [0, 2, 1]
  return %ya, %padded, %yc, %yd : tensor<2x7x7x40xf16>, tensor<2x64x10x14xf32>, tensor<72x96xf16>, tensor<4x65x33xi8>
}
