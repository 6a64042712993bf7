#!/usr/bin/env bash
# Builds the engine's SQLite for the browser: sqlite.c (SQLite 3.54.1's
# amalgamation, the options the engine needs, an in-memory VFS of its own) compiled by
# clang to WebAssembly against wasi-libc, all from Debian's packages (clang-19,
# lld-19, wasi-libc, libclang-rt-19-dev-wasm32; .ci/need-clang installs them).
#
#   bash wasm/sqlite/build.sh OUT.wasm
#
# writes OUT.wasm and OUT.wasm.notice (what it is built from, and the terms
# of what it holds: SQLite's blessing, wasi-libc's licenses), the same bytes
# on every machine with the same packages.
#
#   bash wasm/sqlite/build.sh --toolchain
#
# prints only the notice's two lines that name the compiler ($CLANG,
# clang-19 by default) and wasi-libc this machine would build with, or
# fails when $CLANG is missing.
#
# Both are committed as web/sqlite-wasm/sqlite3.wasm{,.notice}, so that
# building and serving the page needs no clang. To change them (this file,
# sqlite.c, or the pinned packages), run make sqlite-wasm and commit the
# result; make sqlite-verify (part of make test, verify.sh) rebuilds them
# wherever the packages are present, and always in CI, and fails on any byte
# that differs from the committed files.
#
# The amalgamation is the one github.com/mattn/go-sqlite3 v1.14.53 vends
# (sqlite3-binding.c: SQLite's sqlite3.c between a #ifndef USE_LIBSQLITE3 and
# its #else), taken from the Go module proxy, which checks the module against
# Go's checksum database, and held here to its SHA-256 and to 3.54.1's source
# id, the same id the official WebAssembly build carries. No download site of
# SQLite's is reached.
set -euo pipefail

out=${1:?usage: build.sh OUT.wasm | --toolchain}
here=$(cd "$(dirname "$0")" && pwd)
CLANG=${CLANG:-clang-19}

module=github.com/mattn/go-sqlite3@v1.14.53
binding_sha256=758343f1464f3ee8c7c601d5b0cde415b52dcdf43a44ed884a62d19ec416e824
source_id='2026-10-16 14:45:20 555e07ef33f69a0957d24d8e555b702464a131d6f1607f4c3c1e4551e8e6ca76'

# The C functions web/sqlite-bridge.js calls, and the module's start.
exports=(
	_initialize malloc free
	sqlite3_initialize sqlite3_open_v2 sqlite3_close_v2 sqlite3_errmsg sqlite3_errstr
	sqlite3_prepare_v2 sqlite3_finalize sqlite3_reset sqlite3_step sqlite3_clear_bindings
	sqlite3_bind_parameter_count sqlite3_bind_blob sqlite3_bind_double sqlite3_bind_int64
	sqlite3_bind_null sqlite3_bind_text
	sqlite3_column_count sqlite3_column_name sqlite3_column_type sqlite3_column_blob
	sqlite3_column_bytes sqlite3_column_double sqlite3_column_int64 sqlite3_column_text
	sqlite3_changes64 sqlite3_last_insert_rowid sqlite3_expanded_sql sqlite3_trace_v2 sqlite3_free
	sqlite3_column_decltype sqlite3_set_last_insert_rowid sqlite3_get_autocommit
	leaselab_busy_install leaselab_busy_asked
)

command -v "$CLANG" >/dev/null || { echo "build.sh: $CLANG is missing (CLANG names the compiler; .ci/need-clang installs clang-19)" >&2; exit 1; }

# toolchain prints the notice's lines naming the compiler and wasi-libc.
toolchain() {
	echo "by wasm/sqlite/build.sh with $("$CLANG" --version | head -n 1), against Debian's"
	echo "wasi-libc $(dpkg-query -W -f '${Version}' wasi-libc 2>/dev/null || echo '(version unknown)')."
}
if [ "$out" = --toolchain ]; then
	toolchain
	exit 0
fi

dir=$(cd "$here" && "${GO:-go}" mod download -json "$module" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
binding=$dir/sqlite3-binding.c
[ -f "$binding" ] || { echo "build.sh: $module has no sqlite3-binding.c" >&2; exit 1; }
echo "$binding_sha256  $binding" | sha256sum --check --quiet
grep -qF "#define SQLITE_SOURCE_ID      \"$source_id\"" "$binding" ||
	{ echo "build.sh: $binding is not SQLite 3.54.1 ($source_id)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# sqlite3.c is the binding's lines between its first (#ifndef USE_LIBSQLITE3)
# and the amalgamation's own last line.
sed -n '2,/^\/\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\* End of sqlite3.c \*/p' "$binding" >"$tmp/sqlite3.c"
grep -q '^#else // USE_LIBSQLITE3' "$tmp/sqlite3.c" && { echo "build.sh: the amalgamation's end was not found" >&2; exit 1; }

# -Oz: V8 compiles every function before it first runs; the smallest code
# compiles soonest. The stack comes first in memory, so that an overflow
# traps instead of writing over data. Memory is the bridge's (imported), the
# function table grows (the bridge adds trace callbacks to it). clang runs
# binaryen's wasm-opt after linking whenever one is on its PATH (clang 19's
# --no-wasm-opt then links nothing), so it runs with a PATH that holds only
# the linker: the bytes are the same on machines with and without binaryen.
clang=$(command -v "$CLANG")
mkdir "$tmp/bin"
for ld in wasm-ld-19 wasm-ld; do
	if p=$(command -v "$ld"); then ln -s "$p" "$tmp/bin/$ld"; fi
done
PATH="$tmp/bin" "$clang" --target=wasm32-wasi --sysroot=/usr -std=c17 -Oz -g0 \
	-ffile-prefix-map="$tmp"=. -ffile-prefix-map="$here"=. \
	-Wno-unused-command-line-argument \
	-mexec-model=reactor -mbulk-memory -msign-ext -mnontrapping-fptoint -mmutable-globals \
	-I"$tmp" -o "$tmp/sqlite3.wasm" "$here/sqlite.c" \
	-Wl,--import-memory -Wl,--export-table -Wl,--growable-table \
	-Wl,--stack-first -Wl,-z,stack-size=1048576 -Wl,--strip-all \
	"${exports[@]/#/-Wl,--export=}"

{
	echo "SQLite 3.54.1 ($source_id), compiled to WebAssembly for leaselab's engine"
	toolchain
	echo
	echo "SQLite is in the public domain; its source opens with this blessing:"
	echo
	awk '/^\*\* The author disclaims copyright/ { on = 1 } on { print } on && /^\*\*\*\*/ { exit }' "$tmp/sqlite3.c"
	echo
	echo "The module holds parts of wasi-libc, under these terms (Debian's copyright file):"
	echo
	cat /usr/share/doc/wasi-libc/copyright
} >"$tmp/notice"

chmod 644 "$tmp/sqlite3.wasm"
mkdir -p "$(dirname "$out")"
mv "$tmp/sqlite3.wasm" "$out"
mv "$tmp/notice" "$out.notice"
ls -l "$out" | awk '{print "sqlite3.wasm: " $5 " bytes " $9}'
