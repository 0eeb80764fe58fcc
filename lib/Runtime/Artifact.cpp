//===- Artifact.cpp - Compiled models on disk -----------------------------===//
//
// manifest.json reading and writing (a small JSON reader: the runtime links
// neither LLVM nor MLIR) and loading of CPU artifacts with dlopen.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Runtime/Artifact.h"

#include <cctype>
#include <cstring>
#include <tuple>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <sstream>

using namespace mlir::opsnn::runtime;

namespace {
/// A JSON value: just what manifests need.
struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;
};

/// Recursive-descent JSON reader with line:column errors.
class JsonReader {
public:
  explicit JsonReader(const std::string &text) : text(text) {}

  bool read(Json &value, std::string &error) {
    if (!parseValue(value, 0) || (skipSpace(), pos != text.size())) {
      if (message.empty())
        message = "unexpected text after the JSON value";
      error = location() + ": " + message;
      return false;
    }
    return true;
  }

private:
  std::string location() const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return std::to_string(line) + ":" + std::to_string(column);
  }
  bool fail(const std::string &what) {
    message = what;
    return false;
  }
  void skipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool parseString(std::string &out) {
    if (!consume('"'))
      return fail(pos >= text.size() ? "unexpected end of input"
                                     : "expected a string");
    while (pos < text.size() && text[pos] != '"') {
      char c = text[pos++];
      if (c == '\\') {
        if (pos >= text.size())
          break;
        char e = text[pos++];
        switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': return fail("\\u escapes are not supported in manifests");
        default: out += e; break;
        }
      } else {
        out += c;
      }
    }
    if (pos >= text.size())
      return fail("unterminated string");
    ++pos;
    return true;
  }
  bool parseValue(Json &value, int depth) {
    if (depth > 32)
      return fail("nesting too deep");
    skipSpace();
    if (pos >= text.size())
      return fail("unexpected end of input");
    char c = text[pos];
    if (c == '{') {
      ++pos;
      value.kind = Json::Object;
      if (consume('}'))
        return true;
      do {
        std::string key;
        if (!parseString(key))
          return false;
        if (!consume(':'))
          return fail("expected ':'");
        if (!parseValue(value.object[key], depth + 1))
          return false;
      } while (consume(','));
      return consume('}') || fail("expected ',' or '}'");
    }
    if (c == '[') {
      ++pos;
      value.kind = Json::Array;
      if (consume(']'))
        return true;
      do {
        value.array.emplace_back();
        if (!parseValue(value.array.back(), depth + 1))
          return false;
      } while (consume(','));
      return consume(']') || fail("expected ',' or ']'");
    }
    if (c == '"') {
      value.kind = Json::String;
      return parseString(value.string);
    }
    for (auto [word, kind, flag] :
         {std::tuple{"true", Json::Bool, true}, {"false", Json::Bool, false},
          {"null", Json::Null, false}}) {
      if (text.compare(pos, std::strlen(word), word) == 0) {
        pos += std::strlen(word);
        value.kind = kind;
        value.boolean = flag;
        return true;
      }
    }
    size_t start = pos;
    while (pos < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[pos])) ||
            std::string("+-.eE").find(text[pos]) != std::string::npos))
      ++pos;
    if (start == pos)
      return fail("unexpected character '" + std::string(1, c) + "'");
    value.kind = Json::Number;
    value.number = std::strtod(text.substr(start, pos - start).c_str(), nullptr);
    return true;
  }

  const std::string &text;
  size_t pos = 0;
  std::string message;
};

std::string quote(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

void writeSpecs(std::ostream &os, const std::vector<TensorSpec> &specs) {
  os << "[";
  for (size_t i = 0; i < specs.size(); ++i) {
    const TensorSpec &spec = specs[i];
    os << (i ? ",\n    " : "\n    ") << "{\"type\": " << quote(spec.type)
       << ", \"element_type\": " << quote(spec.elementType)
       << ", \"dtype\": " << quote(spec.descr) << ", \"shape\": [";
    for (size_t d = 0; d < spec.shape.size(); ++d)
      os << (d ? ", " : "") << spec.shape[d];
    os << "]}";
  }
  os << (specs.empty() ? "]" : "\n  ]");
}

/// Reads field `key` of `object` as a string.
bool getString(const Json &object, const std::string &key,
               const std::string &where, std::string &out,
               std::string &error) {
  auto it = object.object.find(key);
  if (it == object.object.end() || it->second.kind != Json::String) {
    error = where + ": expected a string field \"" + key + "\"";
    return false;
  }
  out = it->second.string;
  return true;
}

bool readSpecs(const Json &root, const std::string &key,
               std::vector<TensorSpec> &specs, std::string &error) {
  auto it = root.object.find(key);
  if (it == root.object.end() || it->second.kind != Json::Array) {
    error = "expected an array field \"" + key + "\"";
    return false;
  }
  for (size_t i = 0; i < it->second.array.size(); ++i) {
    const Json &entry = it->second.array[i];
    std::string where = key + "[" + std::to_string(i) + "]";
    if (entry.kind != Json::Object) {
      error = where + ": expected an object";
      return false;
    }
    TensorSpec spec;
    if (!getString(entry, "type", where, spec.type, error) ||
        !getString(entry, "element_type", where, spec.elementType, error) ||
        !getString(entry, "dtype", where, spec.descr, error))
      return false;
    if (getNpyElementBytes(spec.descr) == 0) {
      error = where + ".dtype: unsupported dtype '" + spec.descr + "'";
      return false;
    }
    auto shape = entry.object.find("shape");
    if (shape == entry.object.end() || shape->second.kind != Json::Array) {
      error = where + ": expected an array field \"shape\"";
      return false;
    }
    for (const Json &size : shape->second.array) {
      if (size.kind != Json::Number || size.number < -1 ||
          size.number != static_cast<double>(static_cast<int64_t>(size.number))) {
        error = where + ".shape: sizes must be integers >= -1";
        return false;
      }
      spec.shape.push_back(static_cast<int64_t>(size.number));
    }
    specs.push_back(std::move(spec));
  }
  return true;
}
} // namespace

