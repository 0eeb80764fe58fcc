// The bundled example that ./scripts/demo.sh runs: keep it parsing, folding
// and lowering the way the demo says.
// RUN: ops-nn-opt %opsnn_src_root/examples/conv_block.mlir --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: ops-nn-opt %opsnn_src_root/examples/conv_block.mlir --canonicalize --opsnn-lower-layouts --opsnn-lower-precision --canonicalize | FileCheck %s --check-prefix=LOWER

// Weights: cast to f16 and re-laid out FCHW -> HWCF at compile time.
// CANON-LABEL: func @conv_block
// CANON-DAG: %[[W2:.+]] = arith.constant dense<{{\[\[\[\[}}5.000000e-01, 1.000000e+00, 0.000000e+00, 3.000000e+00], [-2.500000e-01, {{.*}} 9.997550e-02]]]]> : tensor<1x1x4x4xf16>
// CANON-DAG: %[[W1:.+]] = arith.constant dense<1.250000e-01> : tensor<1x1x4x4xf16>
// CANON: %[[XH:.+]] = precision.cast %{{.+}} : tensor<1x4x8x8xf32> to tensor<1x4x8x8xf16>
// CANON: layout.convert %[[XH]] from "NCHW" to "NHWC"
// CANON: linalg.conv_2d_nhwc_hwcf ins(%{{.+}}, %[[W1]] :
// CANON: layout.convert %{{.+}} from "NHWC" to "NCHW"
// CANON: linalg.generic
// CANON: layout.convert %{{.+}} from "NCHW" to "NHWC"
// CANON: linalg.conv_2d_nhwc_hwcf ins(%{{.+}}, %[[W2]] :
// CANON: layout.convert %{{.+}} from "NHWC" to "NCHW" : tensor<1x8x8x4xf32> -> tensor<1x4x8x8xf32>
// CANON-NOT: precision.cast
// CANON-NOT: layout.convert

// LOWER-LABEL: func @conv_block
// LOWER-NOT: layout.
// LOWER-NOT: precision.
// LOWER: arith.truncf %{{.+}} : tensor<1x4x8x8xf32> to tensor<1x4x8x8xf16>
// LOWER: linalg.transpose {{.*}} permutation = [0, 2, 3, 1]
// LOWER: linalg.conv_2d_nhwc_hwcf
// LOWER: linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// LOWER: linalg.generic
// LOWER: linalg.transpose {{.*}} permutation = [0, 2, 3, 1]
// LOWER: linalg.conv_2d_nhwc_hwcf
// LOWER: linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// LOWER-NOT: layout.
// LOWER-NOT: precision.
