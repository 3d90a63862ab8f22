#!/bin/sh
# build.sh: the project's own CPython image for WASI, built from Debian's
# source packages with Debian's toolchain (clang 14, lld 14, wasi-libc,
# libclang-rt-14-dev-wasm32), optimized (-O2), with zlib, bz2, lzma, sqlite3,
# expat and decimal (expat and libmpdec are bundled in CPython's source).
#
#   images/pybuild/build.sh OUTDIR
#
# OUTDIR gets python.wasm, python311.zip (the standard library as `make
# install` lays out lib/python3.11, with unchecked-hash .pyc; the engine
# mounts it at /usr/local/lib/python3.11), LICENSE and BUILDINFO. Sources
# come from `apt-get source --download-only` (deb-src lines for the
# machine's own Debian suites are added when missing) and are checked
# against the sha256 pins below; only the upstream (.orig) tarballs are used,
# no Debian patches. Work happens in $PYBUILD_WORK (default: a temporary
# folder, removed after); the output does not depend on where: the same
# sources and toolchain give the same bytes. Needs root for apt-get when the toolchain is
# missing. images.BuildPython (`make python-image`) runs it and caches the
# result under a key of this file's sha256.
set -eu

OUT=${1:-}
[ -n "$OUT" ] || [ -n "${PYBUILD_LIB:-}" ] || { echo "usage: build.sh OUTDIR" >&2; exit 2; }
JOBS=${PYBUILD_JOBS:-2}
OPT=${PYBUILD_OPT:--O2}

# name, upstream tarball, sha256
PINS="python3.11 python3.11_3.11.2.orig.tar.gz 2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849
zlib zlib_1.2.13.dfsg.orig.tar.bz2 71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1
bzip2 bzip2_1.0.8.orig.tar.gz ab5a03176ee106d3f0fa90e381da478ddae405918153cca248e682cd0c4a2269
xz-utils xz-utils_5.4.1.orig.tar.xz 5d9827aa1875b21c288f78864bb26d2650b436ea8d2cad364e4921eb6266a5a5
sqlite3 sqlite3_3.40.1.orig.tar.xz aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655"

TOOLS="clang-14 lld-14 llvm-14 wasi-libc libclang-rt-14-dev-wasm32 python3.11 tcl make pkg-config"

say() { echo "pybuild: $*" >&2; }

need_tools() {
	missing=
	for p in $TOOLS; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	say "installing$missing"
	apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null
}

need_sources() {
	if ! apt-cache showsrc python3.11 2>/dev/null | grep -q '^Package:'; then
		say "adding deb-src lines for this machine's Debian suites"
		f=/etc/apt/sources.list.d/debian.sources
		[ -f "$f" ] || { say "no $f to derive deb-src lines from"; exit 1; }
		sed 's/^Types: deb$/Types: deb-src/' "$f" >/etc/apt/sources.list.d/agentenkit-pybuild-src.sources
		apt-get update -q >/dev/null
	fi
}

fetch() {
	mkdir -p "$SRC"
	echo "$PINS" | while read -r pkg file sum; do
		if [ -f "$SRC/$file" ] && echo "$sum  $SRC/$file" | sha256sum -c --status; then
			continue
		fi
		say "fetching $pkg source"
		# Only the pinned upstream tarball is used, which every Debian
		# revision of the package shares: apt-get source fails as a whole
		# when one of the newest revision's own files is missing from the
		# mirror (a security update's .dsc, say), so try the revisions the
		# sources list names, newest first, until the tarball is there.
		for v in "" $(apt-cache showsrc "$pkg" 2>/dev/null | awk '/^Version:/ {print $2}' | sort -rV); do
			(cd "$SRC" && apt-get source --download-only -q "$pkg${v:+=$v}" >/dev/null 2>&1) || true
			[ -f "$SRC/$file" ] && break
		done
		[ -f "$SRC/$file" ] || { say "apt-get source $pkg failed: no $file from any revision the sources list names"; exit 1; }
		echo "$sum  $SRC/$file" | sha256sum -c --status || {
			say "$file: sha256 is not $sum"; exit 1; }
	done
}

