#!/usr/bin/env bash
# Shared set-up of scripts/demo.sh and scripts/test.sh (sourced, not run).
#
# Idempotent: installs only the Debian packages and pinned Python requirements
# that are missing, configures build/ once (again when CMakeLists change) and
# builds incrementally. Works on a fresh machine with only the base image.
#
# Environment knobs:
#   OPSNN_BUILD_DIR   build directory (default: build)
#   OPSNN_SANITIZE    passed to -DOPSNN_SANITIZE when set (e.g. address,undefined)
#   OPSNN_FUZZ        ON: also build the libFuzzer targets (-DOPSNN_FUZZ=ON)
#   OPSNN_JOBS        parallel build jobs (default: all cores)

set -euo pipefail

OPSNN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OPSNN_BUILD_DIR="${OPSNN_BUILD_DIR:-$OPSNN_ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22
export PATH="$LLVM_PREFIX/bin:$PATH"

log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# --- Debian packages ----------------------------------------------------------
OPSNN_APT_PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  cmake ninja-build ccache libgtest-dev
  chromium  # headless: the dashboard screenshot check (bench/dashboard/screenshot_check.py)
)

install_missing_packages() {
  local missing=() pkg
  for pkg in "${OPSNN_APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
}

# Debian's PyTorch and torchvision (with /usr/bin/python3), used only by the
# real-size model zoo (bench/zoo/run.sh, `python -m opsnn.zoo --size=full`):
# torchvision's resnet50/mobilenet_v2/vit_b_16 with weights=None, exported to
# ONNX. Not needed by demo.sh or test.sh.
OPSNN_ZOO_APT_PACKAGES=(python3-torch python3-torchvision)

install_zoo_packages() {
  local saved=("${OPSNN_APT_PACKAGES[@]}")
  OPSNN_APT_PACKAGES=("${OPSNN_ZOO_APT_PACKAGES[@]}")
  install_missing_packages
  OPSNN_APT_PACKAGES=("${saved[@]}")
}

# --- Python requirements ------------------------------------------------------
install_python_requirements() {
  local stamp="$OPSNN_BUILD_DIR/.requirements.stamp"
  local want
  want="$(sha256sum "$OPSNN_ROOT/requirements.txt" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  log "installing Python requirements (requirements.txt)"
  python3 -m pip install -q --disable-pip-version-check -r "$OPSNN_ROOT/requirements.txt"
  mkdir -p "$OPSNN_BUILD_DIR"
  echo "$want" > "$stamp"
}

# --- Configure and build ------------------------------------------------------
configure_and_build() {
  local cmake_args=(
    -G Ninja -S "$OPSNN_ROOT" -B "$OPSNN_BUILD_DIR"
    -DCMAKE_BUILD_TYPE=Release
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir"
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
    -DLLVM_USE_LINKER=lld
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
    -DOPSNN_WERROR=ON
    -DPython3_EXECUTABLE="$(command -v python3)"
  )
  [ -n "${OPSNN_SANITIZE:-}" ] && cmake_args+=(-DOPSNN_SANITIZE="$OPSNN_SANITIZE")
  [ -n "${OPSNN_FUZZ:-}" ] && cmake_args+=(-DOPSNN_FUZZ="$OPSNN_FUZZ")
  if [ ! -f "$OPSNN_BUILD_DIR/build.ninja" ]; then
    log "configuring $OPSNN_BUILD_DIR"
    cmake "${cmake_args[@]}" >/dev/null
  fi
  log "building"
  local jobs=()
  [ -n "${OPSNN_JOBS:-}" ] && jobs=(-j "$OPSNN_JOBS")
  cmake --build "$OPSNN_BUILD_DIR" "${jobs[@]}"
}

# Sanitizer and libFuzzer builds link clang's compiler-rt runtimes
# (libclang_rt.asan*.a, libclang_rt.fuzzer*.a), which the base image does not
# carry for clang 22.
if [ -n "${OPSNN_SANITIZE:-}" ] || [ "${OPSNN_FUZZ:-}" = ON ]; then
  OPSNN_APT_PACKAGES+=(libclang-rt-22-dev)
fi

opsnn_setup() {
  install_missing_packages
  install_python_requirements
  configure_and_build
}
