// A DLRM-style function: a bottom MLP on 13 dense features, three sparse
// features looked up in embedding tables, their sum, a top layer.
// The user and item tables come column-major (16 x rows: the embedding
// dimension outermost), the country table row-contiguous.
// --opsnn-assign-embedding-layouts with an access profile
// (test/Transforms/Inputs/dlrm-profile.json) converts the hot user table
// to row-contiguous and keeps the cold item table.
//
// Checked against NumPy, as is and after the pass, by
// test/Integration/CPU/dlrm-embeddings.test with the directives below.
// VALUES: int [1, 49]
// REF: bottom = np.maximum(in0 @ in1, 0)
// REF: out0 = (bottom + in5.T[in2] + in6.T[in3] + in7[in4]) @ in8
// TOL: 1e-5

#ids = affine_map<(b, d) -> (b)>
#rows = affine_map<(b, d) -> (b, d)>
func.func @dlrm(%dense: tensor<4x13xf32>, %w_bottom: tensor<13x16xf32>,
                %user_ids: tensor<4xi32>, %item_ids: tensor<4xi32>, %country_ids: tensor<4xi32>,
                %user_table: tensor<16x1000xf32> {opsnn.feature = "user_id"},
                %item_table: tensor<16x500xf32> {opsnn.feature = "item_id"},
                %country_table: tensor<50x16xf32> {opsnn.feature = "country"},
                %w_top: tensor<16x1xf32>) -> tensor<4x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%dense, %w_bottom : tensor<4x13xf32>, tensor<13x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>

  %user = linalg.generic {indexing_maps = [#ids, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%user_ids : tensor<4xi32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%id: i32, %o: f32):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %user_table[%col, %row] : tensor<16x1000xf32>
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %item = linalg.generic {indexing_maps = [#ids, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%item_ids : tensor<4xi32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%id: i32, %o: f32):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %item_table[%col, %row] : tensor<16x500xf32>
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %country = linalg.generic {indexing_maps = [#ids, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%country_ids : tensor<4xi32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%id: i32, %o: f32):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %country_table[%row, %col] : tensor<50x16xf32>
    linalg.yield %v : f32
  } -> tensor<4x16xf32>

  %sum = linalg.generic {indexing_maps = [#rows, #rows, #rows, #rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %user, %item, %country : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
      outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %u: f32, %i: f32, %c: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    %s0 = arith.addf %r, %u : f32
    %s1 = arith.addf %s0, %i : f32
    %s2 = arith.addf %s1, %c : f32
    linalg.yield %s2 : f32
  } -> tensor<4x16xf32>
  %et = tensor.empty() : tensor<4x1xf32>
  %acct = linalg.fill ins(%zero : f32) outs(%et : tensor<4x1xf32>) -> tensor<4x1xf32>
  %out = linalg.matmul ins(%sum, %w_top : tensor<4x16xf32>, tensor<16x1xf32>) outs(%acct : tensor<4x1xf32>) -> tensor<4x1xf32>
  return %out : tensor<4x1xf32>
}
