// A softmax after a GEMM whose rows (520) are wider than any tensor-core
// block: the kernel leaves it, the decomposition after the kernels builds
// its steps on buffers, and their row buffer goes to managed memory (a
// second --opsnn-gpu-host-buffers, allocations only) like every host
// buffer a kernel reads. The numerics run on the CPU in
// Integration/CPU/tensor-core-softmax-rows-emulated.mlir.
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul,opsnn-decompose-aggregated-ops,opsnn-gpu-host-buffers -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK: gpu.launch
// CHECK: linalg.softmax dimension(1)
// CHECK-LABEL: IR Dump After DecomposeAggregatedOpsPass
// CHECK: memref.alloc() : memref<16xf32>
// CHECK-LABEL: IR Dump After GPUHostBuffersPass
// CHECK: {{gpu.alloc +host_shared}} () : memref<16xf32>
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @wide(%a: tensor<16x16xf16>, %b: tensor<16x520xf16>) -> tensor<16x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x520xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x520xf32>) -> tensor<16x520xf32>
  %s = linalg.matmul ins(%a, %b : tensor<16x16xf16>, tensor<16x520xf16>) outs(%f : tensor<16x520xf32>) -> tensor<16x520xf32>
  %e2 = tensor.empty() : tensor<16x520xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x520xf32>) outs(%e2 : tensor<16x520xf32>) -> tensor<16x520xf32>
  return %p : tensor<16x520xf32>
}
