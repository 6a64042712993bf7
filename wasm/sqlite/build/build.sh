#!/usr/bin/env bash
# Builds the browser's SQLite translation into this module (wasm/sqlite):
# sqlite3.go, sqlite3.dat and libc.go, from SQLite 3.54.1 C source, through
# clang (wasm32), wasm-opt and wasm2go, the way the upstream module
# github.com/ncruces/go-sqlite3-wasm/v6 v6.5.35401 builds its own (its
# build/build.sh), with our compile-time options. See README.md.
#
#   build.sh [lean|full]     lean (default): the options in lean/; full: the
#                            upstream module's own options (a reproduction)
#
# Needs: go, perl, clang and wasm-ld with the wasm32 target (CLANG, default
# clang-22; Debian: apt-get install clang-22 lld-22), node and npm (wasm-opt
# is binaryen's JS build, pinned in package-lock.json).
set -euo pipefail

cd -P -- "$(dirname -- "$0")"
BUILD=$PWD
MOD=$(cd .. && pwd)
PROFILE=${1:-lean}
CLANG=${CLANG:-clang-22}
WASM_OPT_LEVEL=${WASM_OPT_LEVEL:--O4} # upstream's; -O2, -Os and -Oz each gave a larger page
case $PROFILE in lean | full) ;; *) echo "usage: $0 [lean|full]" >&2; exit 2 ;; esac

SQLITE_SHA256=0c657666d819f261cc4007526ad57e1669de9949df7a8ea847aa284a2bf0ee52 # sqlite3.c 3.54.1, unwrapped
SQLITEH_SHA256=d6c84557261893439b341d2e6c35187ae3ea24fbfd843ad94616f72d89242b8c

# wasm-ld sits beside the real clang binary of the same LLVM (Debian's
# clang-N is a link to it).
LLVM_BIN=$(dirname "$(readlink -f "$(command -v "$CLANG")")")
[[ -x $LLVM_BIN/wasm-ld ]] || { echo "build.sh: no wasm-ld beside $CLANG (Debian: apt-get install lld-${CLANG#clang-})" >&2; exit 1; }

# The Go modules the sources come from, each checked against its pinned
# go.sum hash: mattn/go-sqlite3 carries the SQLite 3.54.1 amalgamation,
# go-sqlite3-wasm/v6 the bindings (C), patches and options.
moddir() {
	local json
	json=$(cd "$MOD" && go mod download -json "$1")
	grep -qF "\"Sum\": \"$2\"" <<<"$json" || { echo "build.sh: $1 is not $2" >&2; return 1; }
	sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' <<<"$json"
}
MATTN=$(moddir github.com/mattn/go-sqlite3@v1.14.53 h1:mnTM0owzUMrKuLo+0w51NUiB0ir2Fo7kFXlPt/l3BGs=)
UPSTREAM=$(moddir github.com/ncruces/go-sqlite3-wasm/v6@v6.5.35401 h1:GM27MxQNSRvqi44IYsZANqQKGonIRjUcPojI67RJfq4=)

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
t0=$SECONDS
step() { echo "build.sh: $1 ($((SECONDS - t0)) s)"; }

# SQLite: mattn's copies, unwrapped back to the amalgamation's own text.
for f in c h; do
	src=$MATTN/sqlite3-binding.$f
	perl unwrap.pl <"$src" >"$WORK/sqlite3.$f"
done
perl unwrap.pl <"$MATTN/sqlite3ext.h" >"$WORK/sqlite3ext.h"
echo "$SQLITE_SHA256  $WORK/sqlite3.c" | sha256sum -c --quiet
echo "$SQLITEH_SHA256  $WORK/sqlite3.h" | sha256sum -c --quiet
grep -q '^#define SQLITE_VERSION        "3.54.1"$' "$WORK/sqlite3.h"

# The upstream module's bindings, headers and patches.
cp "$UPSTREAM"/build/{func,hooks,pointer,stmt,text,time,vfs,vtab}.c "$UPSTREAM"/build/{include,sqlite_cfg,sqlite_opt}.h \
	"$UPSTREAM"/build/main.c "$UPSTREAM"/build/exports.txt "$WORK/"
