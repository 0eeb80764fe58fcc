"""End-to-end: every small zoo model, our CPU output vs onnxruntime on the
same random input, relative L2 <= 1e-4 in FP32."""

import pytest

from opsnn import zoo


@pytest.mark.parametrize("name", sorted(zoo.MODELS))
def test_zoo_model_matches_onnxruntime(name, tmp_path):
    path = zoo.build(name, tmp_path)
    errors = zoo.check(path)
    assert errors and max(errors) <= 1e-4, errors
