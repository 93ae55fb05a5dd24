#!/usr/bin/env bash
# Checks that the AVX2 and AVX-512 kernel modules define no function that another module could also define.
#
#   scripts/check-fill-kernels.sh BUILD_FOLDER      (for example .build/release, or CMake's build)
#
# A generic function that the optimizer specialises without inlining is emitted, under one name, in every module
# that uses it, and the linker keeps one copy: if that copy came from RasterKernelsAVX512, the portable fill path
# would run AVX-512 instructions and crash on a CPU without them. The kernels put the pipeline's type into every
# generic they use (see PipelineCells), so each function these modules define names its own module; this script
# fails, listing them, when one does not.
set -euo pipefail
folder="${1:?usage: scripts/check-fill-kernels.sh BUILD_FOLDER}"
status=0
for module in RasterKernelsAVX2 RasterKernelsAVX512; do
    tag="${module#RasterKernels}"
    mapfile -t objects < <(find -L "$folder" -name '*.o' -path "*$module*")
    if [ "${#objects[@]}" -eq 0 ]; then
        echo "check-fill-kernels: no object file of $module under '$folder'; build the package first" >&2
        exit 1
    fi
    # Defined code symbols (T, t, W, w) whose mangled name does not hold the module's tag; the runtime's helpers
    # (__swift_memcpy…) count too, since they are merged the same way.
    strays=$(nm --defined-only "${objects[@]}" | awk '$2 ~ /^[TtWw]$/ {print $3}' | grep -v -- "$tag" || true)
    if [ -n "$strays" ]; then
        echo "check-fill-kernels: $module defines functions another module may define too (the linker could" >&2
        echo "run this module's instructions on the portable path); give their generics the pipeline's type:" >&2
        echo "$strays" | swift demangle >&2
        status=1
    fi
done
[ "$status" = 0 ] && echo "check-fill-kernels: the AVX2 and AVX-512 modules define only their own functions"
exit "$status"