unpack() { # tarball dir
	rm -rf "$WORK/$2"; mkdir -p "$WORK/$2"
	tar -xf "$SRC/$1" -C "$WORK/$2" --strip-components=1
}

# CC_WASI is set in main (it names the work folder).
export AR=llvm-ar-14 RANLIB=llvm-ranlib-14
# Reproducible: no build paths or dates in the output.
export SOURCE_DATE_EPOCH=0

# xz 5.4.1 without threads still defines mythread_sigmask (never called
# then) over sigset_t and sigprocmask, which wasi-libc lacks: build_deps
# forces stand-ins (xz-wasi.h) in front of liblzma's files.

build_deps() {
	D="$WORK/deps"; mkdir -p "$D/lib" "$D/include"
	CF="$OPT -ffile-prefix-map=$WORK=/src"

	say "zlib"; unpack zlib_1.2.13.dfsg.orig.tar.bz2 zlib
	(cd "$WORK/zlib" && CC="$CC_WASI" CFLAGS="$CF" CHOST=wasm32 ./configure --static --prefix="$D" >/dev/null &&
		make -j"$JOBS" libz.a >/dev/null && cp libz.a "$D/lib" && cp zlib.h zconf.h "$D/include")

	say "bzip2"; unpack bzip2_1.0.8.orig.tar.gz bzip2
	(cd "$WORK/bzip2" && for c in blocksort huffman crctable randtable compress decompress bzlib; do
		$CC_WASI $CF -D_FILE_OFFSET_BITS=64 -c $c.c -o $c.o; done &&
		$AR rcs "$D/lib/libbz2.a" blocksort.o huffman.o crctable.o randtable.o compress.o decompress.o bzlib.o &&
		cp bzlib.h "$D/include")

	say "xz (liblzma)"; unpack xz-utils_5.4.1.orig.tar.xz xz
	printf '%s\n' '#include <__typedef_sigset_t.h>' \
		'static inline int sigprocmask(int h, const sigset_t *s, sigset_t *o) { (void)h; (void)s; (void)o; return 0; }' \
		>"$WORK/xz-wasi.h"
	(cd "$WORK/xz" && CC="$CC_WASI" CFLAGS="$CF -D_WASI_EMULATED_SIGNAL -include $WORK/xz-wasi.h" ./configure -q --host=wasm32-unknown-wasi --prefix="$D" \
		--disable-shared --enable-static --disable-threads --disable-xz --disable-xzdec --disable-lzmadec \
		--disable-lzmainfo --disable-lzma-links --disable-scripts --disable-doc --disable-nls >/dev/null &&
		make -j"$JOBS" -C src/liblzma >/dev/null && make -C src/liblzma install >/dev/null)

	say "sqlite3"; unpack sqlite3_3.40.1.orig.tar.xz sqlite
	# SQLite 3.40's unix VFS wants a few calls and constants wasi-libc
	# lacks: stand-ins forced in front (sqlite-wasi.h); there is one process
	# and no threads, so the default VFS is unix-none (no file locks).
	printf '%s\n' '#include <fcntl.h>' '#include <sys/types.h>' \
		'#define F_RDLCK 0' '#define F_WRLCK 1' '#define F_UNLCK 2' \
		'#define F_GETLK 5' '#define F_SETLK 6' '#define F_SETLKW 7' \
		'static inline int fchmod(int fd, mode_t m) { (void)fd; (void)m; return 0; }' \
		'static inline int fchown(int fd, uid_t u, gid_t g) { (void)fd; (void)u; (void)g; return 0; }' \
		'static inline uid_t geteuid(void) { return 0; }' >"$WORK/sqlite-wasi.h"
	(cd "$WORK/sqlite" && mkdir -p bld && cd bld && ../configure -q >/dev/null && make sqlite3.c >/dev/null &&
		$CC_WASI $CF -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_OMIT_WAL \
			-DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_MATH_FUNCTIONS \
			-D_WASI_EMULATED_MMAN -D_WASI_EMULATED_GETPID -DSQLITE_MAX_MMAP_SIZE=0 \
			-DSQLITE_DEFAULT_UNIX_VFS=\"unix-none\" -include "$WORK/sqlite-wasi.h" \
			-c sqlite3.c -o sqlite3.o &&
		$AR rcs "$D/lib/libsqlite3.a" sqlite3.o && cp sqlite3.h "$D/include")
}

