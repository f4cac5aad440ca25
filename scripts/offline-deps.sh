#!/usr/bin/env bash
# Builds gpulab on a machine that cannot reach a package archive (a GPU box
# with no network, say), from Debian packages fetched beforehand elsewhere.
#
#   scripts/offline-deps.sh fetch DIR   # on a Debian/Ubuntu machine with network:
#                                       # downloads the .deb files into DIR
#   eval "$(scripts/offline-deps.sh env DIR)"
#                                       # on the offline machine: unpacks them into
#                                       # DIR/root (never into /) and prints the
#                                       # exports that let CMake, pkg-config and the
#                                       # built programs find them there
#
# The packages are Debian 12's; their libraries need glibc 2.36 or newer, so
# they also run on newer distributions. Only what gpulab's CMakeLists.txt asks
# for is fetched: Lua 5.4, OpenBLAS (OpenMP variant), libedit, doctest, oneDNN,
# mimalloc, gloo (with what they load), pkg-config itself, and the
# Fashion-MNIST data the d2l lessons read (found there through
# GPULAB_DATASETS); the compiler, CMake, zlib's headers (zlib1g-dev: Debian's
# libz.so link is absolute, so an unpacked copy would point at the system's
# zlib anyway) and the CUDA toolkit must be there. Where device minutes are
# few, scripts/gpu-bundle.sh carries a build made elsewhere instead.
set -euo pipefail

pkgs=(liblua5.4-dev liblua5.4-0 libopenblas-openmp-dev libopenblas0-openmp libgfortran5
      libedit-dev libedit2 libbsd0 libmd0 doctest-dev pkgconf-bin libpkgconf3
      libdnnl-dev libdnnl2 ocl-icd-libopencl1 libmimalloc-dev libmimalloc2.0
      libgloo-dev libgloo0 libhiredis0.14 libibverbs1 libnl-3-200 libnl-route-3-200
      dataset-fashion-mnist)

usage() { echo "usage: $0 fetch DIR | env DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
dir=$2

case $1 in
  fetch)
    mkdir -p "$dir"
    (cd "$dir" && apt-get download "${pkgs[@]}")
    echo "fetched ${#pkgs[@]} packages into $dir" >&2
    ;;
  env)
    dir=$(cd "$dir" && pwd)
    root=$dir/root
    if [ ! -e "$root/.unpacked" ]; then
      mkdir -p "$root"
      for deb in "$dir"/*.deb; do dpkg-deb -x "$deb" "$root"; done
      touch "$root/.unpacked"
    fi
    arch=$(ls "$root/usr/lib" | grep -- '-linux-gnu$' | head -n 1)
    lib=$root/usr/lib/$arch
    # pkg-config reads only the unpacked .pc files and prefixes their /usr paths
    # with the root; the OpenMP OpenBLAS directory comes first (Note [One thread
    # pool] in CMakeLists.txt).
    cat <<EOF
export PATH="$root/usr/bin:\$PATH"
export PKG_CONFIG="$root/usr/bin/pkgconf"
export PKG_CONFIG_LIBDIR="$lib/openblas-openmp/pkgconfig:$lib/pkgconfig:$root/usr/share/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$root"
export CMAKE_PREFIX_PATH="$root/usr\${CMAKE_PREFIX_PATH:+:\$CMAKE_PREFIX_PATH}"
export LD_LIBRARY_PATH="$lib:$lib/openblas-openmp\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export GPULAB_DATASETS="$root/usr/share/datasets"
EOF
    ;;
  *) usage ;;
esac
