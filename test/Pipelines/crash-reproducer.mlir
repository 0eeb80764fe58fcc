// A failing ops-nn pipeline leaves a reproducer that ops-nn-opt re-runs:
// --mlir-pass-pipeline-crash-reproducer works with our passes (their options
// print back into a pipeline that parses) and -o writes nothing on failure.
// RUN: rm -f %t.repro.mlir %t.local.mlir %t.out
// RUN: not ops-nn-opt %s --opsnn-optimize="target=a1000 precision=mixed-fp16" \
// RUN:   --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir -o %t.out 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not test -e %t.out
// RUN: FileCheck %s --check-prefix=REPRO < %t.repro.mlir
// RUN: not ops-nn-opt %t.repro.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=REPLAY

// The local reproducer narrows the pipeline to the failing pass.
// RUN: not ops-nn-opt %s --opsnn-optimize="target=a1000" --mlir-disable-threading \
// RUN:   --mlir-pass-pipeline-crash-reproducer=%t.local.mlir --mlir-pass-pipeline-local-reproducer 2>/dev/null
// RUN: FileCheck %s --check-prefix=LOCAL < %t.local.mlir
// RUN: not ops-nn-opt %t.local.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=REPLAY

// FAIL: error: opsnn-assign-layouts: unknown target "a1000"
// FAIL: note: Pipeline failed while executing [`AssignLayoutsPass` on 'func.func' operation: @conv_relu]: reproducer generated at
// REPRO: func.func @conv_relu
// REPRO: pipeline: "builtin.module(func.func(opsnn-assign-layouts{{.*}}target=a1000},opsnn-propagate-layouts{{.*}}opsnn-assign-precision{{.*}}mode=mixed-fp16{{.*}}opsnn-eliminate-casts
// REPRO: verify_each: true
// LOCAL: pipeline: "builtin.module(func.func(opsnn-assign-layouts{{.*}}target=a1000}))"
// REPLAY: error: opsnn-assign-layouts: unknown target "a1000"

func.func @conv_relu(%x: tensor<1x8x10x10xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>)
                                outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                        affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x8xf32>) outs(%e : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
