// Row groups of --opsnn-gpu-warp-reduce (fuse-row-ops): which ops after a
// row reduction join its kernel, on buffers. A member must run on the same
// rows, read what the group wrote through the map it was written with,
// write a fresh buffer the group has not touched, and only inert ops (index
// math, constants, allocations, the folded fills of joining reductions)
// may stand between the members; anything else ends the group and the op
// keeps its own path. (One element per access: vector accesses are
// test/GPU/warp-reduce.mlir's.)
// RUN: ops-nn-opt %s --opsnn-gpu-warp-reduce="vectorize=false" --canonicalize --split-input-file | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// The max and its consumer: one launch, at the consumer.
// CHECK-LABEL: func.func @joined
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: arith.subf
// CHECK: memref.store
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.generic
func.func @joined(%x: memref<64x64xf32>) -> memref<64x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  %o = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%o : memref<64x64xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %r = arith.subf %a, %mx : f32
    linalg.yield %r : f32
  }
  memref.dealloc %m : memref<64xf32>
  return %o : memref<64x64xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// A copy between them writes memory: the consumer stays generic.
// CHECK-LABEL: func.func @copy_between
// CHECK: gpu.launch
// CHECK: memref.copy
// CHECK: linalg.generic
func.func @copy_between(%x: memref<64x64xf32>, %z: memref<64x64xf32>) -> memref<64x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  memref.copy %z, %x : memref<64x64xf32> to memref<64x64xf32>
  %o = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%o : memref<64x64xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %r = arith.subf %a, %mx : f32
    linalg.yield %r : f32
  }
  return %o : memref<64x64xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// A consumer that reads its output (accumulates into it) or writes a
// buffer it was given (not fresh) stays generic.
// CHECK-LABEL: func.func @reads_output
// CHECK: gpu.launch
// CHECK: linalg.generic
// CHECK-LABEL: func.func @writes_argument
// CHECK: gpu.launch
// CHECK: linalg.generic
func.func @reads_output(%x: memref<64x64xf32>) -> memref<64x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  %o = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%o : memref<64x64xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %d = arith.subf %a, %mx : f32
    %r = arith.addf %d, %out : f32
    linalg.yield %r : f32
  }
  return %o : memref<64x64xf32>
}
func.func @writes_argument(%x: memref<64x64xf32>, %o: memref<64x64xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%o : memref<64x64xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %r = arith.subf %a, %mx : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#half = affine_map<(i, j) -> (i, j)>

// Another iteration space (half the row) or a second reduction whose
// output holds values from before (no fill to fold): not members.
// CHECK-LABEL: func.func @half_row
// CHECK: gpu.launch
// CHECK: linalg.generic
// CHECK-LABEL: func.func @unfolded_second_reduction
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT: linalg.generic
func.func @half_row(%x: memref<64x64xf32>, %h: memref<64x32xf32>) -> memref<64x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  %o = memref.alloc() : memref<64x32xf32>
  linalg.generic {indexing_maps = [#half, #row, #half], iterator_types = ["parallel", "parallel"]}
      ins(%h, %m : memref<64x32xf32>, memref<64xf32>) outs(%o : memref<64x32xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %r = arith.subf %a, %mx : f32
    linalg.yield %r : f32
  }
  return %o : memref<64x32xf32>
}
func.func @unfolded_second_reduction(%x: memref<64x64xf32>, %s: memref<64xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %r = arith.addf %d, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// linalg.reduce over the last dimension heads a group (as its generic); a
// per-row op (the mean) joins, computed in every lane from the sum.
// CHECK-LABEL: func.func @reduce_mean_center
// CHECK: gpu.launch
// CHECK: gpu.shuffle  xor
// CHECK: %[[MEAN:.*]] = arith.divf
// CHECK: scf.for
// CHECK: arith.subf %{{.*}}, %[[MEAN]]
// CHECK-NOT: linalg.
// CHECK: return
func.func @reduce_mean_center(%x: memref<64x64xf32>) -> memref<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %s = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<64xf32>)
  linalg.reduce ins(%x : memref<64x64xf32>) outs(%s : memref<64xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %m = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : memref<64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  }
  %o = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%o : memref<64x64xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %r = arith.subf %a, %mx : f32
    linalg.yield %r : f32
  }
  return %o : memref<64x64xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// Buffers reused as bufferization leaves them (decomposed linalg.softmax):
// the sum overwrites the max's vector after a fill (folded), the division
// runs in place on exp(x - max). One launch.
// CHECK-LABEL: func.func @reused_buffers
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.
// CHECK: return
func.func @reused_buffers(%x: memref<64x64xf32>) -> memref<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = memref.alloc() : memref<64x64xf32>
  %v = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%v : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%v : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %v : memref<64x64xf32>, memref<64xf32>) outs(%e : memref<64x64xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %d = arith.subf %a, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%zero : f32) outs(%v : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<64x64xf32>) outs(%v : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %v : memref<64x64xf32>, memref<64xf32>) outs(%e : memref<64x64xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  }
  return %e : memref<64x64xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// The consumer reads the maxima directly and through a view (a cast): the
// view is not the buffer the group writes, so it does not join (it would
// read lane 0's store from another lane without a barrier).
// CHECK-LABEL: func.func @through_a_view
// CHECK: gpu.launch
// CHECK: linalg.generic
func.func @through_a_view(%x: memref<64x64xf32>) -> memref<64x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  %v = memref.cast %m : memref<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %v : memref<64x64xf32>, memref<64xf32>, memref<64xf32>) outs(%o : memref<64x64xf32>) {
  ^bb0(%a: f32, %mx: f32, %mv: f32, %out: f32):
    %d = arith.subf %a, %mx : f32
    %r = arith.addf %d, %mv : f32
    linalg.yield %r : f32
  }
  return %o : memref<64x64xf32>
}
