//===- JSONError.h - Located messages for JSON syntax errors ----*- C++ -*-===//
//
// llvm::json::parse reports "[line:col, byte=N]: message"; every file ops-nn
// reads (targets, access profiles) reports "line:col: message" instead, so
// that a caller can put the file name in front the way compilers do.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_SUPPORT_JSONERROR_H
#define OPSNN_SUPPORT_JSONERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::opsnn {

/// Consumes a parse error of llvm::json::parse and returns its message as
/// "line:col: message".
inline std::string formatJSONParseError(llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  llvm::StringRef text(message);
  if (text.consume_front("[")) {
    auto [position, rest] = text.split("]: ");
    return (position.split(',').first + ": " + rest).str();
  }
  return message;
}

} // namespace mlir::opsnn

#endif // OPSNN_SUPPORT_JSONERROR_H
