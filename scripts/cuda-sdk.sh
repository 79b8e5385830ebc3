#!/usr/bin/env bash
# Fetches what checking the CUDA backend needs without a GPU, and without
# installing anything system-wide: ptxas, to assemble the generated PTX
# offline for every target and read its resource use. (Building needs nothing
# of CUDA: the driver is opened at run time.) It comes from Debian bookworm's
# non-free CUDA 11.8 toolkit package, fetched
# through a private apt configuration under the cache folder (its own lists
# and cache, so that the system's, /var/cache/apt included, stay untouched).
set -euo pipefail
dest=${1:-.cache/cuda}
mkdir -p "$dest"/{bin,apt/lists/partial,apt/cache/archives/partial,debs}
dest=$(cd "$dest" && pwd)
if [[ -x $dest/bin/ptxas ]]; then
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
echo "cuda-sdk: downloading nvidia-cuda-toolkit (ptxas)" >&2
[[ -n $(ls nvidia-cuda-toolkit_*.deb 2>/dev/null) ]] || apt-get "${apt_opts[@]}" -qq download nvidia-cuda-toolkit
# extract DEB MEMBER OUT: tar stops at the first occurrence, so dpkg-deb may
# die of a broken pipe; only the extracted file says whether it worked.
extract() {
	(dpkg-deb --fsys-tarfile "$1" 2>/dev/null | tar -x --occurrence=1 -O "$2" >"$3") || true
	[[ -s $3 ]] || { echo "cuda-sdk: $2 not found in $1" >&2; exit 1; }
}
ptxas_path=$(dpkg-deb -c nvidia-cuda-toolkit_*.deb | awk '$6 ~ /\/ptxas$/ {print $6}')
extract nvidia-cuda-toolkit_*.deb "$ptxas_path" "$dest/bin/ptxas"
chmod +x "$dest/bin/ptxas"
rm -f "$dest"/debs/*.deb
"$dest/bin/ptxas" --version | tail -1 >&2
echo "cuda-sdk: ready in $dest" >&2
