// Quantized weights stored N x K at compile time by
// --opsnn-transpose-byte-weights: one that the importer's contraction reads
// K before N (x[b, s, k] * w[k, h, e], INT8) is stored [h, e, k], an HWCF
// INT8 filter FHWC (the convolution an NHWC-FHWC one); the tensor-core
// kernel (h100 tiles, emulated on the CPU) copies both N x K; so does the
// warpgroup (wgmma) kernel, which takes INT8 only so. Exact against NumPy.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s --check-prefix=WG
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100" --mlir-print-ir-after=opsnn-transpose-byte-weights -o /dev/null 2>&1 | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL
// VALUES: int [-100, 100]
// REF: w = ((np.arange(512) * 37) % 255 - 127).reshape(32, 2, 8)
// REF: out0 = np.einsum('bsk,khe->bshe', in0.astype(np.int64), w)
// REF: w2 = ((np.arange(512) * 53) % 255 - 127).reshape(32, 16)
// REF: out1 = np.einsum('bhwc,cf->bhwf', in1.astype(np.int64), w2)
// TOL: 0

// CHECK-LABEL: IR Dump After TransposeByteWeightsPass
// The stored constant (printed as hex bytes) starts with w[k, 0, 0] for
// k = 0 .. 7: -127, -45, 37, 119, -54, 28, 110, -63.
// CHECK: arith.constant dense<"0x81D32577CA1C6EC1
// CHECK-SAME: tensor<2x8x32xi8>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x64x32xi8>, tensor<2x8x32xi8>)
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x32xi8>, tensor<16x1x1x32xi8>)

// Both took the tensor-core kernel.
// KERNEL-LABEL: IR Dump After GPUTensorCoreMatmulPass
// KERNEL-NOT: linalg.conv_2d
// KERNEL-NOT: linalg.generic {{.*}}"reduction"
// KERNEL-COUNT-2: vector.contract
// KERNEL-NOT: linalg.conv_2d
// KERNEL-NOT: linalg.generic {{.*}}"reduction"

// On the warpgroup kernel: swizzled i8 tiles (64 rows of 128 bytes), i32
// row tiles, no fragments.
// WG-LABEL: IR Dump After GPUTensorCoreMatmulPass
// WG-NOT: vector.contract
// WG-COUNT-2: memref.alloc() : memref<64x68xi32>
// WG-NOT: vector.contract

