#!/bin/sh
# rocm-headers.sh DEST: makes DEST a header set of ROCm 7.2 (HIP and its libraries) for the
# compile proof, from the development packages of Debian's "experimental" suite, without
# installing anything: a private apt configuration under DEST.apt (its own sources list naming
# the Debian archive this machine's apt already uses, its own lists and cache), apt-get
# download of the packages below, dpkg-deb -x, and DEST/include, DEST/share/hip/version and
# DEST/MANIFEST (package=version per line, then "hip X.Y.Z"). A complete DEST is kept and
# reused; an incomplete one is rebuilt. Nothing is written outside DEST and DEST.apt.
# Prints the set's HIP version (e.g. 7.2.53211) on success. Exit 0: done; 2: the set could not
# be made (the reason on standard error: no apt, no network, a package missing from the
# suite, a version other than 7.2).
set -eu
die() { echo "rocm-headers: $*" >&2; exit 2; }
[ $# = 1 ] || die "usage: rocm-headers.sh DEST"
mkdir -p "$(dirname "$1")"
# apt reads relative Dir:: paths against its root directory: every path here is absolute
DEST=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
WANT=7.2
SUITE=experimental
PKGS="libamdhip64-dev libhipblas-dev libhipblas-common-dev libhipblaslt-dev libhiprand-dev
 librocrand-dev libhipcub-dev librocprim-dev libhipsparse-dev libhipfft-dev librocthrust-dev"

if [ -f "$DEST/MANIFEST" ] && [ -f "$DEST/include/hip/hip_version.h" ]; then
    sed -n 's/^hip //p' "$DEST/MANIFEST"
    exit 0
fi
for t in apt-get apt-cache dpkg-deb; do
    command -v $t >/dev/null 2>&1 || die "$t is missing: a Debian system is needed"
done
# The archive this machine's apt uses: the first .../debian URI of its deb822 or one-line sources.
uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    sed -n 's|^URIs:[[:space:]]*\([^[:space:]]*/debian\)/*[[:space:]]*$|\1|p' | head -n 1)
[ -n "$uri" ] || uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\/.*\/debian\/?$/) { sub(/\/$/, "", $i); print $i; exit } }')
[ -n "$uri" ] || die "no Debian archive in this machine's apt sources (/etc/apt/sources.list*)"
key=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$key" ] || die "$key is missing (package debian-archive-keyring)"

apt=$DEST.apt
rm -rf "$apt" "$DEST.tmp"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/prefs.d" "$apt/debs" "$DEST.tmp"
echo "deb [signed-by=$key] $uri $SUITE main" >"$apt/sources.list"
# Every apt path of the configuration points into $apt: the machine's own lists, cache and
# preferences are neither read nor written.
set -- -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" \
    -o Dir::Etc::Preferences=/dev/null -o "Dir::Etc::PreferencesParts=$apt/prefs.d" \
    -o "Dir::State::status=/dev/null" -o Acquire::Languages=none -o APT::Architecture=amd64
apt-get "$@" update >"$apt/update.log" 2>&1 ||
    die "apt-get update of Debian $SUITE ($uri) failed: $(tail -n 1 "$apt/update.log")"
: >"$DEST.tmp/MANIFEST"
for p in $PKGS; do
    # the newest version of the suite whose upstream part is $WANT.x
    v=$(apt-cache "$@" madison "$p" 2>/dev/null |
        awk -F'|' -v w="$WANT" '{ gsub(/ /, "", $2) } index($2, w ".") == 1 { print $2; exit }')
    [ -n "$v" ] || die "$p $WANT.x is not in Debian $SUITE (it has: $(apt-cache "$@" madison "$p" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); printf "%s ", $2 }'))"
    (cd "$apt/debs" && apt-get "$@" download "$p=$v" >"$apt/download.log" 2>&1) ||
        die "apt-get download $p=$v failed: $(tail -n 1 "$apt/download.log")"
    echo "$p=$v" >>"$DEST.tmp/MANIFEST"
done
mkdir -p "$apt/x"
for d in "$apt/debs"/*.deb; do dpkg-deb -x "$d" "$apt/x"; done
[ -f "$apt/x/usr/include/hip/hip_version.h" ] || die "libamdhip64-dev has no hip/hip_version.h"
cp -R "$apt/x/usr/include" "$DEST.tmp/include"
mkdir -p "$DEST.tmp/share/hip"
# clang reads the HIP version from share/hip/version under --rocm-path
if [ -f "$apt/x/usr/share/hip/version" ]; then
    cp "$apt/x/usr/share/hip/version" "$DEST.tmp/share/hip/version"
else
    sed -n 's/^#define \(HIP_VERSION_\(MAJOR\|MINOR\|PATCH\)\) \([0-9]*\).*/\1=\3/p' \
        "$DEST.tmp/include/hip/hip_version.h" >"$DEST.tmp/share/hip/version"
fi
hipv=$(sed -n 's/^#define HIP_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' \
    "$DEST.tmp/include/hip/hip_version.h" | paste -sd. -)
case $hipv in
$WANT.*) ;;
*) die "the packages carry HIP $hipv, not $WANT" ;;
esac
echo "hip $hipv" >>"$DEST.tmp/MANIFEST"
rm -rf "$DEST" "$apt/x"
mv "$DEST.tmp" "$DEST"
echo "$hipv"