chmod u+w "$WORK"/*
(cd "$WORK" && cat "$UPSTREAM"/build/*.patch | patch -s -p0 --no-backup-if-mismatch)

if [[ $PROFILE == full ]]; then
	# Upstream's main.c, less the five ext/misc extensions and the two test
	# programs: their sources come from SQLite's repository, which is not
	# reachable here (see README.md).
	perl -0pi -e 's{// Extensions\n(#include "ext/[a-z0-9]+\.c"\n)+}{}; s{  sqlite3_auto_extension\(\(void \(\*\)\(void\)\)sqlite3_(decimal|ieee|regexp|series|uint)_init\);\n}{}g' "$WORK/main.c"
	grep -v '^main_' "$UPSTREAM/build/exports.txt" >"$WORK/exports.txt"
else
	cp lean/* "$WORK/"
	(cd "$WORK" && cat "$BUILD"/lean/*.patch | patch -s -p0 --no-backup-if-mismatch)
fi

# libc (C) for the freestanding build, from wasm2go's libc-gen.
(cd "$MOD" && go tool libc-gen -c-out "$WORK/libc")
step "sources ready"

# Upstream's clang flags, unchanged.
(cd "$WORK" && "$CLANG" --target=wasm32 -fuse-ld="$LLVM_BIN/wasm-ld" -ffreestanding -nostdlib -std=c23 -g0 -Oz \
	-Wall -Wextra -Wno-unused-parameter -Wno-unused-function \
	-o sqlite3 main.c -I. -Ilibc \
	-mexec-model=reactor \
	-mmutable-globals -mmultivalue \
	-mnontrapping-fptoint -msign-ext \
	-mreference-types -mbulk-memory \
	-mextended-const -mtail-call \
	-mwide-arithmetic \
	-Wl,--stack-first \
	-Wl,--export-table \
	-Wl,--import-memory \
	-Wl,--import-undefined \
	-D_HAVE_SQLITE_CONFIG_H \
	-DSQLITE_CUSTOM_INCLUDE=sqlite_opt.h \
	$(awk '{print "-Wl,--export="$0}' exports.txt))
step "clang"

# wasm-opt: binaryen's JS build (npm), pinned by package-lock.json.
[[ -x node_modules/.bin/wasm-opt ]] || npm ci --no-audit --no-fund --loglevel=error
node node_modules/binaryen/bin/wasm-opt -g "$WORK/sqlite3" -o "$WORK/sqlite3.wasm" \
	--gufa-optimizing --generate-global-effects \
	--low-memory-unused --zero-filled-memory --converge $WASM_OPT_LEVEL \
	--enable-mutable-globals --enable-multivalue \
	--enable-nontrapping-float-to-int --enable-sign-ext \
	--enable-reference-types --enable-bulk-memory \
	--enable-extended-const --enable-tail-call \
	--enable-wide-arithmetic \
	--strip --strip-producers
step "wasm-opt"

cd "$MOD"
go tool libc-gen -pkg sqlite3_wasm -wasm "$WORK/sqlite3.wasm" -o libc.go
go tool wasm2go -pkg sqlite3_wasm -embed -unsafe -provided libc.go -o sqlite3.go "$WORK/sqlite3.wasm"
gofmt -w sqlite3.go libc.go # wasm2go leaves one blank line out
perl "$BUILD/oneline.pl" <sqlite3.go >"$WORK/sqlite3.go" && mv "$WORK/sqlite3.go" sqlite3.go
gofmt -l sqlite3.go | grep -q . && { echo "build.sh: oneline.pl left sqlite3.go unformatted" >&2; exit 1; }
step "wasm2go"

# The imports (Xenv) must be ones the driver provides, i.e. upstream's: with
# --import-undefined, a C function an option removed becomes an import.
xenv() { awk '/^type Xenv = interface/{f=1;next} f&&/^}/{f=0} f{sub(/^\t/,"");print}' "$1" | sort; }
extra=$(comm -13 <(xenv "$UPSTREAM/sqlite3.go") <(xenv sqlite3.go))
if [[ -n $extra ]]; then
	printf 'build.sh: imports the driver does not provide (an option removed their C definitions):\n%s\n' "$extra" >&2
	exit 1
fi
ls -l "$WORK/sqlite3.wasm" sqlite3.go sqlite3.dat libc.go | awk '{print "build.sh: " $5 " bytes " $9}'
