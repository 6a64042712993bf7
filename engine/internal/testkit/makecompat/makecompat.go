// Package makecompat holds a Makefile to what GNU make 3.81 reads, the make
// macOS ships: Check names each line that uses a construct a later GNU make
// added (grouped targets, .ONESHELL, !=, undefine, define with an operator,
// .RECIPEPREFIX, private, $(file ...) and the rest of make's NEWS from 3.82
// on). make 3.81 would misread such a line, often silently.
//
// It reads make's syntax, not the shell's: a recipe line (one that starts
// with a tab, and the lines its backslashes continue) is the shell's text,
// where only make's own function calls are looked at; comments are skipped.
package makecompat

import (
	"regexp"
	"strings"
)

// Finding is one use of a construct GNU make 3.81 does not know.
type Finding struct {
	Line  int    // 1-based number of the line the construct's logical line starts on
	What  string // the construct
	Since string // the first GNU make version that knows it
}

// functions381 are the functions GNU make 3.81 has; a call of any other
// name, $(name args) or ${name args}, is a later make's.
var functions381 = map[string]bool{
	"subst": true, "patsubst": true, "strip": true, "findstring": true, "filter": true,
	"filter-out": true, "sort": true, "word": true, "words": true, "wordlist": true,
	"firstword": true, "lastword": true, "dir": true, "notdir": true, "suffix": true,
	"basename": true, "addsuffix": true, "addprefix": true, "join": true, "wildcard": true,
	"realpath": true, "abspath": true, "error": true, "warning": true, "info": true,
	"shell": true, "origin": true, "flavor": true, "foreach": true, "if": true, "or": true,
	"and": true, "call": true, "eval": true, "value": true,
}

// functionSince is the version that added each function a later make has.
var functionSince = map[string]string{
	"file": "4.0", "guile": "4.0", "let": "4.4", "intcmp": "4.4",
}

// A rule is a construct found in make's own text (outside recipes and
// comments).
type rule struct {
	what, since string
	re          *regexp.Regexp
}

const modifiers = `(?:(?:export|override|private)\s+)*`

var rules = []rule{
	{"grouped targets (&:)", "4.3", regexp.MustCompile(`&::?`)},
	{"shell assignment (!=)", "4.0", regexp.MustCompile(`^\s*` + modifiers + `[^\s:#=!]+\s*!=`)},
	{"simple assignment ::= or :::=", "4.0", regexp.MustCompile(`:::?=`)},
	{"define with an assignment operator", "3.82", regexp.MustCompile(`^\s*` + modifiers + `define\s+[^\s=]+\s*(?:[:!?+]|::|:::)?=\s*$`)},
	{"undefine", "3.82", regexp.MustCompile(`^\s*(?:override\s+)?undefine\s`)},
	{"private", "3.82", regexp.MustCompile(`(?:^|:)\s*(?:(?:export|override)\s+)*private\s+[^\s=]+\s*(?:[:!?+]|::|:::)?=`)},
	{"more than one of export, override, private", "3.82", regexp.MustCompile(`^\s*(?:export|override|private)\s+(?:export|override|private)\s`)},
	{"load", "4.0", regexp.MustCompile(`^\s*-?load\s`)},
	{".ONESHELL", "3.82", special(`\.ONESHELL`)},
	{".RECIPEPREFIX", "3.82", special(`\.RECIPEPREFIX`)},
	{".SHELLFLAGS", "3.82", special(`\.SHELLFLAGS`)},
	{".SHELLSTATUS", "4.2", special(`\.SHELLSTATUS`)},
	{".EXTRA_PREREQS", "4.3", special(`\.EXTRA_PREREQS`)},
	{".NOTINTERMEDIATE", "4.4", special(`\.NOTINTERMEDIATE`)},
	{".WAIT", "4.4", special(`\.WAIT`)},
	{"GNUMAKEFLAGS", "4.0", special(`GNUMAKEFLAGS`)},
	{"MAKE_HOST", "4.0", special(`MAKE_HOST`)},
	{"MAKE_TERMOUT or MAKE_TERMERR", "4.1", special(`MAKE_TERM(?:OUT|ERR)`)},
}

// special matches name as a whole word of make's text.
func special(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_.])` + name + `(?:$|[^A-Za-z0-9_])`)
}

// Check returns every use in the Makefile src of a construct GNU make 3.81
// does not know, in the order of the lines.
func Check(src string) []Finding {
	var found []Finding
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		start := i
		text := lines[i]
		for strings.HasSuffix(text, `\`) && i+1 < len(lines) {
			i++
			text = strings.TrimSuffix(text, `\`) + " " + lines[i]
		}
		recipe := strings.HasPrefix(lines[start], "\t")
		if !recipe {
			text = stripComment(text)
			for _, r := range rules {
				if r.re.MatchString(text) {
					found = append(found, Finding{start + 1, r.what, r.since})
				}
			}
		}
		for _, name := range calls(text) {
			if !functions381[name] {
				found = append(found, Finding{start + 1, "$(" + name + " ...)", since(name)})
			}
		}
	}
	return found
}

func since(function string) string {
	if v, ok := functionSince[function]; ok {
		return v
	}
	return "after 3.81"
}

// stripComment cuts make's text at its first # that no backslash escapes.
func stripComment(text string) string {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '#':
			return text[:i]
		}
	}
	return text
}

// calls are the names of make's function calls in text: $(name followed by
// a blank, or ${name; $$ is a dollar for the shell and starts none.
func calls(text string) []string {
	var names []string
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '$' {
			continue
		}
		if text[i+1] == '$' {
			i++
			continue
		}
		if text[i+1] != '(' && text[i+1] != '{' {
			continue
		}
		j := i + 2
		for j < len(text) && (text[j] == '-' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9' || text[j] == '_') {
			j++
		}
		if j > i+2 && j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			names = append(names, text[i+2:j])
		}
	}
	return names
}
