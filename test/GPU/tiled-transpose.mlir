// Layout conversions on the GPU (--opsnn-gpu-tiled-transpose, on by
// default in the pipeline): a block of 32 x 8 threads reads a 32 x 32 tile
// along the input's contiguous dimensions into shared memory (a 32 x 33
// buffer), waits at bar.sync, and writes along the output's. With
// tiled-transposes=false, the one-thread-per-element kernel of before,
// with no shared memory. Every kernel assembles for sm_75, sm_80 and sm_90
// without spills.
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" | %ptxas_check --arch sm_80 --arch sm_90 --ptx-dir %t.tiled | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=TILED < %t.tiled/nchw_to_nhwc_kernel.ptx
// RUN: FileCheck %s --check-prefix=SCALED < %t.tiled/nhwc_to_nchw_scaled_kernel.ptx
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_75 format=ptx" | %ptxas_check --arch sm_75 | FileCheck %s --check-prefix=PTXAS75
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx tiled-transposes=false" | %ptxas_check --arch sm_80 --ptx-dir %t.naive
// RUN: FileCheck %s --check-prefix=NAIVE < %t.naive/nchw_to_nhwc_kernel.ptx

// PTXAS-COUNT-4: 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS75-COUNT-2: 0 B spill stores, 0 B spill loads, 0 B stack

// TILED-LABEL: .entry nchw_to_nhwc_kernel
// TILED: .shared .align {{[0-9]+}} .b8 {{.*}}[4224];
// TILED: ld.global.b32
// TILED: st.shared.b32
// TILED: bar.sync 0;
// TILED: ld.shared.b32
// TILED: cvt.rn.f16.f32
// TILED: st.global.b16
// NAIVE-LABEL: .entry nchw_to_nhwc_kernel
// NAIVE-NOT: .shared
// NAIVE-NOT: bar.sync
// NAIVE: ld.global
func.func @nchw_to_nhwc(%x: tensor<8x64x28x28xf32>) -> tensor<8x28x28x64xf16> {
  %e = tensor.empty() : tensor<8x28x28x64xf16>
  %y = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, c, h, w)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<8x64x28x28xf32>) outs(%e : tensor<8x28x28x64xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<8x28x28x64xf16>
  return %y : tensor<8x28x28x64xf16>
}

// The f16 input in a 32 x 33 f16 tile, the per-channel scale read from
// global memory in phase 2, no bounds tests (the tiles divide 64 and 1024).
// SCALED-LABEL: .entry nhwc_to_nchw_scaled_kernel
// SCALED: .shared .align {{[0-9]+}} .b8 {{.*}}[2112];
// SCALED-NOT: setp
// SCALED: ld.global.b16
// SCALED: st.shared.b16
// SCALED: bar.sync 0;
// SCALED: ld.shared.b16
// SCALED: st.global.b16
func.func @nhwc_to_nchw_scaled(%x: tensor<2x32x32x64xf16>, %s: tensor<64xf16>) -> tensor<2x64x32x32xf16> {
  %e = tensor.empty() : tensor<2x64x32x32xf16>
  %y = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>, affine_map<(n, c, h, w) -> (c)>,
                       affine_map<(n, c, h, w) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<2x32x32x64xf16>, tensor<64xf16>) outs(%e : tensor<2x64x32x32xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
  } -> tensor<2x64x32x32xf16>
  return %y : tensor<2x64x32x32xf16>
}
