// RUN: ops-nn-opt %s --opsnn-gpu-tiled-transpose -split-input-file -canonicalize -cse | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-gpu-tiled-transpose="emulate-on-cpu" -split-input-file | FileCheck %s --check-prefix=CPU
// RUN: ops-nn-opt %s --opsnn-gpu-tiled-transpose="absorb-copies=false" -split-input-file | FileCheck %s --check-prefix=NOABSORB

// NCHW f32 -> NHWC f16: the input group is H, W (49 elements, 2 tiles),
// the output group C (64, 2 tiles), N the grid's z. Phase 1 reads along
// H*W (tx), phase 2 writes along C (tx), through a 32x33 tile; only the
// ragged H*W group is guarded.
// CHECK-DAG:   #[[IN:.+]] = affine_map<()[s0, s1] -> (s0 + s1 * 32)>
// CHECK-DAG:   #[[H:.+]] = affine_map<()[s0, s1] -> ((s0 + s1 * 32) floordiv 7)>
// CHECK-DAG:   #[[W:.+]] = affine_map<()[s0, s1] -> ((s0 + s1 * 32) mod 7)>
// CHECK-LABEL: func @nchw_to_nhwc
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:   %[[C8:.+]] = arith.constant 8 : index
// CHECK:       gpu.launch blocks(%[[BX:.+]], %[[BY:.+]], %[[BZ:.+]]) in ({{.*}} = %[[C2]], {{.*}} = %[[C2]], {{.*}} = %[[C2]])
// CHECK-SAME:    threads(%[[TX:.+]], %[[TY:.+]], %{{.+}}) in ({{.*}} = %[[C32]], {{.*}} = %[[C8]],
// CHECK-SAME:    workgroup(%[[TILE:.+]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK:         scf.for
// CHECK:           %[[I:.+]] = affine.apply #[[IN]]()[%[[TX]], %[[BY]]]
// CHECK:           %[[OK:.+]] = arith.cmpi ult, %[[I]], %{{.+}} : index
// CHECK:           scf.if %[[OK]]
// CHECK:             %[[HI:.+]] = affine.apply #[[H]]()[%[[TX]], %[[BY]]]
// CHECK:             %[[WI:.+]] = affine.apply #[[W]]()[%[[TX]], %[[BY]]]
// CHECK:             %[[X:.+]] = memref.load %arg0[%[[BZ]], %{{.+}}, %[[HI]], %[[WI]]] : memref<2x64x7x7xf32>
// CHECK:             memref.store %[[X]], %[[TILE]][%{{.+}}, %[[TX]]]
// CHECK:         gpu.barrier
// CHECK:         scf.for
// CHECK:           scf.if
// CHECK:             %[[T:.+]] = memref.load %[[TILE]][%[[TX]], %{{.+}}]
// CHECK:             %[[Y:.+]] = arith.truncf %[[T]] : f32 to f16
// CHECK:             memref.store %[[Y]], %arg1[%[[BZ]], %{{.+}}, %{{.+}}, %{{.+}}] : memref<2x7x7x64xf16>
// CHECK:         gpu.terminator
// CHECK-NOT:   linalg.generic

