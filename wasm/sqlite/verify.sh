#!/usr/bin/env bash
# Holds the committed engine's SQLite to its sources: rebuilds it with
# build.sh into a temporary folder and compares the module and its notice
# with the committed ones byte for byte (make sqlite-verify, part of make test).
#
#   bash wasm/sqlite/verify.sh COMMITTED.wasm
#
# Where clang 19, lld 19 and wasi-libc are present, or under CI=true (where
# .ci/need-clang installs them, or fails), it rebuilds and exits 1 on any
# difference, naming the file, the first byte that differs and both sizes.
# Elsewhere it says that it skipped and why, and exits 0. To change the
# module on purpose: make sqlite-wasm, then commit both files.
set -euo pipefail

committed=${1:?usage: verify.sh COMMITTED.wasm}
here=$(cd "$(dirname "$0")" && pwd)
need_clang=$here/../../.ci/need-clang

if [ "${CI:-}" = true ]; then
	bash "$need_clang"
elif ! missing=$(bash "$need_clang" --missing); then
	echo "sqlite-verify: skipped: $missing missing here, so $committed is not rebuilt (CI rebuilds it; .ci/need-clang installs them)"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$here/build.sh" "$tmp/sqlite3.wasm" >/dev/null

status=0
for suffix in "" .notice; do
	want=$committed$suffix got=$tmp/sqlite3.wasm$suffix
	if [ ! -f "$want" ]; then
		echo "sqlite-verify: $want is missing (make sqlite-wasm builds it)" >&2
		status=1
		continue
	fi
	if ! out=$(cmp -- "$want" "$got" 2>&1); then
		# cmp names the first byte that differs (counting from 1), or the
		# last byte of the shorter file when one is the other's beginning.
		at=$(sed -n 's/.* differ: byte \([0-9]*\).*/\1/p' <<<"$out")
		[ -n "$at" ] || at=$(($(sed -n 's/.*EOF on .* after byte \([0-9]*\).*/\1/p' <<<"$out") + 1))
		echo "sqlite-verify: $want differs from its rebuild from byte $at on (committed $(wc -c <"$want" | tr -d ' ') bytes, rebuilt $(wc -c <"$got" | tr -d ' ')): run make sqlite-wasm, and commit the result if the change is meant" >&2
		status=1
	fi
done
[ $status -eq 0 ] && echo "sqlite-verify: $committed and its notice are their rebuild, byte for byte"
exit $status
