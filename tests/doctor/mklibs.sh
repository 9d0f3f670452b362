#!/bin/sh
# mklibs.sh: builds the stand-in PyTorch GPU libraries of the fake roots from kernel.hip:
#   sh tests/doctor/mklibs.sh OUTDIR
# writes OUTDIR/<root>/<path> for each library below and prints one line per library. Needs
# Debian's hipcc (HIP 5.2, clang 15) for gfx90a and clang-19 (-x hip -nogpulib) for gfx942 and
# gfx1100; a library whose compiler is missing is skipped with a message on standard error.
# The copies committed under roots/ were made with this script (then stripped with strip -s).
out=${1:?usage: mklibs.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/kernel.hip
clang19=
for c in clang++-19 /usr/lib/llvm-19/bin/clang++; do
    if command -v "$c" >/dev/null 2>&1; then clang19=$c; break; fi
done
status=0
build() { # root path compiler flags...
    root=$1 path=$2 cc=$3
    shift 3
    dest=$out/$root/$path
    mkdir -p "$(dirname "$dest")"
    case $cc in
    hipcc)
        if ! command -v hipcc >/dev/null 2>&1; then
            echo "mklibs: hipcc is missing: $root/$path not built" >&2
            return
        fi
        hipcc -O2 -fPIC -shared -nogpulib "$@" -o "$dest" "$src" || status=1 ;;
    clang19)
        if [ -z "$clang19" ]; then
            echo "mklibs: clang-19 is missing: $root/$path not built" >&2
            return
        fi
        "$clang19" -x hip --rocm-path=/usr -nogpulib -O2 -fPIC -shared "$@" -o "$dest" "$src" ||
            status=1 ;;
    esac
    [ -f "$dest" ] && strip -s "$dest" 2>/dev/null
    [ -f "$dest" ] && echo "$root/$path"
}
site=opt/venv/lib/python3.12/site-packages/torch/lib
# MI300X node: a PyTorch ROCm build with compressed (CCOB) code for gfx90a, gfx942, gfx1100
build mi300x $site/libtorch_hip.so clang19 --offload-compress \
    --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1100
build mi300x $site/libc10_hip.so clang19 --offload-arch=gfx90a --offload-arch=gfx942
# RX 7900 XTX + MI250X: code for gfx90a only (plain, and built for XNACK off)
site=usr/local/lib/python3.11/dist-packages/torch/lib
build rdna3-mi250x $site/libtorch_hip.so hipcc --offload-arch=gfx90a
build rdna3-mi250x $site/libc10_hip.so hipcc --offload-arch=gfx90a:xnack-
exit $status
