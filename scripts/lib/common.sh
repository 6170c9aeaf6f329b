# Shared by the scripts: paths, and installing what is missing (skipped when present).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# NodeSource's node does not look in Debian's /usr/share/nodejs, where emcc's acorn lives
# (shared/notes/toolchain.md).
export NODE_PATH=/usr/share/nodejs
JOBS="${JOBS:-2}"

# xz-utils: scripts/build-page.mjs packs the wasm with LZMA for the pages.
APT_PACKAGES=(cmake g++ emscripten nlohmann-json3-dev catch2 chromium libbenchmark-dev clang-format xz-utils)

have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

ensure_apt() {
  local missing=()
  for p in "${APT_PACKAGES[@]}" "$@"; do have_pkg "$p" || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "==> apt-get install ${missing[*]}"
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

ensure_npm() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "==> npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

build_native() {
  echo "==> native build (build/native)"
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$JOBS"
}

build_wasm() {
  echo "==> wasm build (build/wasm)"
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
  cmake --build build/wasm -j"$JOBS"
}

build_page() {
  echo "==> page (dist/)"
  node scripts/build-page.mjs
}

# clang-14 with ASan and UBSan: the Catch2 suite and the libFuzzer targets (build/sanitize).
build_sanitize() {
  echo "==> sanitizer build (build/sanitize: clang-14, ASan + UBSan, libFuzzer)"
  CC=clang-14 CXX=clang++-14 cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGPUSIZER_SANITIZE=ON -DGPUSIZER_FUZZ=ON >/dev/null
  cmake --build build/sanitize -j"$JOBS"
}
