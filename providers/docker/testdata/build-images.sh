#!/usr/bin/env bash
# Builds the Docker adapter's test images locally, with no registry: a rootfs
# made from Debian packages, loaded with `docker import`.
#
#   build-images.sh            both images
#   build-images.sh busybox    agentenkit-test-busybox:1 (busybox-static + git, ~60 MB)
#   build-images.sh python     agentenkit-test-python:1  (python3 + git + busybox from .debs, ~190 MB)
#
# Both have git (the sandboxtest git case needs it). An image already on the
# engine is kept when its agentenkit.contents label matches what this script
# builds (CONTENTS below), so a change of contents rebuilds it under the same
# tag. Needs docker, apt-get and dpkg-deb.
set -euo pipefail

BUSYBOX_IMAGE=agentenkit-test-busybox:1
PYTHON_IMAGE=agentenkit-test-python:1

say() { echo "build-images: $*" >&2; }

# What the images hold; bump when the contents change.
BUSYBOX_CONTENTS=busybox,git
PYTHON_CONTENTS=python3,busybox,git

# have IMAGE CONTENTS: the image is there with that contents label.
have() {
	[ "$(docker image inspect -f '{{index .Config.Labels "agentenkit.contents"}}' "$1" 2>/dev/null)" = "$2" ]
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fetch_debs DIR PKG... downloads the packages' .debs into DIR and unpacks
# them there (no maintainer scripts run).
fetch_debs() {
	local dir=$1; shift
	mkdir -p "$dir/debs"
	(cd "$dir/debs" && apt-get download "$@" >/dev/null 2>&1) || {
		say "apt-get download $* failed; run apt-get update first"; return 1; }
	for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
	rm -rf "$dir/debs"
}

# base_layout DIR lays out the folders every sandbox image has.
base_layout() {
	local r=$1
	mkdir -p "$r"/{bin,sbin,usr,etc,root,tmp,home/user,proc,sys,dev}
	chmod 1777 "$r/tmp"
	[ -e "$r/usr/bin" ] || ln -s ../bin "$r/usr/bin"
	[ -e "$r/usr/sbin" ] || ln -s ../sbin "$r/usr/sbin"
	echo 'root:x:0:0:root:/root:/bin/sh' > "$r/etc/passwd"
	echo 'root:x:0:' > "$r/etc/group"
}

# install_busybox DIR puts a static busybox and its applet links in DIR/bin.
install_busybox() {
	local r=$1 bb
	fetch_debs "$work/bb" busybox-static
	for bb in "$work"/bb/root/usr/bin/busybox "$work"/bb/root/bin/busybox; do
		[ -x "$bb" ] && break
	done
	cp "$bb" "$r/bin/busybox"
	for applet in $("$bb" --list); do
		[ -e "$r/bin/$applet" ] || ln -s busybox "$r/bin/$applet"
	done
}

# install_git DIR adds git (the binary and its templates; no perl, no
# remote helpers' libraries) with the libraries it links: glibc, pcre2, zlib.
# Unpacked apart and copied in keeping DIR's usr/bin -> ../bin link.
install_git() {
	local r=$1
	fetch_debs "$work/git" git libc6 libpcre2-8-0 zlib1g
	tar -C "$work/git/root" -c . | tar -C "$r" -x --keep-directory-symlink
	rm -rf "$work/git"
}

import() {
	local dir=$1 image=$2 contents=$3
	say "importing $image ($(du -sh "$dir" | cut -f1))"
	tar -C "$dir" -c . | docker import -c 'CMD ["/bin/sh"]' -c "LABEL agentenkit.contents=$contents" - "$image" >/dev/null
	say "built $image"
}

build_busybox() {
	if have "$BUSYBOX_IMAGE" "$BUSYBOX_CONTENTS"; then say "$BUSYBOX_IMAGE is there"; return; fi
	say "building $BUSYBOX_IMAGE from Debian's busybox-static and git"
	local r="$work/busybox"
	base_layout "$r"
	install_busybox "$r"
	install_git "$r"
	import "$r" "$BUSYBOX_IMAGE" "$BUSYBOX_CONTENTS"
}

build_python() {
	if have "$PYTHON_IMAGE" "$PYTHON_CONTENTS"; then say "$PYTHON_IMAGE is there"; return; fi
	say "building $PYTHON_IMAGE from Debian's python3 packages"
	local r="$work/py/root"
	mkdir -p "$r"
	# python3 and the libraries it links, resolved by apt (no recommends).
	local pkgs
	pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances python3-minimal libpython3.11-stdlib python3.11 2>/dev/null \
		| grep '^[a-z0-9]' | grep -vE '^(debconf|dpkg|perl|tzdata|readline-common|media-types|install-info|mime-support|libc-bin|base-files|base-passwd|bash|coreutils|ncurses-base|libgcc-s1|gcc-.*-base)$' | sort -u)
	say "fetching $(echo "$pkgs" | wc -w) packages"
	# shellcheck disable=SC2086
	fetch_debs "$work/py" $pkgs libgcc-s1 gcc-12-base libc6 bash coreutils git libpcre2-8-0 zlib1g
	base_layout "$r"
	install_busybox "$r"
	[ -e "$r/usr/bin/python3" ] || ln -s python3.11 "$r/usr/bin/python3"
	import "$r" "$PYTHON_IMAGE" "$PYTHON_CONTENTS"
}

case "${1:-all}" in
busybox) build_busybox ;;
python) build_python ;;
all) build_busybox; build_python ;;
*) say "unknown image $1 (busybox, python or all)"; exit 2 ;;
esac