# build_python: CPython for wasm32-wasi, statically linked with the deps.
# The cross build's build-python (it freezes modules and compiles the
# standard library's .pyc) is Debian's python3.11, 3.11.2 as the source,
# or $PYBUILD_BUILD_PYTHON (another CPython 3.11, for development).
build_python() {
	D="$WORK/deps"
	unpack python3.11_3.11.2.orig.tar.gz cpython
	S="$WORK/cpython"
	BP=${PYBUILD_BUILD_PYTHON:-/usr/bin/python3.11}
	v=$("$BP" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])') || { say "no build-python $BP"; exit 1; }
	case $v in
	3.11.2) ;;
	3.11.*) say "build-python $BP is $v, not 3.11.2: its compiler makes the .pyc and frozen modules" ;;
	*) say "build-python $BP is $v: want 3.11"; exit 1 ;;
	esac

	say "CPython for wasm32-wasi ($OPT)"
	# CPython's own OPT is -g -O3: no debug info (wazero would parse it on
	# every trap) and the optimisation from CFLAGS ($OPT). getbuildinfo's
	# date and time are fixed (clang 14 ignores SOURCE_DATE_EPOCH).
	CPY_OPT="-DNDEBUG -fwrapv -Wall"
	CPY_DATE='-DDATE=\"Jan\ 01\ 1970\" -DTIME=\"00:00:00\"'
	# Made before the command: its assignments are made in order, so
	# CFLAGS="$OPT ..." after OPT="$CPY_OPT" there would lose $OPT (the
	# image was built without -O2 so).
	CPY_CFLAGS="$OPT -ffile-prefix-map=$WORK=/src"
	mkdir -p "$WORK/wasi"
	(cd "$WORK/wasi" &&
		CONFIG_SITE="$S/Tools/wasm/config.site-wasm32-wasi" OPT="$CPY_OPT" \
		CC="$CC_WASI" CPP="clang-cpp-14 --target=wasm32-wasi" CXX="clang++-14 --target=wasm32-wasi" \
		LDSHARED=wasm-ld-14 \
		PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$D/nonexistent" \
		CFLAGS="$CPY_CFLAGS" \
		ZLIB_CFLAGS="-I$D/include" ZLIB_LIBS="-L$D/lib -lz" \
		BZIP2_CFLAGS="-I$D/include" BZIP2_LIBS="-L$D/lib -lbz2" \
		LIBLZMA_CFLAGS="-I$D/include" LIBLZMA_LIBS="-L$D/lib -llzma" \
		LIBSQLITE3_CFLAGS="-I$D/include" LIBSQLITE3_LIBS="-L$D/lib -lsqlite3 -lwasi-emulated-mman -lwasi-emulated-getpid" \
		../cpython/configure -q --host=wasm32-unknown-wasi --build="$("$S/config.guess")" \
			--with-build-python="$BP" --prefix=/usr/local \
			--with-pymalloc --disable-test-modules --without-ensurepip >/dev/null &&
		{ grep -q "^CONFIGURE_CFLAGS=.*$OPT" Makefile || { say "configure's CFLAGS lack $OPT"; exit 1; }; } &&
		for m in ZLIB _BZ2 _LZMA _SQLITE3 PYEXPAT _DECIMAL; do
			grep -q "^MODULE_${m}_STATE=yes" Makefile || { say "configure left out module $m"; exit 1; }
		done &&
		make -j"$JOBS" OPT="$CPY_OPT $CPY_DATE" python.wasm pybuilddir.txt >/dev/null 2>"$WORK/wasi-make.log") || {
		tail -30 "$WORK/wasi-make.log" >&2; exit 1; }
}

