#!/usr/bin/env bash
# Fetches what building and checking the CUDA backend needs, without a GPU and
# without installing anything system-wide: cuda.h (to compile), a link stub
# whose SONAME is libcuda.so.1 (to link; the real library comes with the
# driver on a GPU machine) and ptxas (to assemble generated PTX offline).
# All three come from Debian bookworm's non-free CUDA 11.8 packages, fetched
# through a private apt configuration under the cache folder (its own lists
# and cache, so that the system's, /var/cache/apt included, stay untouched).
set -euo pipefail
dest=${1:-.cache/cuda}
mkdir -p "$dest"/{include,lib,bin,apt/lists/partial,apt/cache/archives/partial,debs}
dest=$(cd "$dest" && pwd)
if [[ -f $dest/include/cuda.h && -f $dest/lib/libcuda.so && -x $dest/bin/ptxas ]]; then
	exit 0
fi
cat >"$dest/apt/sources.list" <<SRC
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm contrib non-free non-free-firmware
SRC
apt_opts=(-o "Dir::Etc::SourceList=$dest/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$dest/apt/lists" -o "Dir::Cache=$dest/apt/cache" -o APT::Architecture=amd64 -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
echo "cuda-sdk: updating a private package list" >&2
apt-get "${apt_opts[@]}" -qq update
cd "$dest/debs"
echo "cuda-sdk: downloading nvidia-cuda-dev (cuda.h) and nvidia-cuda-toolkit (ptxas)" >&2
[[ -n $(ls nvidia-cuda-dev_*.deb 2>/dev/null) ]] || apt-get "${apt_opts[@]}" -qq download nvidia-cuda-dev
[[ -n $(ls nvidia-cuda-toolkit_*.deb 2>/dev/null) ]] || apt-get "${apt_opts[@]}" -qq download nvidia-cuda-toolkit
# extract DEB MEMBER OUT: tar stops at the first occurrence, so dpkg-deb may
# die of a broken pipe; only the extracted file says whether it worked.
extract() {
	(dpkg-deb --fsys-tarfile "$1" 2>/dev/null | tar -x --occurrence=1 -O "$2" >"$3") || true
	[[ -s $3 ]] || { echo "cuda-sdk: $2 not found in $1" >&2; exit 1; }
}
# cuda.h sits near the start of its archive.
extract nvidia-cuda-dev_*.deb ./usr/include/cuda.h "$dest/include/cuda.h"
ptxas_path=$(dpkg-deb -c nvidia-cuda-toolkit_*.deb | awk '$6 ~ /\/ptxas$/ {print $6}')
extract nvidia-cuda-toolkit_*.deb "$ptxas_path" "$dest/bin/ptxas"
chmod +x "$dest/bin/ptxas"
# The link stub: every cu* function the header declares, as an empty function.
cc=${CC:-gcc} # as cgo uses (make cc-tool provides gcc)
$cc -E -P -x c "$dest/include/cuda.h" | grep -oE '\bcu[A-Z][A-Za-z0-9_]*[[:space:]]*\(' | tr -d '( \t' | sort -u |
	sed 's/.*/void &(void) {}/' >"$dest/lib/stub.c"
$cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$dest/lib/libcuda.so" "$dest/lib/stub.c"
rm -f "$dest"/debs/*.deb
"$dest/bin/ptxas" --version | tail -1 >&2
echo "cuda-sdk: ready in $dest" >&2
