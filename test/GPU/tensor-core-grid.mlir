// The tensor-core kernel's row blocks go on gridDim.y, whose hardware
// limit is 65535: a GEMM needing more row blocks keeps the generic path.
// (Split from tensor-core-conv.mlir: forced tiles must divide every GEMM of
// the file, and 32-row blocks do not divide that file's ResNet downsample.)
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=16,8,16,16,8 to-nvgpu=false" | FileCheck %s --check-prefix=GRID16
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=32,8,16,16,8 to-nvgpu=false" --canonicalize | FileCheck %s --check-prefix=GRID32

// The row blocks go on gridDim.y (at most 65535): M = 16*256*256 = 2^20
// rows in 16-row blocks (65536) keep the generic path; 32-row blocks
// (32768) fit.
// GRID16-LABEL: func.func @conv_tall
// GRID16-NOT: gpu.launch
// GRID16: linalg.conv_2d_nhwc_hwcf
// GRID32-LABEL: func.func @conv_tall
// GRID32: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c32768, {{.*}})
// GRID32-NOT: linalg.conv_2d

func.func @conv_tall(%in: tensor<16x256x256x16xf16>, %f: tensor<1x1x16x8xf16>, %acc: tensor<16x256x256x8xf32>) -> tensor<16x256x256x8xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<16x256x256x16xf16>, tensor<1x1x16x8xf16>) outs(%acc : tensor<16x256x256x8xf32>) -> tensor<16x256x256x8xf32>
  return %c : tensor<16x256x256x8xf32>
}