# package: the standard library as CPython's `make install` lays it out in
# lib/python3.11 (less the test suites and the parts with no use in a WASI
# sandbox: tkinter, idlelib, turtledemo, ensurepip), compiled once by the
# build-python to unchecked-hash .pyc (CPython does not stat the sources to
# trust them), in a zip with fixed dates and order.
package() {
	S="$WORK/cpython"
	L="$WORK/stdlib"
	rm -rf "$L"; mkdir -p "$L"
	cp -R "$S/Lib/." "$L/"
	mkdir -p "$L/lib-dynload" # empty (every module is linked in): CPython's exec_prefix landmark
	rm -rf "$L/test" "$L/idlelib" "$L/tkinter" "$L/turtledemo" "$L/ensurepip" \
		"$L/lib2to3/tests" "$L/distutils/tests" "$L/unittest/test" "$L/ctypes/test" \
		"$L/site-packages"
	find "$L" -name __pycache__ -prune -exec rm -rf {} +
	# The build's variables with the work folder's path as /src (its
	# files are compiled with -ffile-prefix-map to the same), written as
	# sysconfig writes them (pprint: where it breaks lines follows the
	# strings' lengths, so the path is replaced before).
	for f in "$WORK/wasi/$(cat "$WORK/wasi/pybuilddir.txt")"/_sysconfigdata_*.py; do
		"$BP" -E -c '
import pprint, runpy, sys
src, work, out = sys.argv[1:4]
v = runpy.run_path(src)["build_time_vars"]
v = {k: x.replace(work, "/src") if isinstance(x, str) else x for k, x in v.items()}
with open(out, "w", encoding="utf8") as f:
    f.write("# system configuration generated and used by the sysconfig module\n")
    f.write("build_time_vars = ")
    pprint.pprint(v, stream=f)
' "$f" "$WORK" "$L/$(basename "$f")"
	done
	"$BP" -E -Wi "$L/compileall.py" -q -j0 -f --invalidation-mode unchecked-hash \
		-d /usr/local/lib/python3.11 -x 'bad_coding|badsyntax|lib2to3/tests/data' "$L" >/dev/null
	"$BP" -E -c '
import os, sys, zipfile
root, out = sys.argv[1], sys.argv[2]
names = []
for d, dirs, files in os.walk(root):
    dirs.sort()
    if not files and not dirs:
        names.append(d + "/")
    names += [os.path.join(d, f) for f in sorted(files)]
with zipfile.ZipFile(out, "w") as z:
    for n in names:
        rel = os.path.relpath(n, root) + ("/" if n.endswith("/") else "")
        info = zipfile.ZipInfo(rel, (1980, 1, 1, 0, 0, 0))
        if n.endswith("/"):
            info.external_attr = (0o40755 << 16) | 0x10
            z.writestr(info, b"")
            continue
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with open(n, "rb") as f:
            z.writestr(info, f.read(), compresslevel=6)
' "$L" "$WORK/python311.zip"
}

main() {
	if [ -z "${PYBUILD_WORK:-}" ]; then
		WORK=$(mktemp -d)
		trap 'rm -rf "$WORK"' EXIT
	else
		WORK=$PYBUILD_WORK; mkdir -p "$WORK"
	fi
	SRC=${PYBUILD_SRC:-$WORK/src}
	# clang runs wasm-opt over what it links for WASI when it finds one
	# (Binaryen's, in its own folder or on PATH): Debian's Binaryen 108
	# cannot read what clang 14 links (configure then leaves modules
	# out), and the output would depend on the machine. A stand-in that
	# leaves the file as it is, in a folder clang searches first (-B).
	mkdir -p "$WORK/bin"
	printf '#!/bin/sh\nexit 0\n' >"$WORK/bin/wasm-opt"
	chmod +x "$WORK/bin/wasm-opt"
	CC_WASI="clang-14 --target=wasm32-wasi -B$WORK/bin"
	need_tools
	need_sources
	fetch
	build_deps
	build_python
	package
	mkdir -p "$OUT"
	cp "$WORK/wasi/python.wasm" "$OUT/python.wasm.tmp"
	cp "$WORK/python311.zip" "$OUT/python311.zip"
	cp "$WORK/cpython/LICENSE" "$OUT/LICENSE"
	{
		echo "CPython 3.11.2 for wasm32-wasi, $OPT, built by images/pybuild/build.sh"
		echo "$PINS"
		dpkg-query -W $TOOLS 2>/dev/null
	} >"$OUT/BUILDINFO"
	mv "$OUT/python.wasm.tmp" "$OUT/python.wasm"
	say "done: $OUT"
}

[ -n "${PYBUILD_LIB:-}" ] || main
