#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets with AddressSanitizer into .build/fuzz (or the folder given).
#
# SwiftPM cannot build an executable whose main is libFuzzer's, so the modules the targets need are compiled here
# with swiftc, one whole-module object each, bottom up as Package.swift orders them, all instrumented for coverage
# (-sanitize=fuzzer) and checked by AddressSanitizer; each target then links them with its harness.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/fuzz}
mkdir -p "$out/modules"

# The C libraries' headers and link flags, as Package.swift finds them through pkg-config.
read -r -a cflags <<<"$(pkg-config --cflags freetype2 fontconfig libpng libgif libjpeg libwebp duktape)"
read -r -a libs <<<"$(pkg-config --libs freetype2 fontconfig libpng libgif libjpeg libwebp duktape)"
common=(-sanitize=fuzzer,address -O -parse-as-library -swift-version 6 -suppress-warnings
        -I "$out/modules" -I Sources/CPNG -I Sources/CGIF -I Sources/CJPEG -I Sources/CWebP -I Sources/CDuktape -I Sources/CFreeType
        -I Sources/CFontconfig -I Sources/CIntrinsics)
for flag in "${cflags[@]}"; do common+=(-Xcc "$flag"); done

# A module is rebuilt when one of its sources is newer than its object, and so is every module after it.
stale=0
for module in UserFiles Colors Geometry RasterKernels RasterKernelsAVX2 RasterKernelsAVX512 Raster Text Motion Layers \
              Styles Lottie Scrolling Refresh Scenes Recording Export Lab; do
  object="$out/modules/$module.o"
  # The rasterizer's kernels for wider instruction sets, as Package.swift builds them.
  cpu=()
  case "$module" in
    RasterKernelsAVX2) cpu=(-target-cpu haswell) ;;
    RasterKernelsAVX512) cpu=(-target-cpu skylake-avx512) ;;
  esac
  if [ "$stale" = 0 ] && [ -f "$object" ] \
     && [ -z "$(find "Sources/$module" -name '*.swift' -newer "$object" | head -1)" ]; then
    continue
  fi
  stale=1
  echo "fuzz build: $module"
  find "Sources/$module" -name '*.swift' -print0 | sort -z | xargs -0 swiftc "${common[@]}" ${cpu[@]+"${cpu[@]}"} -wmo -c \
    -module-name "$module" -emit-module -emit-module-path "$out/modules/$module.swiftmodule" -o "$object"
done

for harness in Fuzz/Targets/*.swift; do
  name=$(basename "$harness" .swift)
  [ "$name" = FuzzInput ] && continue
  echo "fuzz build: fuzz-$name"
  swiftc "${common[@]}" -module-name "fuzz_$name" "$harness" Fuzz/Targets/FuzzInput.swift "$out/modules"/*.o \
    "${libs[@]}" -use-ld=lld -o "$out/fuzz-$name"
done
