func.func @broken(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %y : tensor<4xf32>
}
