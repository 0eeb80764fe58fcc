//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// The .npy reader and writer. The header is a Python dict literal; we read
// the three keys NumPy writes ('descr', 'fortran_order', 'shape') with a
// small tolerant scanner and reject what we cannot represent (Fortran order,
// object arrays, big-endian data).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Runtime/Npy.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace mlir::opsnn::runtime;

static const char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicSize = 6;

int64_t NpyArray::getNumElements() const {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

int64_t NpyArray::getElementBytes() const { return getNpyElementBytes(descr); }

int64_t mlir::opsnn::runtime::getNpyElementBytes(const std::string &descr) {
  if (descr.size() < 3 || std::string("<|=>").find(descr[0]) == std::string::npos)
    return 0;
  if (std::string("fiubV").find(descr[1]) == std::string::npos)
    return 0;
  int64_t bytes = 0;
  for (size_t i = 2; i < descr.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(descr[i])))
      return 0;
    bytes = bytes * 10 + (descr[i] - '0');
  }
  return bytes;
}

/// Finds `'key':` in the header dict and returns the position after it.
static size_t findKey(const std::string &header, const std::string &key) {
  for (char quote : {'\'', '"'}) {
    std::string pattern = std::string(1, quote) + key + quote;
    size_t pos = header.find(pattern);
    if (pos == std::string::npos)
      continue;
    pos = header.find(':', pos + pattern.size());
    if (pos != std::string::npos)
      return pos + 1;
  }
  return std::string::npos;
}

static void skipSpaces(const std::string &text, size_t &pos) {
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
    ++pos;
}

static bool parseHeader(const std::string &header, NpyArray &array,
                        std::string &error) {
  // 'descr': '<f4'
  size_t pos = findKey(header, "descr");
  if (pos == std::string::npos) {
    error = "header has no 'descr'";
    return false;
  }
  skipSpaces(header, pos);
  if (pos >= header.size() || (header[pos] != '\'' && header[pos] != '"')) {
    error = "unsupported 'descr' (structured dtypes are not supported)";
    return false;
  }
  char quote = header[pos];
  size_t end = header.find(quote, pos + 1);
  if (end == std::string::npos) {
    error = "unterminated 'descr'";
    return false;
  }
  array.descr = header.substr(pos + 1, end - pos - 1);
  if (getNpyElementBytes(array.descr) == 0) {
    error = "unsupported dtype '" + array.descr + "'";
    return false;
  }
  if (array.descr[0] == '>' && getNpyElementBytes(array.descr) > 1) {
    error = "big-endian data ('" + array.descr + "') is not supported";
    return false;
  }
  // Normalize byte order marks so callers compare one spelling.
  if (array.descr[0] == '=' || array.descr[0] == '>')
    array.descr[0] = getNpyElementBytes(array.descr) == 1 ? '|' : '<';
  if (getNpyElementBytes(array.descr) == 1)
    array.descr[0] = '|';

  // 'fortran_order': False
  pos = findKey(header, "fortran_order");
  if (pos == std::string::npos) {
    error = "header has no 'fortran_order'";
    return false;
  }
  skipSpaces(header, pos);
  if (header.compare(pos, 5, "False") != 0) {
    error = "Fortran-order arrays are not supported (save with "
            "np.ascontiguousarray)";
    return false;
  }

  // 'shape': (2, 3)
  pos = findKey(header, "shape");
  if (pos == std::string::npos) {
    error = "header has no 'shape'";
    return false;
  }
  skipSpaces(header, pos);
  if (pos >= header.size() || header[pos] != '(') {
    error = "malformed 'shape'";
    return false;
  }
  end = header.find(')', pos);
  if (end == std::string::npos) {
    error = "malformed 'shape'";
    return false;
  }
  array.shape.clear();
  std::stringstream dims(header.substr(pos + 1, end - pos - 1));
  std::string item;
  while (std::getline(dims, item, ',')) {
    size_t first = item.find_first_not_of(" \tL");
    if (first == std::string::npos)
      continue;
    size_t last = item.find_last_not_of(" \tL");
    std::string digits = item.substr(first, last - first + 1);
    if (digits.empty() ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      error = "malformed 'shape' entry '" + digits + "'";
      return false;
    }
    array.shape.push_back(std::stoll(digits));
  }
  return true;
}

bool mlir::opsnn::runtime::readNpy(const std::string &path, NpyArray &array,
                             std::string &error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = "cannot open '" + path + "'";
    return false;
  }
  auto fail = [&](const std::string &message) {
    error = path + ": " + message;
    return false;
  };
  char preamble[kMagicSize + 2];
  if (!file.read(preamble, sizeof(preamble)) ||
      std::memcmp(preamble, kMagic, kMagicSize) != 0)
    return fail("not a .npy file (bad magic)");
  unsigned major = static_cast<unsigned char>(preamble[kMagicSize]);
  uint32_t headerLength = 0;
  if (major == 1) {
    unsigned char bytes[2];
    if (!file.read(reinterpret_cast<char *>(bytes), 2))
      return fail("truncated header");
    headerLength = bytes[0] | (bytes[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char bytes[4];
    if (!file.read(reinterpret_cast<char *>(bytes), 4))
      return fail("truncated header");
    headerLength = bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) |
                   (static_cast<uint32_t>(bytes[3]) << 24);
  } else {
    return fail("unsupported .npy version " + std::to_string(major));
  }
  std::string header(headerLength, '\0');
  if (!file.read(header.data(), headerLength))
    return fail("truncated header");
  std::string headerError;
  if (!parseHeader(header, array, headerError))
    return fail(headerError);

  int64_t bytes = array.getNumElements() * array.getElementBytes();
  array.data.resize(bytes);
  if (bytes > 0 && !file.read(array.data.data(), bytes))
    return fail("expected " + std::to_string(bytes) +
                " bytes of data, the file is shorter");
  return true;
}

bool mlir::opsnn::runtime::writeNpy(const std::string &path, const NpyArray &array,
                              std::string &error) {
  std::string header = "{'descr': '" + array.descr +
                       "', 'fortran_order': False, 'shape': (";
  for (int64_t size : array.shape)
    header += std::to_string(size) + ", ";
  if (array.shape.size() > 1)
    header.erase(header.size() - 2); // (2, 3) but (2,) for rank 1
  else if (array.shape.size() == 1)
    header.erase(header.size() - 1);
  header += "), }";
  // Pad with spaces so that the data starts on a 64-byte boundary.
  size_t total = kMagicSize + 2 + 2 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 0xFFFF) {
    error = path + ": header too long";
    return false;
  }

  // Written next to its destination and renamed into place once complete:
  // a failed write never leaves a truncated .npy under the final name.
  std::string temporary = path + ".tmp";
  std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
  if (!file) {
    error = "cannot write '" + path + "'";
    return false;
  }
  file.write(kMagic, kMagicSize);
  file.put(1);
  file.put(0);
  file.put(static_cast<char>(header.size() & 0xFF));
  file.put(static_cast<char>(header.size() >> 8));
  file.write(header.data(), header.size());
  file.write(array.data.data(), array.data.size());
  file.close();
  if (!file || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    error = "error while writing '" + path + "'";
    return false;
  }
  return true;
}
