// The stock mlir-opt runs our pipeline through OpsNNPlugin.so: the dialect
// plugin makes our IR parse (layout.convert, #opsnn.target), the pass plugin
// registers every pass and pipeline. The result is ops-nn-opt's, to the byte.
// Stock mlir-opt is not instrumented: an ASan build of the plugin cannot load.
// UNSUPPORTED: sanitized
// RUN: %mlir_opt %s --load-dialect-plugin=%opsnn_plugin --load-pass-plugin=%opsnn_plugin \
// RUN:   --pass-pipeline="builtin.module(opsnn-optimize{target=a100 precision=mixed-fp16})" > %t.plugin.mlir
// RUN: ops-nn-opt %s --opsnn-optimize="target=a100 precision=mixed-fp16" > %t.opsnn.mlir
// RUN: diff %t.opsnn.mlir %t.plugin.mlir
// RUN: FileCheck %s < %t.plugin.mlir

// A single pass by name, with our dialects only from the plugin.
// RUN: %mlir_opt %s --load-dialect-plugin=%opsnn_plugin --load-pass-plugin=%opsnn_plugin \
// RUN:   --pass-pipeline="builtin.module(func.func(opsnn-lower-layouts))" | FileCheck %s --check-prefix=LOWER

// Without the dialect plugin, our IR does not parse; without the pass
// plugin, our passes do not exist.
// RUN: not %mlir_opt %s --load-pass-plugin=%opsnn_plugin 2>&1 | FileCheck %s --check-prefix=NODIALECT
// RUN: not %mlir_opt %s --load-dialect-plugin=%opsnn_plugin \
// RUN:   --pass-pipeline="builtin.module(opsnn-optimize)" 2>&1 | FileCheck %s --check-prefix=NOPASS
// mlir-opt reports a plugin it cannot load and goes on without it.
// RUN: not %mlir_opt %s --load-dialect-plugin=%opsnn_plugin --load-pass-plugin=%t.missing.so \
// RUN:   --pass-pipeline="builtin.module(opsnn-optimize)" 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK-LABEL: func.func @relu_nhwc
// CHECK: linalg.generic {{.*}}precision.decision
// LOWER-LABEL: func.func @relu_nhwc
// LOWER-NOT: layout.convert
// LOWER: linalg.transpose
// NODIALECT: plugin.mlir:[[@LINE+5]]:{{[0-9]+}}: error: {{.*}} attribute created with unregistered dialect
// NOPASS: 'opsnn-optimize' does not refer to a registered pass or pass pipeline
// MISSING: Failed to load passes from '{{.*}}missing.so'. Request ignored.
// MISSING: 'opsnn-optimize' does not refer to a registered pass or pass pipeline

module attributes {opsnn.target = #opsnn.target<"a100">} {
  func.func @relu_nhwc(%x: tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x8x4x4xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                          affine_map<(n, c, h, w) -> (n, c, h, w)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%x : tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x8x4x4xf32>
    %y = layout.convert %r from "NCHW" to "NHWC" : tensor<1x8x4x4xf32> -> tensor<1x4x4x8xf32>
    return %y : tensor<1x4x4x8xf32>
  }
}
