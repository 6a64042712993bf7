#!/usr/bin/perl
# Gives every statement in the translation's function bodies one and the same
# source position, /*line :1*/, so Go's line table for SQLite's code (its
# "pcln" table, kept in every binary for tracebacks) holds one entry per
# function instead of one per statement. In the page's WebAssembly that
# table was 229 KB raw and about 93 KB brotli. The costs: each comment starts
# a new position base, and Go's wasm backend adds a resume point at every
# change of base, so the code grows by 85 KB raw (README.md has what that
# costs V8); and a traceback through the translated C names ":1" instead of a
# line of sqlite3.go, which nobody edits.
#
# Only lines that start a statement get the comment. A closing brace, a case
# or default clause and a label are left as they are, so gofmt leaves the
# output as it is.
use strict; use warnings;
my $body = 0;
while (my $line = <>) {
	if ($line =~ /^func /) { $body = 1 }
	elsif ($line =~ /^\}/) { $body = 0 }
	elsif ($body && $line !~ /^\t+(\}|case |default:|\w+:$)/) {
		$line =~ s{^(\t+)(?=\S)}{$1/*line :1*/ };
	}
	print $line;
}
