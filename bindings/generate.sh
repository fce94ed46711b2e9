#!/usr/bin/env bash
# Generates the Kotlin and Swift bindings of libacesup with the workspace's own uniffi-bindgen
# (same uniffi version as the library) and puts them where the apps take them from:
#
#   bindings/kotlin/app/acesup/core/acesup.kt                 Kotlin (package app.acesup.core)
#   bindings/swift/Sources/AcesUpCore/AcesUpCore.swift        Swift module AcesUpCore
#   bindings/swift/Sources/AcesUpCoreFFI/AcesUpCoreFFI.h      C header of the FFI module
#   bindings/swift/Sources/AcesUpCoreFFI/module.modulemap     its module map
#
# Usage:
#   bindings/generate.sh           build, generate, update the checked-in files
#   bindings/generate.sh --check   build, generate into build/bindings, fail if the checked-in
#                                  files differ (the drift check of scripts/test-all.sh)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
mode=${1:-update}
case "$mode" in
  update|--check) ;;
  *) echo "usage: bindings/generate.sh [--check]" >&2; exit 2 ;;
esac

target_dir=${CARGO_TARGET_DIR:-$root/target}
# One cargo invocation for both packages, so uniffi is built once with one feature set.
cargo build --quiet -p acesup-ffi -p uniffi-bindgen
lib="$target_dir/debug/libacesup.so"
[[ -f "$lib" ]] || { echo "generate.sh: $lib was not built" >&2; exit 1; }

out="$root/build/bindings"
rm -rf "$out"
mkdir -p "$out/raw"
# Library mode: reads bindings/uniffi.toml through the crate's metadata.
"$target_dir/debug/uniffi-bindgen" generate "$lib" \
  --language kotlin --language swift --out-dir "$out/raw" --no-format >/dev/null

# Lay the generated files out as they are checked in.
mkdir -p "$out/tree/kotlin/app/acesup/core" "$out/tree/swift/Sources/AcesUpCore" \
         "$out/tree/swift/Sources/AcesUpCoreFFI"
cp "$out/raw/app/acesup/core/acesup.kt" "$out/tree/kotlin/app/acesup/core/acesup.kt"
cp "$out/raw/AcesUpCore.swift" "$out/tree/swift/Sources/AcesUpCore/AcesUpCore.swift"
cp "$out/raw/AcesUpCoreFFI.h" "$out/tree/swift/Sources/AcesUpCoreFFI/AcesUpCoreFFI.h"
cp "$out/raw/AcesUpCoreFFI.modulemap" "$out/tree/swift/Sources/AcesUpCoreFFI/module.modulemap"

generated=(
  kotlin/app/acesup/core/acesup.kt
  swift/Sources/AcesUpCore/AcesUpCore.swift
  swift/Sources/AcesUpCoreFFI/AcesUpCoreFFI.h
  swift/Sources/AcesUpCoreFFI/module.modulemap
)

if [[ "$mode" == "--check" ]]; then
  drift=0
  for file in "${generated[@]}"; do
    if ! diff -q "$out/tree/$file" "bindings/$file" >/dev/null 2>&1; then
      echo "generate.sh: bindings/$file is not what the library generates" >&2
      diff -u "bindings/$file" "$out/tree/$file" 2>&1 | head -n 20 >&2 || true
      drift=1
    fi
  done
  if [[ $drift -ne 0 ]]; then
    echo "generate.sh: the checked-in bindings drifted from the Rust API; run bindings/generate.sh and commit" >&2
    exit 1
  fi
  echo "bindings: checked-in Kotlin and Swift match the library (${#generated[@]} files)"
else
  for file in "${generated[@]}"; do
    mkdir -p "bindings/$(dirname "$file")"
    cp "$out/tree/$file" "bindings/$file"
  done
  echo "bindings: generated ${#generated[@]} files under bindings/kotlin and bindings/swift"
fi
