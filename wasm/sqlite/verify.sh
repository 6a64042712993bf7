#!/usr/bin/env bash
# Holds the committed engine's SQLite to its sources: rebuilds it with
# build.sh into a temporary folder and compares the module and its notice
# with the committed ones byte for byte (make sqlite-verify, part of make test).
#
#   bash wasm/sqlite/verify.sh COMMITTED.wasm
#
# Where clang 19, lld 19 and wasi-libc are present, in the versions the
# committed notice names, or under CI=true (where .ci/need-clang installs
# them, or fails), it rebuilds and exits 1 on any difference, naming the
# file, the first byte that differs and both sizes. Elsewhere it says that
# it skipped and why, and exits 0; under CI=true, other versions fail,
# naming both. To change the module on purpose: make sqlite-wasm, then
# commit both files.
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

# The module's bytes are the compiler's and wasi-libc's as much as the
# sources': it is rebuilt only with the versions its notice names.
if [ -f "$committed.notice" ]; then
	built=$(sed -n '2,3p' "$committed.notice")
	why=
	if ! here_tools=$(bash "$here/build.sh" --toolchain 2>&1); then
		why=${here_tools#build.sh: }
	elif [ "$here_tools" != "$built" ]; then
		tools() { tr '\n' ' ' | sed 's|^by wasm/sqlite/build.sh with ||; s| *$||; s|\.$||'; }
		why="it was built with $(tools <<<"$built"); here it would be built with $(tools <<<"$here_tools"), and its bytes could differ by more than its sources"
	fi
	if [ -n "$why" ] && [ "${CI:-}" = true ]; then
		echo "sqlite-verify: $committed is not rebuilt: $why. Install the versions it was built with, or, if the new ones are meant, run make sqlite-wasm and commit both files" >&2
		exit 1
	elif [ -n "$why" ]; then
		echo "sqlite-verify: skipped: $committed is not rebuilt: $why (CI rebuilds it; .ci/need-clang installs Debian's clang-19 and wasi-libc)"
		exit 0
	fi
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
