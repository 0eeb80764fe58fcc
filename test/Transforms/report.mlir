// RUN: ops-nn-opt %s --opsnn-report="file=%t.json target=a100" | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.json
// RUN: FileCheck %s --check-prefix=MEM < %t.json
// RUN: ops-nn-opt %s --opsnn-report="target=h100" -o /dev/null | FileCheck %s --check-prefix=H100
// RUN: not ops-nn-opt %s --opsnn-report="target=b200 file=%t.bad.json" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not test -e %t.bad.json
// RUN: not ops-nn-opt %s --opsnn-report="file=%t.missing/dir/r.json" 2>&1 | FileCheck %s --check-prefix=FILE

// The IR is unchanged.
// IR-NOT: opsnn.fingerprint
// IR: linalg.matmul

// Functions are reported in order.
// CHECK: "name": "model",
// The f16 matmul (64x48x32, aligned) runs on tensor cores and is memory
// bound on A100: 2*64*48*32 = 196608 FLOPs / 312e12 = 0.63 ns of compute;
// 64*32*2 + 32*48*2 + 64*48*4 (accumulator, read) = 19456 B read, 12288 B
// written: 31744 B / 1555e9 = 20.41 ns.
// CHECK: "bound": "memory",
// CHECK-NEXT: "bytes_read": 19456,
// CHECK-NEXT: "bytes_written": 12288,
// CHECK-NEXT: "class": "contraction",
// CHECK-NEXT: "estimated_seconds": 2.04{{[0-9]*}}e-08,
// CHECK-NEXT: "flops": 196608,
// CHECK-NEXT: "intensity": 6.19{{[0-9]*}},
// Operands in their current layouts (MK, KN, MN): B is read along its
// rows by adjacent lanes, A is the same for every lane: all efficient.
// CHECK-NEXT: "layout_scores": [
// CHECK: "layout": "KN",
// CHECK-NEXT: "operand": 1,
// CHECK-NEXT: "score": 1,
// CHECK-NEXT: "stride": 1
// CHECK: "loc": "{{.*}}report.mlir:{{[0-9]+}}:{{[0-9]+}}",
// CHECK-NEXT: "memory_efficiency": 1,
// CHECK-NEXT: "op": "linalg.matmul",
// CHECK-NEXT: "precision": "fp16",
// CHECK-NEXT: "tensor_cores": true
// A dynamic op: polynomials, no estimate.
// CHECK: "bytes_read": "{{[0-9]+}}*d0{{.*}}",
// CHECK: "estimated_seconds": null,
// CHECK: "flops": "{{[0-9]+}}*d0",
// CHECK: "precision": "fp32",
// CHECK: "tensor_cores": false
// An unknown op: named, with the reason.
// CHECK: "class": "unknown",
// CHECK: "op": "tensor.reshape",
// CHECK: "reason": "'tensor.reshape' is not a linalg structured op or a known data movement op"
// CHECK: "totals": {
// CHECK-NEXT: "bytes": 31744,
// CHECK-NEXT: "estimated_seconds": 2.04{{[0-9]*}}e-08,
// CHECK-NEXT: "flops": 196608,
// CHECK-NEXT: "layout_conversions": 0,
// CHECK-NEXT: "symbolic_ops": 1,
// CHECK-NEXT: "unknown_ops": 1
// A transposed operand lowers the memory efficiency and raises the
// estimate: B^T read as NK has stride 32 (one sector per lane, 2 of its
// 32 bytes used: 0.0625). Efficiency = bytes / effective bytes =
// (4096 + 3072 + 12288) / (4096 + 3072 / 0.0625 + 12288) = 0.296875.
// CHECK: "name": "transposed",
// CHECK: "layout": "NK",
// CHECK-NEXT: "operand": 1,
// CHECK-NEXT: "score": 0.0625,
// CHECK-NEXT: "stride": 32
// CHECK: "memory_efficiency": 0.296875,

// CHECK: "schema": "opsnn-report",
// CHECK-NEXT: "target": "a100",
// CHECK-NEXT: "version": 1

// H100 (3350 GB/s): 31744 B / 3350e9 = 9.48 ns.
// H100: "estimated_seconds": 9.47{{[0-9]*}}e-09,
// H100: "target": "h100"

// Memory of @model (no pass ran: stored types are the argument types).
// Weights: the shape constant, 1 index = 8 B. Activations: every argument
// is live at the entry (%d and %f have a dynamic dimension, counted as 1):
// 4096 + 3072 + 12288 + 128 + 6144 + 192 = 25920 B; the matmuls write into
// %c and %f in place and the reshape is a view of %a, so nothing grows
// later. As FP32 %a and %b double: 8192 + 6144 + ... = 33088 B.
// Saved: 1 - (8 + 25920) / (8 + 33088) = 0.216582.
// MEM: "memory": {
// MEM-NEXT: "dynamic": true,
// MEM-NEXT: "peak_activation_bytes": 25920,
// MEM-NEXT: "peak_activation_bytes_fp32": 33088,
// MEM-NEXT: "peak_at": {
// MEM-NEXT: "loc": "{{.*}}report.mlir:{{[0-9]+}}:1",
// MEM-NEXT: "op": "func.func"
// MEM-NEXT: },
// MEM-NEXT: "saved_fraction": 0.21658{{[0-9]*}},
// MEM-NEXT: "weight_bytes": 8,
// MEM-NEXT: "weight_bytes_fp32": 8
// MEM-NEXT: },
// MEM-NEXT: "name": "model",

// TARGET: error: opsnn-report: unknown target "b200"; known targets: t4, v100, a100, l4, h100, h200, host
// FILE: error: opsnn-report: cannot open output file '{{.*}}r.json'

func.func @model(%a: tensor<64x32xf16>, %b: tensor<32x48xf16>, %c: tensor<64x48xf32>,
                 %d: tensor<?x32xf32>, %e: tensor<32x48xf32>, %f: tensor<?x48xf32>) -> (tensor<64x48xf32>, tensor<?x48xf32>, tensor<2048xf16>) {
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x48xf16>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  %1 = linalg.matmul ins(%d, %e : tensor<?x32xf32>, tensor<32x48xf32>) outs(%f : tensor<?x48xf32>) -> tensor<?x48xf32>
  %shape = arith.constant dense<2048> : tensor<1xindex>
  %2 = tensor.reshape %a(%shape) : (tensor<64x32xf16>, tensor<1xindex>) -> tensor<2048xf16>
  return %0, %1, %2 : tensor<64x48xf32>, tensor<?x48xf32>, tensor<2048xf16>
}

func.func @transposed(%a: tensor<64x32xf16>, %bt: tensor<48x32xf16>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %bt : tensor<64x32xf16>, tensor<48x32xf16>) outs(%c : tensor<64x48xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}
