// The epilogue matching of --opsnn-gpu-tensor-core-matmul on buffers: what
// keeps the fill or a consumer out of the kernel. The kernel is built
// before the nvgpu conversion (to-nvgpu=false) to keep the IR short.
// RUN: ops-nn-opt %s --opsnn-gpu-tensor-core-matmul="to-nvgpu=false tiles=32,16,32,16,8" -split-input-file | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

// C is the caller's buffer: the kernel stores the product to C and the
// consumer's result to D; the fill folds (C is not read).
// CHECK-LABEL: func.func @product_is_an_argument
// CHECK-NOT: linalg.fill
// CHECK: %[[D:.+]] = memref.alloc() : memref<64x64xf16>
// CHECK: gpu.launch
// CHECK-NOT: vector.transfer_read {{.*}} : memref<64x64xf32>, vector<16x8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: vector.store {{.*}}, %[[D]][{{.*}}] : memref<64x64xf16>, vector<8xf16>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
func.func @product_is_an_argument(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>) -> memref<64x64xf16> {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  %d = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%d : memref<64x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return %d : memref<64x64xf16>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The output is the caller's buffer too, which may overlap A, B or C (a
// block would write its tile while others still read them): not fused.
// CHECK-LABEL: func.func @output_is_an_argument
// CHECK: gpu.launch
// CHECK: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: gpu.terminator
// CHECK: linalg.generic
func.func @output_is_an_argument(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>, %d: memref<64x64xf16>) {
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%d : memref<64x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

// The bias is written between the matmul and the consumer: the kernel
// cannot read it early, so the consumer stays and the kernel stores C.
// CHECK-LABEL: func.func @bias_written_in_between
// CHECK: gpu.launch
// CHECK: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: gpu.terminator
// CHECK: linalg.fill {{.*}} outs(%{{.*}} : memref<64xf32>)
// CHECK: linalg.generic
func.func @bias_written_in_between(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %bias: memref<64xf32>) -> memref<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.fill ins(%one : f32) outs(%bias : memref<64xf32>)
  %d = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<64x64xf32>, memref<64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return %d : memref<64x64xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// C is read between its fill and the matmul: the accumulators still start
// at the constant, but the fill stays for that reader.
// CHECK-LABEL: func.func @fill_read_before_the_matmul
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: gpu.launch
// CHECK-NOT: vector.transfer_read {{.*}} : memref<64x64xf32>, vector<16x8xf32>
// CHECK: gpu.terminator
func.func @fill_read_before_the_matmul(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>) -> memref<64x64xf32> {
  %two = arith.constant 2.0 : f32
  %copy = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%two : f32) outs(%c : memref<64x64xf32>)
  memref.copy %c, %copy : memref<64x64xf32> to memref<64x64xf32>
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  return %copy : memref<64x64xf32>
}

// -----

// A fill of a value that is not a constant: the kernel reads C.
// CHECK-LABEL: func.func @fill_of_an_argument
// CHECK: linalg.fill
// CHECK: gpu.launch
// CHECK: vector.transfer_read {{.*}} : memref<64x64xf32>, vector<16x8xf32>
func.func @fill_of_an_argument(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>, %v: f32) {
  linalg.fill ins(%v : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The intermediate result of a chain is returned: the kernel stores both
// outputs (the first one's value is also the second one's input), and C,
// which nobody reads any more, goes.
// CHECK-LABEL: func.func @intermediate_returned
// CHECK: %[[MID:.+]] = memref.alloc() : memref<64x64xf32>
// CHECK: %[[D:.+]] = memref.alloc() : memref<64x64xf32>
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch
// CHECK-NOT: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: %[[NEG:.+]] = arith.negf {{.*}} : vector<8xf32>
// CHECK: vector.store %[[NEG]], %[[MID]]
// CHECK: %[[EXP:.+]] = math.exp %[[NEG]] : vector<8xf32>
// CHECK: vector.store %[[EXP]], %[[D]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return %[[MID]], %[[D]]
func.func @intermediate_returned(%a: memref<64x32xf16>, %b: memref<32x64xf16>) -> (memref<64x64xf32>, memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  %mid = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%mid : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  %d = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mid : memref<64x64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return %mid, %d : memref<64x64xf32>, memref<64x64xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// ReLU in place on C, which is returned, then a cast into a buffer of its
// own: C's value is the ReLU's, stored by the kernel (never the plain
// product), and the cast is stored to D.
// CHECK-LABEL: func.func @in_place_then_cast
// CHECK: %[[C:.+]] = memref.alloc() : memref<64x64xf32>
// CHECK: %[[D:.+]] = memref.alloc() : memref<64x64xf16>
// CHECK: gpu.launch
// CHECK-NOT: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: %[[RELU:.+]] = arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.store %[[RELU]], %[[C]]
// CHECK: %[[HALF:.+]] = arith.truncf %[[RELU]] : vector<8xf32> to vector<8xf16>
// CHECK: vector.store %[[HALF]], %[[D]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return %[[C]], %[[D]]
func.func @in_place_then_cast(%a: memref<64x32xf16>, %b: memref<32x64xf16>) -> (memref<64x64xf32>, memref<64x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }
  %d = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%d : memref<64x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return %c, %d : memref<64x64xf32>, memref<64x64xf16>
}

// -----

#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#from_nhwc = affine_map<(n, c, h, w) -> (n, h, w, c)>
#per_channel = affine_map<(n, c, h, w) -> (c)>
#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#from_nchw = affine_map<(n, h, w, c) -> (n, c, h, w)>

// A batch norm ALTE kept in NCHW after an NHWC convolution: it iterates
// over (n, c, h, w) and reads the product transposed. The kernel takes its
// loops in the product's order: the per-channel scale is the column, the
// NCHW output is stored element by element at (0, col, (row / 8) mod 8,
// row mod 8). The next stage converts that NCHW value back to NHWC
// f16 for the next convolution, reading it through the map it was written
// with: it is the same element, stored as a row of 8 halves. The NCHW
// output is also returned (a residual reads it): both are stored, the f32
// product goes.
// CHECK-DAG: #[[H:.+]] = affine_map<(d0, d1) -> ((d0 floordiv 8) mod 8)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1) -> (d0 mod 8)>
// CHECK-LABEL: func.func @nchw_consumer
// CHECK-NOT: memref<1x8x8x64xf32>
// CHECK: %[[NCHW:.+]] = memref.alloc() : memref<1x64x8x8xf32>
// CHECK: %[[NHWC:.+]] = memref.alloc() : memref<1x8x8x64xf16>
// CHECK: %[[VIEW:.+]] = memref.collapse_shape %[[NHWC]] {{\[\[}}0, 1, 2], [3]]
// CHECK: gpu.launch
// CHECK-NOT: vector.transfer_write {{.*}} : vector<16x8xf32>
// CHECK: %[[SCALED:.+]] = arith.mulf {{.*}} : vector<8xf32>
// CHECK: %[[ROWH:.+]] = affine.apply #[[H]]
// CHECK: %[[ROWW:.+]] = affine.apply #[[W]]
// CHECK: memref.store {{.*}}, %[[NCHW]][%{{.+}}, %{{.+}}, %[[ROWH]], %[[ROWW]]] : memref<1x64x8x8xf32>
// CHECK: %[[HALF:.+]] = arith.truncf %[[SCALED]] : vector<8xf32> to vector<8xf16>
// CHECK: vector.store %[[HALF]], %[[VIEW]][{{.*}}] : memref<64x64xf16>, vector<8xf16>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return %[[NCHW]], %[[NHWC]]
func.func @nchw_consumer(%in: memref<1x10x10x32xf16>, %f: memref<3x3x32x64xf16>, %scale: memref<64xf32>)
    -> (memref<1x64x8x8xf32>, memref<1x8x8x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x8x8x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x8x8x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : memref<1x10x10x32xf16>, memref<3x3x32x64xf16>) outs(%c : memref<1x8x8x64xf32>)
  %bn = memref.alloc() : memref<1x64x8x8xf32>
  linalg.generic {indexing_maps = [#from_nhwc, #per_channel, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %scale : memref<1x8x8x64xf32>, memref<64xf32>) outs(%bn : memref<1x64x8x8xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  }
  memref.dealloc %c : memref<1x8x8x64xf32>
  %next = memref.alloc() : memref<1x8x8x64xf16>
  linalg.generic {indexing_maps = [#from_nchw, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bn : memref<1x64x8x8xf32>) outs(%next : memref<1x8x8x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return %bn, %next : memref<1x64x8x8xf32>, memref<1x8x8x64xf16>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>

// A consumer that reads the product through two different maps (x + x^T)
// needs other elements than the fragment's: it stays.
// CHECK-LABEL: func.func @product_read_twice
// CHECK: gpu.launch
// CHECK: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: gpu.terminator
// CHECK: linalg.generic
func.func @product_read_twice(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %d: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %c : memref<64x64xf32>, memref<64x64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The consumer's payload is not elementwise arith/math (it reads the
// iteration index): not fused.
// CHECK-LABEL: func.func @payload_uses_index
// CHECK: gpu.launch
// CHECK: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: gpu.terminator
// CHECK: linalg.generic
// CHECK: linalg.index
func.func @payload_uses_index(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %d: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %x, %f : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

// The second consumer reads the product C again besides the chain's
// current value: the kernel computes C in registers (and would not even
// store it), so the chain stops after the first consumer, and C is stored
// for the second.
// CHECK-LABEL: func.func @product_read_again
// CHECK: gpu.launch
// CHECK: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: gpu.terminator
// CHECK: linalg.generic
// CHECK: arith.mulf
func.func @product_read_again(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %bias: memref<64xf32>) -> memref<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  %t = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<64x64xf32>, memref<64xf32>) outs(%t : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %d = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %c : memref<64x64xf32>, memref<64x64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  }
  return %d : memref<64x64xf32>
}

// -----

#id = affine_map<(n, h, w, f) -> (n, h, w, f)>
#ch = affine_map<(n, h, w, f) -> (f)>
#pixel = affine_map<(n, h, w, f) -> (n, h, w)>

// A convolution's consumers in its M x N space (M = N*OH*OW = 64, F = 64):
// the per-channel bias reads column n, the per-pixel scale (an N x OH x OW
// buffer) the row m of its collapsed view, the residual its M x N view. The
// zero fill folds, the f32 output and its view go; the kernel stores f16 to
// the M x N view of the consumer's output.
// CHECK-LABEL: func.func @conv_consumers
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref<1x8x8x64xf32>
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<1x8x8x64xf16>
// CHECK-DAG: %[[PIXEL:.+]] = memref.collapse_shape %arg3 {{\[\[}}0, 1, 2]] : memref<1x8x8xf32> into memref<64xf32>
// CHECK-DAG: %[[RES:.+]] = memref.collapse_shape %arg4 {{\[\[}}0, 1, 2], [3]] : memref<1x8x8x64xf16> into memref<64x64xf16>
// CHECK-DAG: %[[VIEW:.+]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1, 2], [3]] : memref<1x8x8x64xf16> into memref<64x64xf16>
// CHECK: gpu.launch
// CHECK-NOT: vector.transfer_read {{.*}} vector<16x8xf32>
// CHECK: scf.for
// CHECK: vector.load %arg2[%{{.+}}] : memref<64xf32>, vector<8xf32>
// CHECK: memref.load %[[PIXEL]][%{{.+}}] : memref<64xf32>
// CHECK: vector.broadcast {{.*}} : f32 to vector<8xf32>
// CHECK: vector.load %[[RES]][%{{.+}}, %{{.+}}] : memref<64x64xf16>, vector<8xf16>
// CHECK: vector.store %{{.+}}, %[[VIEW]][%{{.+}}, %{{.+}}] : memref<64x64xf16>, vector<8xf16>
// CHECK-NOT: memref<1x8x8x64xf32>
// CHECK: gpu.terminator
// CHECK-NOT: linalg
// CHECK: return %[[OUT]]
func.func @conv_consumers(%in: memref<1x10x10x32xf16>, %f: memref<3x3x32x64xf16>, %bias: memref<64xf32>,
                          %scale: memref<1x8x8xf32>, %res: memref<1x8x8x64xf16>) -> memref<1x8x8x64xf16> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x8x8x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x8x8x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : memref<1x10x10x32xf16>, memref<3x3x32x64xf16>) outs(%c : memref<1x8x8x64xf32>)
  %out = memref.alloc() : memref<1x8x8x64xf16>
  linalg.generic {indexing_maps = [#id, #ch, #pixel, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias, %scale, %res : memref<1x8x8x64xf32>, memref<64xf32>, memref<1x8x8xf32>, memref<1x8x8x64xf16>)
      outs(%out : memref<1x8x8x64xf16>) {
  ^bb0(%x: f32, %b: f32, %s: f32, %r: f16, %o: f16):
    %y = arith.addf %x, %b : f32
    %z = arith.mulf %y, %s : f32
    %rr = arith.extf %r : f16 to f32
    %w = arith.addf %z, %rr : f32
    %t = arith.truncf %w : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<1x8x8x64xf32>
  return %out : memref<1x8x8x64xf16>
}

// -----

#id = affine_map<(n, h, w, f) -> (n, h, w, f)>
#hw = affine_map<(n, h, w, f) -> (n, w, h, f)>

// The residual is read with OH and OW swapped: row m of the M x N view is
// not a row of that buffer, but each of its indices is one of the row's
// dimensions, (m floordiv stride) mod size: oh = (m floordiv 8) mod 8,
// ow = m mod 8. The consumer is the epilogue; the residual is read in
// place (no view).
// CHECK-DAG: #[[OH:.+]] = affine_map<(d0, d1) -> ((d0 floordiv 8) mod 8)>
// CHECK-DAG: #[[OW:.+]] = affine_map<(d0, d1) -> (d0 mod 8)>
// CHECK-LABEL: func.func @conv_consumer_swaps_oh_ow
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch
// CHECK: %[[ROWOW:.+]] = affine.apply #[[OW]](%[[ROW:.+]], %{{.+}})
// CHECK: %[[ROWOH:.+]] = affine.apply #[[OH]](%[[ROW]], %{{.+}})
// CHECK: vector.load %arg2[%{{.+}}, %[[ROWOW]], %[[ROWOH]], %{{.+}}] : memref<1x8x8x64xf32>, vector<8xf32>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
func.func @conv_consumer_swaps_oh_ow(%in: memref<1x10x10x32xf16>, %f: memref<3x3x32x64xf16>,
                                     %res: memref<1x8x8x64xf32>) -> memref<1x8x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x8x8x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x8x8x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : memref<1x10x10x32xf16>, memref<3x3x32x64xf16>) outs(%c : memref<1x8x8x64xf32>)
  %out = memref.alloc() : memref<1x8x8x64xf32>
  linalg.generic {indexing_maps = [#id, #hw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %res : memref<1x8x8x64xf32>, memref<1x8x8x64xf32>) outs(%out : memref<1x8x8x64xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %r : f32
    linalg.yield %s : f32
  }
  return %out : memref<1x8x8x64xf32>
}

// -----

#x = affine_map<(b, s, h, e, k) -> (b, s, k)>
#w = affine_map<(b, s, h, e, k) -> (k, h, e)>
#o = affine_map<(b, s, h, e, k) -> (b, s, h, e)>
#id4 = affine_map<(b, s, h, e) -> (b, s, h, e)>
#e = affine_map<(b, s, h, e) -> (e)>

// A projection's columns are (h, e): an operand read per e alone takes a
// column dimension apart, which the epilogue does not (its loads are rows
// of consecutive columns): the consumer stays.
// CHECK-LABEL: func.func @column_dimension_apart
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: linalg.generic
func.func @column_dimension_apart(%x: memref<2x16x32xf16>, %wt: memref<32x2x16xf16>,
                                  %v: memref<16xf32>) -> memref<2x16x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x16x2x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x16x2x16xf32>)
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %wt : memref<2x16x32xf16>, memref<32x2x16xf16>) outs(%c : memref<2x16x2x16xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  %out = memref.alloc() : memref<2x16x2x16xf32>
  linalg.generic {indexing_maps = [#id4, #e, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %v : memref<2x16x2x16xf32>, memref<16xf32>) outs(%out : memref<2x16x2x16xf32>) {
  ^bb0(%y: f32, %r: f32, %o: f32):
    %s = arith.addf %y, %r : f32
    linalg.yield %s : f32
  }
  return %out : memref<2x16x2x16xf32>
}

// -----

#id = affine_map<(n, h, w, f) -> (n, h, w, f)>
#ch = affine_map<(n, h, w, f) -> (f)>

// The same safety rules as for a matmul: the bias is written between the
// convolution and its consumer, so the consumer stays; the output is the
// caller's buffer, so the fill folds but the product is stored.
// CHECK-LABEL: func.func @conv_bias_written_in_between
// CHECK-NOT: linalg.fill {{.*}} memref<1x8x8x64xf32>
// CHECK: gpu.launch
// CHECK: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: gpu.terminator
// CHECK: linalg.fill {{.*}} outs(%{{.*}} : memref<64xf32>)
// CHECK: linalg.generic
func.func @conv_bias_written_in_between(%in: memref<1x10x10x32xf16>, %f: memref<3x3x32x64xf16>, %bias: memref<64xf32>,
                                        %c: memref<1x8x8x64xf32>) -> memref<1x8x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x8x8x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : memref<1x10x10x32xf16>, memref<3x3x32x64xf16>) outs(%c : memref<1x8x8x64xf32>)
  linalg.fill ins(%one : f32) outs(%bias : memref<64xf32>)
  %out = memref.alloc() : memref<1x8x8x64xf32>
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<1x8x8x64xf32>, memref<64xf32>) outs(%out : memref<1x8x8x64xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  }
  return %out : memref<1x8x8x64xf32>
}

// -----

#a = affine_map<(b, h, i, j, k) -> (b, h, i, k)>
#b = affine_map<(b, h, i, j, k) -> (b, h, k, j)>
#c = affine_map<(b, h, i, j, k) -> (b, h, i, j)>
#id = affine_map<(b, h, i, d) -> (b, h, i, d)>
#bihd = affine_map<(b, h, i, d) -> (b, i, h, d)>
#bdhi = affine_map<(b, h, i, d) -> (b, d, h, i)>

// A batched GEMM's cast written back as [b, s, h, d]: the last stage stores
// through the permutation, the row index split into (b, h, i); d stays the
// innermost dimension, so the rows are vector stores. The product is not
// stored.
// CHECK-LABEL: func.func @permuted_output
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<2x64x3x32xf16>
// CHECK: gpu.launch
// CHECK-NOT: vector.transfer_write {{.*}}xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: vector.store {{.*}}, %[[OUT]][{{.*}}] : memref<2x64x3x32xf16>, vector<8xf16>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return %[[OUT]]
func.func @permuted_output(%p: memref<2x3x64x64xf16>, %v: memref<2x3x64x32xf16>) -> memref<2x64x3x32xf16> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x3x64x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x3x64x32xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : memref<2x3x64x64xf16>, memref<2x3x64x32xf16>) outs(%c : memref<2x3x64x32xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %x32 = arith.extf %x : f16 to f32
    %y32 = arith.extf %y : f16 to f32
    %m = arith.mulf %x32, %y32 : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  %out = memref.alloc() : memref<2x64x3x32xf16>
  linalg.generic {indexing_maps = [#id, #bihd], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<2x3x64x32xf32>) outs(%out : memref<2x64x3x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<2x3x64x32xf32>
  return %out : memref<2x64x3x32xf16>
}

// The column d written outermost but one ([b, d, h, i]): the elements of a
// row are apart in the output, one scalar store each.
// CHECK-LABEL: func.func @permuted_output_column_apart
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<2x32x3x64xf16>
// CHECK: gpu.launch
// CHECK-NOT: vector.store
// CHECK: memref.store {{.*}}, %[[OUT]][{{.*}}] : memref<2x32x3x64xf16>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
func.func @permuted_output_column_apart(%p: memref<2x3x64x64xf16>, %v: memref<2x3x64x32xf16>) -> memref<2x32x3x64xf16> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x3x64x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x3x64x32xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : memref<2x3x64x64xf16>, memref<2x3x64x32xf16>) outs(%c : memref<2x3x64x32xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %x32 = arith.extf %x : f16 to f32
    %y32 = arith.extf %y : f16 to f32
    %m = arith.mulf %x32, %y32 : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  %out = memref.alloc() : memref<2x32x3x64xf16>
  linalg.generic {indexing_maps = [#id, #bdhi], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<2x3x64x32xf32>) outs(%out : memref<2x32x3x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<2x3x64x32xf32>
  return %out : memref<2x32x3x64xf16>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>

// An in-place update that reads and writes the product through the same
// transposed map is elementwise on it: the kernel takes its loops in the
// product's order and stores x + x to C. Accumulating into a transposed
// output of its own (its old value read) stays a consumer.
// CHECK-LABEL: func.func @transposed_in_place
// CHECK: gpu.launch
// CHECK-NOT: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<64x64xf32>
// CHECK: %[[SUM:.+]] = arith.addf %[[X:.+]], %[[X]] : vector<8xf32>
// CHECK: vector.store %[[SUM]], %{{.+}}[%{{.+}}, %{{.+}}] : memref<64x64xf32>, vector<8xf32>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
func.func @transposed_in_place(%a: memref<64x32xf16>, %b: memref<32x64xf16>) -> memref<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#t], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  return %c : memref<64x64xf32>
}

// CHECK-LABEL: func.func @transposed_accumulate
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: linalg.generic
func.func @transposed_accumulate(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %d: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #t], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

memref.global "private" constant @weight : memref<32x64xf16> = dense<1.0>

// B is a global's (a weight bufferized from a constant): the consumer's
// freshly allocated output cannot overlap it, so the consumer is fused.
// CHECK-LABEL: func.func @weight_is_a_global
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
func.func @weight_is_a_global(%a: memref<64x32xf16>, %bias: memref<64xf32>) -> memref<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %b = memref.get_global @weight : memref<32x64xf16>
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  %d = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<64x64xf32>, memref<64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<64x64xf32>
  return %d : memref<64x64xf32>
}