// CPU-LABEL: func @nchw_to_nhwc
// CPU-NOT:     gpu.
// CPU:         %[[TILE:.+]] = memref.alloc() : memref<32x33xf32>
// CPU:         scf.for
// CPU:           scf.for
// CPU:             scf.for
// CPU:               scf.for
// CPU:                 scf.for
// CPU:                   scf.for
// CPU:                     memref.store %{{.+}}, %[[TILE]]
// CPU:               scf.for
// CPU:                 scf.for
// CPU:                   scf.for
// CPU:                     memref.load %[[TILE]]
// CPU:                     arith.truncf
// CPU:         memref.dealloc %[[TILE]]
func.func @nchw_to_nhwc(%in: memref<2x64x7x7xf32>, %out: memref<2x7x7x64xf16>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, c, h, w)>,
                                   affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<2x64x7x7xf32>) outs(%out : memref<2x7x7x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// NHWC -> NCHW with a fused per-channel scale: the scale is not staged (it
// does not move with the output's group H, W) and is read directly, one
// address per warp; the tiles divide both groups, so nothing is guarded.
// CHECK-LABEL: func @nhwc_to_nchw_scaled
// CHECK:       gpu.launch {{.*}} workgroup(%[[TILE:.+]] : memref<32x33xf16, #gpu.address_space<workgroup>>)
// CHECK-NOT:     scf.if
// CHECK:         memref.load %arg0{{.*}} : memref<1x32x32x64xf16>
// CHECK:         gpu.barrier
// CHECK-NOT:     scf.if
// CHECK:         memref.load %[[TILE]]
// CHECK:         memref.load %arg1[%{{.+}}] : memref<64xf16>
// CHECK:         arith.mulf
// CHECK:         memref.store {{.*}} : memref<1x64x32x32xf16>
func.func @nhwc_to_nchw_scaled(%in: memref<1x32x32x64xf16>, %scale: memref<64xf16>,
                               %out: memref<1x64x32x32xf16>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>,
                                   affine_map<(n, c, h, w) -> (c)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in, %scale : memref<1x32x32x64xf16>, memref<64xf16>)
      outs(%out : memref<1x64x32x32xf16>) {
  ^bb0(%x: f16, %s: f16, %o: f16):
    %m = arith.mulf %x, %s : f16
    linalg.yield %m : f16
  }
  return
}

// -----

// A linalg.transpose that moves the innermost dimension, and the loop
// index of a generalized op (linalg.index becomes the thread's index).
// CHECK-LABEL: func @transpose_op
// CHECK:       gpu.launch {{.*}} workgroup(%{{.+}} : memref<32x33xi8, #gpu.address_space<workgroup>>)
// CHECK-NOT:   linalg.transpose
func.func @transpose_op(%in: memref<64x96xi8>, %out: memref<96x64xi8>) {
  linalg.transpose ins(%in : memref<64x96xi8>) outs(%out : memref<96x64xi8>) permutation = [1, 0]
  return
}

