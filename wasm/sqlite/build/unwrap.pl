#!/usr/bin/perl
# Undo mattn/go-sqlite3's upgrade.go wrapping: drop the first line
# "#ifndef USE_LIBSQLITE3", the trailing "#else // USE_LIBSQLITE3 ... #endif",
# and turn the injected include block back into #include "sqlite3.h".
use strict; use warnings;
local $/; my $s = <STDIN>;
$s =~ s/\A#ifndef USE_LIBSQLITE3\n// or die "no head";
$s =~ s/#else \/\/ USE_LIBSQLITE3\n \/\/ If users really want to link against the system sqlite3 we\n\/\/ need to make this file a noop.\n #endif\z// or die "no tail";
$s =~ s/#include "sqlite3-binding.h"\n#ifdef __clang__\n#define assert\(condition\) \(\(void\)0\)\n#endif\n\n/#include "sqlite3.h"\n/g;
print $s;