bool mlir::opsnn::runtime::writeManifest(const std::string &dir,
                                         const Manifest &manifest,
                                         std::string &error) {
  std::string path = dir + "/manifest.json";
  std::ofstream file(path, std::ios::trunc);
  if (!file) {
    error = "cannot write '" + path + "'";
    return false;
  }
  file << "{\n  \"format\": \"opsnn-artifact\",\n  \"version\": "
       << manifest.version << ",\n  \"device\": " << quote(manifest.device)
       << ",\n  \"entry\": " << quote(manifest.entry)
       << ",\n  \"library\": " << quote(manifest.library)
       << ",\n  \"inputs\": ";
  writeSpecs(file, manifest.inputs);
  file << ",\n  \"outputs\": ";
  writeSpecs(file, manifest.outputs);
  file << "\n}\n";
  if (!file) {
    error = "error while writing '" + path + "'";
    return false;
  }
  return true;
}

bool mlir::opsnn::runtime::readManifest(const std::string &dir,
                                        Manifest &manifest,
                                        std::string &error) {
  std::string path = dir + "/manifest.json";
  std::ifstream file(path);
  if (!file) {
    error = "cannot open '" + path + "'";
    return false;
  }
  std::stringstream buffer;
  buffer << file.rdbuf();
  std::string text = buffer.str();
  Json root;
  std::string detail;
  auto fail = [&](const std::string &message) {
    error = path + ":" + message;
    return false;
  };
  if (!JsonReader(text).read(root, detail))
    return fail(detail);
  if (root.kind != Json::Object)
    return fail(" expected a JSON object");
  std::string format;
  if (!getString(root, "format", "(root)", format, detail))
    return fail(" " + detail);
  if (format != "opsnn-artifact")
    return fail(" \"format\" is '" + format + "', expected 'opsnn-artifact'");
  auto version = root.object.find("version");
  if (version == root.object.end() || version->second.kind != Json::Number ||
      version->second.number != 1)
    return fail(" unsupported \"version\" (this runtime reads version 1)");
  if (!getString(root, "device", "(root)", manifest.device, detail) ||
      !getString(root, "entry", "(root)", manifest.entry, detail) ||
      !getString(root, "library", "(root)", manifest.library, detail) ||
      !readSpecs(root, "inputs", manifest.inputs, detail) ||
      !readSpecs(root, "outputs", manifest.outputs, detail))
    return fail(" " + detail);
  return true;
}

HostArtifact::~HostArtifact() {
  if (handle)
    dlclose(handle);
}

std::unique_ptr<HostArtifact> HostArtifact::load(const std::string &dir,
                                                 std::string &error) {
  std::unique_ptr<HostArtifact> artifact(new HostArtifact());
  if (!readManifest(dir, artifact->manifest, error))
    return nullptr;
  const std::string &device = artifact->manifest.device;
  if (device != "cpu" && device != "cuda") {
    error = dir + ": unknown device '" + device + "' (expected cpu or cuda)";
    return nullptr;
  }
  std::string library = dir + "/" + artifact->manifest.library;
  artifact->handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!artifact->handle) {
    error = "cannot load '" + library + "': " + dlerror();
    return nullptr;
  }
  std::string symbol = "_mlir_" + artifact->manifest.entry;
  artifact->function =
      reinterpret_cast<PackedFunction>(dlsym(artifact->handle, symbol.c_str()));
  if (!artifact->function) {
    error = "'" + library + "' has no entry point '" + symbol + "'";
    return nullptr;
  }
  if (device == "cuda") {
    // model.so depends on libopsnn_cuda_runtime.so: find its entry points
    // through the model's handle.
    if (!artifact->cuda.resolve(artifact->handle)) {
      error = "'" + library + "' is not linked with the CUDA runtime";
      return nullptr;
    }
  }
  return artifact;
}

bool HostArtifact::canRun(std::string &why) const {
  if (manifest.device != "cuda")
    return true;
  const char *message = nullptr;
  if (cuda.isAvailable(&message))
    return true;
  why = message ? message : "the CUDA runtime is not available";
  return false;
}

bool HostArtifact::run(const std::vector<NpyArray> &arrays,
                       std::vector<NpyArray> *outputs,
                       std::string &error) const {
  callPacked(function, arrays, manifest.outputs, outputs, cuda.free);
  error = cuda.takeErrorString();
  return error.empty();
}

bool HostArtifact::time(const std::vector<NpyArray> &arrays, unsigned warmup,
                        unsigned repeat, CallTimes &times,
                        std::string &error) const {
  return timePackedCalls(function, arrays, manifest.outputs, warmup, repeat,
                         manifest.device == "cuda" ? &cuda : nullptr, times,
                         error);
}
