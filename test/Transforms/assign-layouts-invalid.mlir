// Bad options: a clear error on the function, never a crash.
// RUN: not ops-nn-opt %s --opsnn-assign-layouts="prefer=convolutionz:nhwc" 2>&1 | FileCheck %s --check-prefix=CLASS
// RUN: not ops-nn-opt %s --opsnn-assign-layouts="prefer=conv:nhcw" 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not ops-nn-opt %s --opsnn-assign-layouts="score-threshold=1.5" 2>&1 | FileCheck %s --check-prefix=SCORE
// RUN: not ops-nn-opt %s --opsnn-assign-layouts="intensity-threshold=-2" 2>&1 | FileCheck %s --check-prefix=INTENSITY
// RUN: not ops-nn-opt %s --opsnn-assign-layouts="strategy=random" 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not ops-nn-opt %s --opsnn-assign-layouts="abi=caller" 2>&1 | FileCheck %s --check-prefix=ABI
// RUN: not ops-nn-opt %s --opsnn-assign-layouts="target=tpu" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not ops-nn-opt %s --opsnn-assign-layouts="dynamic-size-hint=0" 2>&1 | FileCheck %s --check-prefix=HINT
// RUN: not ops-nn-opt %s --opsnn-assign-layouts="prefer=conv:nhwc,conv:nchw" 2>&1 | FileCheck %s --check-prefix=TWICE

// CLASS: error: opsnn-assign-layouts: unknown op class 'convolutionz' in prefer=convolutionz:nhwc (expected one of conv, gemm, pool, elementwise, broadcast, reduction, norm, softmax, data-movement)
// LAYOUT: error: opsnn-assign-layouts: unknown layout 'nhcw' in prefer=conv:nhcw (expected keep, auto, nchw or nhwc)
// SCORE: error: opsnn-assign-layouts: score-threshold must be in [0, 1], got 1.5
// INTENSITY: error: opsnn-assign-layouts: intensity-threshold must be >= 0, got -2
// STRATEGY: error: opsnn-assign-layouts: strategy must be global or greedy, got 'random'
// ABI: error: opsnn-assign-layouts: abi must be keep or free, got 'caller'
// TARGET: error: opsnn-assign-layouts: unknown target "tpu"; known targets: t4, v100, a100, l4, h100, h200, host
// HINT: error: opsnn-assign-layouts: dynamic-size-hint must be >= 1
// TWICE: error: opsnn-assign-layouts: op class 'conv' is given twice in prefer
func.func @f(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  return %x : tensor<1x8x4x4xf32>
}
