#!/usr/bin/env bash
# Installs the Debian packages RefreshLab needs that this machine lacks (as root through apt-get; otherwise it
# prints the exact command to run). Extra package names given as arguments are added to the list.
set -euo pipefail

packages=(
  pkg-config libsdl2-dev libfreetype-dev libpng-dev   # the window, fonts and PNG files
  libfontconfig-dev                                    # finding fonts by family
  libgif-dev                                           # the gif header's animations
  libjpeg62-turbo-dev libwebp-dev                      # JPEG and WebP images in Lottie files
  duktape-dev                                          # the JavaScript engine of Lottie expressions
  fonts-dejavu-core fonts-wqy-microhei                 # Latin and Chinese text
  cmake ninja-build                                    # the CMake build
  librlottie-dev                                       # the reference renderer of the Lottie tests
  libstdc++-12-dev                                     # linking libFuzzer's C++ runtime (make fuzz)
  time                                                 # a child's own peak memory (the memory tests)
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v swift >/dev/null; then
  echo "setup: the Swift toolchain (6.1 or newer) is not on PATH; install it first" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  echo "setup: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "setup: these packages are missing; install them with:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
