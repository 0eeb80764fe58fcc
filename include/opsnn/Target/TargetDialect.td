//===- TargetDialect.td - The opsnn dialect and its target attribute ------===//
//
// The `opsnn` dialect holds what is not layout or precision: for now the
// target description attribute `#opsnn.target<"a100">` that every cost
// decision reads.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_TARGET_TARGETDIALECT_TD
#define OPSNN_TARGET_TARGETDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def OpsNN_Dialect : Dialect {
  let name = "opsnn";
  let cppNamespace = "::mlir::opsnn";
  let summary = "ops-nn target descriptions";
  let description = [{
    `#opsnn.target<"name">` names a hardware target whose parameters
    (bandwidth, peak rates per precision, caches, SM count, shared memory)
    come from the built-in table or from a JSON file loaded with
    `--opsnn-target-file=`. See `docs/Targets.md` for the entries and their
    datasheet sources.
  }];
  let useDefaultAttributePrinterParser = 1;
}

def OpsNN_TargetAttr : AttrDef<OpsNN_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "A hardware target, by name";
  let description = [{
    ```mlir
    module attributes {opsnn.target = #opsnn.target<"a100">} { ... }
    ```

    Built-in names: `t4`, `v100`, `a100`, `h100`, `h200`, `host`. An unknown
    name is a parse error that lists the known ones.
  }];
  let parameters = (ins StringRefParameter<"target name">:$name);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The parameters of this target. Always succeeds for attributes that
    /// were parsed; built programmatically with an unregistered name, fails.
    ::mlir::FailureOr<::mlir::opsnn::TargetDescription> getDescription() const;
  }];
}

#endif // OPSNN_TARGET_TARGETDIALECT_TD
