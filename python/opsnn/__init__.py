"""opsnn: ONNX import, compilation, execution and reports for ops-nn.

The compiler itself is C++ (MLIR 22); this package drives its tools
(`ops-nn-opt`, `ops-nn-run`, located as described in `opsnn.tools`) and adds
what lives naturally in Python: the ONNX importer (`opsnn.onnx_import`), the
ONNX conformance runner (`python -m opsnn.conformance`) and the model zoo
(`python -m opsnn.zoo`). The command line is `python -m opsnn`.
"""

from .api import (Artifact, InputError, compile, import_model, optimize_mlir, report, run,
                  write_mlir)
from .onnx_import import (ImportError_ as ImporterError, InvalidModel, SUPPORTED_OPS,
                          UnsupportedOperator, import_onnx)
from .tools import ToolError
from .torch_export import export_torch

__version__ = "0.1.0"

__all__ = ["Artifact", "InputError", "ImporterError", "InvalidModel", "SUPPORTED_OPS",
           "ToolError", "UnsupportedOperator", "compile", "export_torch", "import_model",
           "import_onnx",
           "optimize_mlir", "report", "run", "write_mlir", "__version__"]