#x = affine_map<(b, s, h, e, k) -> (b, s, k)>
#w = affine_map<(b, s, h, e, k) -> (k, h, e)>
#o = affine_map<(b, s, h, e, k) -> (b, s, h, e)>
func.func @byte_weights(%x: tensor<2x64x32xi8>, %img: tensor<1x8x8x32xi8>)
    -> (tensor<2x64x2x8xi32>, tensor<1x8x8x16xi32>) {
  %zero = arith.constant 0 : i32
  %w = arith.constant dense<[[[-127, -90, -53, -16, 21, 58, 95, -123], [-86, -49, -12, 25, 62, 99, -119, -82]], [[-45, -8, 29, 66, 103, -115, -78, -41], [-4, 33, 70, 107, -111, -74, -37, 0]], [[37, 74, 111, -107, -70, -33, 4, 41], [78, 115, -103, -66, -29, 8, 45, 82]], [[119, -99, -62, -25, 12, 49, 86, 123], [-95, -58, -21, 16, 53, 90, 127, -91]], [[-54, -17, 20, 57, 94, -124, -87, -50], [-13, 24, 61, 98, -120, -83, -46, -9]], [[28, 65, 102, -116, -79, -42, -5, 32], [69, 106, -112, -75, -38, -1, 36, 73]], [[110, -108, -71, -34, 3, 40, 77, 114], [-104, -67, -30, 7, 44, 81, 118, -100]], [[-63, -26, 11, 48, 85, 122, -96, -59], [-22, 15, 52, 89, 126, -92, -55, -18]], [[19, 56, 93, -125, -88, -51, -14, 23], [60, 97, -121, -84, -47, -10, 27, 64]], [[101, -117, -80, -43, -6, 31, 68, 105], [-113, -76, -39, -2, 35, 72, 109, -109]], [[-72, -35, 2, 39, 76, 113, -105, -68], [-31, 6, 43, 80, 117, -101, -64, -27]], [[10, 47, 84, 121, -97, -60, -23, 14], [51, 88, 125, -93, -56, -19, 18, 55]], [[92, -126, -89, -52, -15, 22, 59, 96], [-122, -85, -48, -11, 26, 63, 100, -118]], [[-81, -44, -7, 30, 67, 104, -114, -77], [-40, -3, 34, 71, 108, -110, -73, -36]], [[1, 38, 75, 112, -106, -69, -32, 5], [42, 79, 116, -102, -65, -28, 9, 46]], [[83, 120, -98, -61, -24, 13, 50, 87], [124, -94, -57, -20, 17, 54, 91, -127]], [[-90, -53, -16, 21, 58, 95, -123, -86], [-49, -12, 25, 62, 99, -119, -82, -45]], [[-8, 29, 66, 103, -115, -78, -41, -4], [33, 70, 107, -111, -74, -37, 0, 37]], [[74, 111, -107, -70, -33, 4, 41, 78], [115, -103, -66, -29, 8, 45, 82, 119]], [[-99, -62, -25, 12, 49, 86, 123, -95], [-58, -21, 16, 53, 90, 127, -91, -54]], [[-17, 20, 57, 94, -124, -87, -50, -13], [24, 61, 98, -120, -83, -46, -9, 28]], [[65, 102, -116, -79, -42, -5, 32, 69], [106, -112, -75, -38, -1, 36, 73, 110]], [[-108, -71, -34, 3, 40, 77, 114, -104], [-67, -30, 7, 44, 81, 118, -100, -63]], [[-26, 11, 48, 85, 122, -96, -59, -22], [15, 52, 89, 126, -92, -55, -18, 19]], [[56, 93, -125, -88, -51, -14, 23, 60], [97, -121, -84, -47, -10, 27, 64, 101]], [[-117, -80, -43, -6, 31, 68, 105, -113], [-76, -39, -2, 35, 72, 109, -109, -72]], [[-35, 2, 39, 76, 113, -105, -68, -31], [6, 43, 80, 117, -101, -64, -27, 10]], [[47, 84, 121, -97, -60, -23, 14, 51], [88, 125, -93, -56, -19, 18, 55, 92]], [[-126, -89, -52, -15, 22, 59, 96, -122], [-85, -48, -11, 26, 63, 100, -118, -81]], [[-44, -7, 30, 67, 104, -114, -77, -40], [-3, 34, 71, 108, -110, -73, -36, 1]], [[38, 75, 112, -106, -69, -32, 5, 42], [79, 116, -102, -65, -28, 9, 46, 83]], [[120, -98, -61, -24, 13, 50, 87, 124], [-94, -57, -20, 17, 54, 91, -127, -90]]]> : tensor<32x2x8xi8>
  %e = tensor.empty() : tensor<2x64x2x8xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<2x64x2x8xi32>) -> tensor<2x64x2x8xi32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x64x32xi8>, tensor<32x2x8xi8>) outs(%acc : tensor<2x64x2x8xi32>) {
  ^bb0(%a: i8, %b: i8, %c: i32):
    %a32 = arith.extsi %a : i8 to i32
    %b32 = arith.extsi %b : i8 to i32
    %m = arith.muli %a32, %b32 : i32
    %s = arith.addi %c, %m : i32
    linalg.yield %s : i32
  } -> tensor<2x64x2x8xi32>
  %w2 = arith.constant dense<[[[[-127, -74, -21, 32, 85, -117, -64, -11, 42, 95, -107, -54, -1, 52, 105, -97], [-44, 9, 62, 115, -87, -34, 19, 72, 125, -77, -24, 29, 82, -120, -67, -14], [39, 92, -110, -57, -4, 49, 102, -100, -47, 6, 59, 112, -90, -37, 16, 69], [122, -80, -27, 26, 79, -123, -70, -17, 36, 89, -113, -60, -7, 46, 99, -103], [-50, 3, 56, 109, -93, -40, 13, 66, 119, -83, -30, 23, 76, -126, -73, -20], [33, 86, -116, -63, -10, 43, 96, -106, -53, 0, 53, 106, -96, -43, 10, 63], [116, -86, -33, 20, 73, 126, -76, -23, 30, 83, -119, -66, -13, 40, 93, -109], [-56, -3, 50, 103, -99, -46, 7, 60, 113, -89, -36, 17, 70, 123, -79, -26], [27, 80, -122, -69, -16, 37, 90, -112, -59, -6, 47, 100, -102, -49, 4, 57], [110, -92, -39, 14, 67, 120, -82, -29, 24, 77, -125, -72, -19, 34, 87, -115], [-62, -9, 44, 97, -105, -52, 1, 54, 107, -95, -42, 11, 64, 117, -85, -32], [21, 74, 127, -75, -22, 31, 84, -118, -65, -12, 41, 94, -108, -55, -2, 51], [104, -98, -45, 8, 61, 114, -88, -35, 18, 71, 124, -78, -25, 28, 81, -121], [-68, -15, 38, 91, -111, -58, -5, 48, 101, -101, -48, 5, 58, 111, -91, -38], [15, 68, 121, -81, -28, 25, 78, -124, -71, -18, 35, 88, -114, -61, -8, 45], [98, -104, -51, 2, 55, 108, -94, -41, 12, 65, 118, -84, -31, 22, 75, -127], [-74, -21, 32, 85, -117, -64, -11, 42, 95, -107, -54, -1, 52, 105, -97, -44], [9, 62, 115, -87, -34, 19, 72, 125, -77, -24, 29, 82, -120, -67, -14, 39], [92, -110, -57, -4, 49, 102, -100, -47, 6, 59, 112, -90, -37, 16, 69, 122], [-80, -27, 26, 79, -123, -70, -17, 36, 89, -113, -60, -7, 46, 99, -103, -50], [3, 56, 109, -93, -40, 13, 66, 119, -83, -30, 23, 76, -126, -73, -20, 33], [86, -116, -63, -10, 43, 96, -106, -53, 0, 53, 106, -96, -43, 10, 63, 116], [-86, -33, 20, 73, 126, -76, -23, 30, 83, -119, -66, -13, 40, 93, -109, -56], [-3, 50, 103, -99, -46, 7, 60, 113, -89, -36, 17, 70, 123, -79, -26, 27], [80, -122, -69, -16, 37, 90, -112, -59, -6, 47, 100, -102, -49, 4, 57, 110], [-92, -39, 14, 67, 120, -82, -29, 24, 77, -125, -72, -19, 34, 87, -115, -62], [-9, 44, 97, -105, -52, 1, 54, 107, -95, -42, 11, 64, 117, -85, -32, 21], [74, 127, -75, -22, 31, 84, -118, -65, -12, 41, 94, -108, -55, -2, 51, 104], [-98, -45, 8, 61, 114, -88, -35, 18, 71, 124, -78, -25, 28, 81, -121, -68], [-15, 38, 91, -111, -58, -5, 48, 101, -101, -48, 5, 58, 111, -91, -38, 15], [68, 121, -81, -28, 25, 78, -124, -71, -18, 35, 88, -114, -61, -8, 45, 98], [-104, -51, 2, 55, 108, -94, -41, 12, 65, 118, -84, -31, 22, 75, -127, -74]]]]> : tensor<1x1x32x16xi8>
  %e2 = tensor.empty() : tensor<1x8x8x16xi32>
  %acc2 = linalg.fill ins(%zero : i32) outs(%e2 : tensor<1x8x8x16xi32>) -> tensor<1x8x8x16xi32>
  %conv = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %w2 : tensor<1x8x8x32xi8>, tensor<1x1x32x16xi8>) outs(%acc2 : tensor<1x8x8x16xi32>) -> tensor<1x8x8x16xi32>
  return %r, %conv : tensor<2x64x2x8xi32>, tensor<1x8x8x16xi32>
}
