//===- AccessProfile.cpp - Embedding access frequencies -------------------===//

#include "opsnn/Analysis/AccessProfile.h"
#include "opsnn/Support/JSONError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir::opsnn;

static llvm::Error profileError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<AccessProfile>
mlir::opsnn::parseAccessProfile(llvm::StringRef contents) {
  llvm::Expected<llvm::json::Value> root = llvm::json::parse(contents);
  if (!root)
    return profileError(formatJSONParseError(root.takeError()));
  const llvm::json::Object *object = root->getAsObject();
  if (!object)
    return profileError("(root): expected an object with a \"features\" object");
  for (const auto &entry : *object)
    if (entry.first != "features" && entry.first != "schema")
      return profileError("(root)." + entry.first.str() + ": unknown field");
  const llvm::json::Object *features = object->getObject("features");
  if (!features)
    return profileError("(root): expected a \"features\" object");

  AccessProfile profile;
  for (const auto &[name, value] : *features) {
    std::string where = "features." + name.str();
    const llvm::json::Object *feature = value.getAsObject();
    if (!feature)
      return profileError(where + ": expected an object");
    for (const auto &field : *feature)
      if (field.first != "lookups_per_call")
        return profileError(where + "." + field.first.str() +
                            ": unknown field (expected lookups_per_call)");
    std::optional<double> lookups = feature->getNumber("lookups_per_call");
    if (!lookups || *lookups < 0)
      return profileError(where +
                          ".lookups_per_call: expected a number >= 0");
    profile.features[name].lookupsPerCall = *lookups;
  }
  return profile;
}

llvm::Expected<AccessProfile>
mlir::opsnn::loadAccessProfile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return profileError(path + ": cannot read access profile: " +
                        buffer.getError().message());
  llvm::Expected<AccessProfile> profile =
      parseAccessProfile((*buffer)->getBuffer());
  if (!profile) {
    // Syntax errors start with "line:col"; field errors with a JSON path.
    std::string message = llvm::toString(profile.takeError());
    bool located = !message.empty() && llvm::isDigit(message.front());
    return profileError(path + (located ? ":" : ": ") + message);
  }
  return profile;
}