// CHECK-LABEL: func @with_index
// CHECK:       gpu.launch
// CHECK:         gpu.barrier
// CHECK:         %[[I:.+]] = arith.index_cast %{{.+}} : index to i32
// CHECK:         arith.addi %{{.+}}, %[[I]] : i32
// CHECK-NOT:   linalg.index
func.func @with_index(%in: memref<64x96xi32>, %out: memref<96x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<64x96xi32>) outs(%out : memref<96x64xi32>) {
  ^bb0(%x: i32, %o: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %s = arith.addi %x, %ji : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// The conversion's result is only copied into a padded buffer's interior
// (bufferization's tensor.pad): the kernel takes the copy's place, after
// the fill, and writes the interior; the copy and the buffer go.
// CHECK-LABEL: func @absorbs_pad_copy
// CHECK:       %[[PADDED:.+]] = memref.alloc() : memref<1x16x18x18xf32>
// CHECK:       linalg.fill {{.*}} outs(%[[PADDED]]
// CHECK:       %[[INTERIOR:.+]] = memref.subview %[[PADDED]][0, 0, 1, 1] [1, 16, 16, 16]
// CHECK:       gpu.launch
// CHECK:         memref.store %{{.+}}, %[[INTERIOR]]
// CHECK-NOT:   memref.copy
// CHECK-NOT:   memref.alloc
// CHECK:       return %[[PADDED]]
// NOABSORB-LABEL: func @absorbs_pad_copy
// NOABSORB:       memref.alloc() : memref<1x16x16x16xf32>
// NOABSORB:       gpu.launch
// NOABSORB:       memref.copy
func.func @absorbs_pad_copy(%in: memref<1x16x16x16xf32>) -> memref<1x16x18x18xf32> {
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<1x16x16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<1x16x16x16xf32>) outs(%tmp : memref<1x16x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  %padded = memref.alloc() : memref<1x16x18x18xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x16x18x18xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 16, 16, 16] [1, 1, 1, 1]
      : memref<1x16x18x18xf32> to memref<1x16x16x16xf32, strided<[5184, 324, 18, 1], offset: 19>>
  memref.copy %tmp, %interior : memref<1x16x16x16xf32> to memref<1x16x16x16xf32, strided<[5184, 324, 18, 1], offset: 19>>
  memref.dealloc %tmp : memref<1x16x16x16xf32>
  return %padded : memref<1x16x18x18xf32>
}

// -----

// Something between the op and the copy writes the op's input: the kernel
// stays at the op, the copy stays.
// CHECK-LABEL: func @input_written_before_copy
// CHECK:       gpu.launch
// CHECK:       linalg.fill
// CHECK:       memref.copy
func.func @input_written_before_copy(%in: memref<1x16x16x16xf32>, %dst: memref<1x16x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<1x16x16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<1x16x16x16xf32>) outs(%tmp : memref<1x16x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.fill ins(%zero : f32) outs(%in : memref<1x16x16x16xf32>)
  memref.copy %tmp, %dst : memref<1x16x16x16xf32> to memref<1x16x16x16xf32>
  memref.dealloc %tmp : memref<1x16x16x16xf32>
  return
}

// -----

// The payload reads the output buffer (its initial value): the buffer
// stays, and so does the copy.
// CHECK-LABEL: func @output_read_by_payload
// CHECK:       memref.alloc() : memref<1x16x16x16xf32>
// CHECK:       gpu.launch
// CHECK:       memref.copy
func.func @output_read_by_payload(%in: memref<1x16x16x16xf32>, %dst: memref<1x16x16x16xf32>) {
  %tmp = memref.alloc() : memref<1x16x16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<1x16x16x16xf32>) outs(%tmp : memref<1x16x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  memref.copy %tmp, %dst : memref<1x16x16x16xf32> to memref<1x16x16x16xf32>
  memref.dealloc %tmp : memref<1x16x16x16xf32>
  return
}

// -----

// The producer of the staged input computes it point for point over the
// same loops (a pooling into NCHW): the parallel-loop fusion runs both in
// one kernel, which stays.
// CHECK-LABEL: func @fuses_with_producer
// CHECK-NOT:   gpu.launch
// CHECK:       linalg.pooling_nchw_max
// CHECK:       linalg.generic
// CHECK-NOT:   gpu.launch
func.func @fuses_with_producer(%in: memref<1x16x18x18xf32>, %out: memref<1x8x8x16xf16>) {
  %window = memref.alloc() : memref<3x3xf32>
  %pooled = memref.alloc() : memref<1x16x8x8xf32>
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %window : memref<1x16x18x18xf32>, memref<3x3xf32>) outs(%pooled : memref<1x16x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pooled : memref<1x16x8x8xf32>) outs(%out : memref<1x8x8x16xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// Left alone: an RGB image's 3 channels (below min-extent; generalized, as
// every static transpose of the innermost dimension), a copy that keeps the
// innermost dimension, a dynamic shape, a reduction.
// CHECK-LABEL: func @left_alone
// CHECK-NOT:   gpu.launch
// CHECK:       linalg.generic
// CHECK:       linalg.transpose
// CHECK:       linalg.transpose
// CHECK:       linalg.generic
// CHECK-NOT:   gpu.launch
func.func @left_alone(%rgb: memref<1x3x32x32xf32>, %rgbOut: memref<1x32x32x3xf32>,
                      %a: memref<8x64x32xf32>, %aOut: memref<64x8x32xf32>,
                      %d: memref<?x64xf32>, %dOut: memref<64x?xf32>,
                      %r: memref<64x64xf32>, %rOut: memref<64xf32>) {
  linalg.transpose ins(%rgb : memref<1x3x32x32xf32>) outs(%rgbOut : memref<1x32x32x3xf32>) permutation = [0, 2, 3, 1]
  linalg.transpose ins(%a : memref<8x64x32xf32>) outs(%aOut : memref<64x8x32xf32>) permutation = [1, 0, 2]
  linalg.transpose ins(%d : memref<?x64xf32>) outs(%dOut : memref<64x?xf32>) permutation = [1, 0]
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%r : memref<64x64xf32>) outs(%rOut : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}
