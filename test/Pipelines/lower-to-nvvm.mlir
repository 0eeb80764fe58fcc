// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90 format=cubin" | FileCheck %s --check-prefix=CUBIN
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="tile-sizes=4,4" | FileCheck %s --check-prefix=TILES
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="format=elf" 2>&1 | FileCheck %s --check-prefix=BADFORMAT
// RUN: not ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_1" 2>&1 | FileCheck %s --check-prefix=BADCHIP

// The fill, the matmul accumulating into it and the bias add share one
// (i, j) space and read C only at their own (i, j): one kernel, linked with
// libdevice and serialized to PTX for the requested chip, which the host
// launches.
// PTX: llvm.func @matmul_bias
// Default blocks of 32 x 8 threads, x along the output's columns (24 of
// them: one block), y along its 16 rows (two blocks).
// PTX-DAG: %[[C32:.+]] = llvm.mlir.constant(32 : index) : i64
// PTX-DAG: %[[C8:.+]] = llvm.mlir.constant(8 : index) : i64
// PTX-DAG: %[[C2:.+]] = llvm.mlir.constant(2 : index) : i64
// PTX-DAG: %[[C1:.+]] = llvm.mlir.constant(1 : index) : i64
// PTX: gpu.launch_func @{{.*}}::@{{.*}} blocks in (%[[C1]], %[[C2]], %[[C1]]) threads in (%[[C32]], %[[C8]], %[[C1]])
// PTX-NOT: linalg.
// PTX-NOT: scf.
// PTX: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80", link = ["{{.*}}libdevice.10.bc"]>, {{.*}}assembly = "{{.*}}.target sm_80
// PTX-NOT: gpu.binary

// CUBIN: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", {{.*}}bin = "\7FELF

// TILES: gpu.launch_func {{.*}} threads in (%[[T:.+]], %[[T]], %{{.+}})

// BADFORMAT: for the --format option: Cannot find option named 'elf'!
// BADCHIP: error: opsnn-lower-to-nvvm: unknown chip 'sm_1' (expected an NVPTX processor such as sm_80)

func.func @matmul_bias(%a: tensor<16x32xf32>, %b: tensor<32x24xf32>, %bias: tensor<24xf32>) -> tensor<16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x24xf32>) outs(%acc : tensor<16x24xf32>) -> tensor<16x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<16x24xf32>, tensor<24xf32>) outs(%e : tensor<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}
