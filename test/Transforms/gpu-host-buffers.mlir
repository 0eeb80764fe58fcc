// RUN: ops-nn-opt %s --opsnn-gpu-host-buffers | FileCheck %s

// Arguments registered at entry and unregistered at return; allocations in
// managed memory; deallocation waited for.
// CHECK-LABEL: func @host
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<8xf32> to memref<*xf32>
// CHECK: gpu.host_register %[[A]] : memref<*xf32>
// CHECK: %[[M:.*]] = gpu.alloc host_shared () : memref<8xf32>
// CHECK: %[[D:.*]] = gpu.alloc host_shared (%arg1) : memref<?xf32>
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[T1:.*]] = gpu.dealloc async [%[[T0]]] %[[D]] : memref<?xf32>
// CHECK: gpu.wait [%[[T1]]]
// CHECK: gpu.host_unregister %[[A]] : memref<*xf32>
// CHECK: return %[[M]]
// CHECK-NOT: memref.alloc
func.func @host(%a: memref<8xf32>, %n: index) -> memref<8xf32> {
  %m = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  memref.copy %a, %m : memref<8xf32> to memref<8xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  return %m : memref<8xf32>
}

// Stack buffers become managed memory freed at the end of their block.
// CHECK-LABEL: func @stack
// CHECK: %[[S:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK: gpu.dealloc async [%{{.*}}] %[[S]]
// CHECK: return
func.func @stack() {
  %s = memref.alloca() : memref<4xf32>
  return
}

// Constants are copied to managed memory where they are used.
memref.global "private" constant @weights : memref<2xf32> = dense<[1.0, 2.0]>
// CHECK-LABEL: func @constant
// CHECK: %[[G:.*]] = memref.get_global @weights : memref<2xf32>
// CHECK: %[[M:.*]] = gpu.alloc host_shared () : memref<2xf32>
// CHECK: memref.copy %[[G]], %[[M]] : memref<2xf32> to memref<2xf32>
// CHECK: memref.load %[[M]]
// CHECK: gpu.dealloc async [%{{.*}}] %[[M]]
// CHECK: return
func.func @constant(%i: index) -> f32 {
  %g = memref.get_global @weights : memref<2xf32>
  %v = memref.load %g[%i] : memref<2xf32>
  return %v : f32
}

// -----

// allocations-only (a second run): the host allocations move, nothing is
// registered again.
// RUN: ops-nn-opt %s --split-input-file --opsnn-gpu-host-buffers=allocations-only | FileCheck %s --check-prefix=ALLOC
// ALLOC-LABEL: func @late_allocation
// ALLOC-NOT: gpu.host_register
// ALLOC: %[[M:.+]] = gpu.alloc  host_shared () : memref<16xf32>
// ALLOC: linalg.fill {{.*}} outs(%[[M]] : memref<16xf32>)
// ALLOC: gpu.dealloc async [%{{.+}}] %[[M]] : memref<16xf32>
// ALLOC-NOT: gpu.host_unregister
func.func @late_allocation(%x: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%m : memref<16xf32>)
  memref.copy %m, %x : memref<16xf32> to memref<16xf32>
  memref.dealloc %m : memref<16xf32>
  return
}
