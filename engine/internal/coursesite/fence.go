package coursesite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// OptionKeys are the options a fence may give: the <lease-timeline>
// attributes of the same names.
var OptionKeys = []string{"step", "show", "mutant", "lang", "name", "height", "theme", "autoplay", "predict", "id"}

// Marker is the directive's first word that marks a code block as a
// timeline whatever its class.
const Marker = "lease-timeline"

// LabOptionKeys are the options a lease-lab fence may give: the
// <lease-lab> attributes of the same names (fences.js LAB_OPTION_KEYS).
var LabOptionKeys = []string{"lang", "name", "id"}

// LabMarker is the tag of a lab's element, its fences' language and their
// directive's marker word.
const LabMarker = "lease-lab"

// fenceKind is what a fence becomes (fences.js FenceKind): its element's
// tag, also its language and marker word, and the options it takes.
type fenceKind struct {
	tag  string
	keys []string
}

var (
	timelineKind = fenceKind{Marker, OptionKeys}
	labKind      = fenceKind{LabMarker, LabOptionKeys}
	fenceKinds   = []fenceKind{timelineKind, labKind}
)

// Fence is a fence's text, read (web/fences.js parseFence).
type Fence struct {
	Options   map[string]string // the directive's options; a bare key is ""
	Marked    bool              // the directive starts with Marker
	Directive bool              // the text had a directive line
	Unknown   []string          // keys of the directive that are no option
	Text      string            // the timeline: the text without the directive, dedented
}

// ParseFence reads a fence's text: the directive (its first non-blank
// line, when that starts with #!) and the timeline after it.
func ParseFence(raw string) Fence { return parseFence(raw, timelineKind) }

// parseFence reads a fence of kind k.
func parseFence(raw string, k fenceKind) Fence {
	lines := jsLines(raw)
	first := slices.IndexFunc(lines, func(l string) bool { return jsTrim(l) != "" })
	head := ""
	if first >= 0 {
		head = jsTrim(lines[first])
	}
	if !strings.HasPrefix(head, "#!") {
		return Fence{Options: map[string]string{}, Text: Dedent(raw)}
	}
	tokens := directiveTokens(head[2:])
	f := Fence{Options: map[string]string{}, Directive: true}
	if len(tokens) > 0 && tokens[0].key == k.tag && !tokens[0].hasValue {
		f.Marked = true
		tokens = tokens[1:]
	}
	for _, t := range tokens {
		if slices.Contains(k.keys, t.key) {
			f.Options[t.key] = t.value
		} else {
			f.Unknown = append(f.Unknown, t.key)
		}
	}
	f.Text = Dedent(strings.Join(lines[first+1:], "\n"))
	return f
}

// Unreadable says why a fence's text cannot be read as a timeline, or is
// "" when it can (fences.js unreadable): its directive has keys that are
// no option, or it has no line but blanks and comments (a text a
// highlighter's markup made one line, a directive that swallowed the
// timeline). Such a fence would run as a trace of no step.
func Unreadable(f Fence) string { return unreadable(f, OptionKeys) }

// unreadable is Unreadable for a fence whose options are keys.
func unreadable(f Fence, keys []string) string {
	if len(f.Unknown) > 0 {
		return fmt.Sprintf("the directive's keys %s are no option (%s)", strings.Join(f.Unknown, ", "), strings.Join(keys, " "))
	}
	for _, l := range strings.Split(f.Text, "\n") {
		if t := jsTrim(l); t != "" && !strings.HasPrefix(t, "#") {
			return ""
		}
	}
	return "the fence holds no step: its text has no line but blanks and comments"
}

type token struct {
	key, value string
	hasValue   bool
}

// directiveTokens splits a directive into key=value pairs (fences.js
// directiveTokens): a value in "double" or 'single' quotes runs to its
// closing quote or the end; a bare key has no value.
func directiveTokens(s string) []token {
	var out []token
	r := []rune(s)
	i := 0
	for {
		for i < len(r) && isJSSpace(r[i]) {
			i++
		}
		start := i
		for i < len(r) && !isJSSpace(r[i]) && r[i] != '=' {
			i++
		}
		if i == start {
			return out // the end, or a token that starts with =
		}
		t := token{key: string(r[start:i])}
		if i < len(r) && r[i] == '=' {
			i++
			t.hasValue = true
			t.value, i = directiveValue(r, i)
		}
		out = append(out, t)
	}
}

// directiveValue reads the value that starts at r[i], and where it ends.
func directiveValue(r []rune, i int) (string, int) {
	if i < len(r) && (r[i] == '"' || r[i] == '\'') {
		q := r[i]
		j := i + 1
		for j < len(r) && r[j] != q {
			j++
		}
		v := string(r[i+1 : j])
		if j < len(r) {
			j++ // the closing quote
		}
		return v, j
	}
	j := i
	for j < len(r) && !isJSSpace(r[j]) {
		j++
	}
	return string(r[i:j]), j
}

// Dedent is the timeline text of an element's content or a fence
// (fences.js dedent): common indentation (spaces and tabs) and blank edge
// lines removed, one newline at the end.
func Dedent(text string) string {
	lines := jsLines(text)
	for len(lines) > 0 && jsTrim(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && jsTrim(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	cut := -1
	for _, l := range lines {
		if jsTrim(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if cut < 0 || n < cut {
			cut = n
		}
	}
	cut = max(cut, 0)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = sliceUTF16(l, cut)
	}
	return strings.Join(out, "\n") + "\n"
}

// jsLines splits text at line ends as the JavaScript does: CR LF and CR
// are LF first.
func jsLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	return strings.Split(text, "\n")
}

// sliceUTF16 is JavaScript's s.slice(n): s from its n-th UTF-16 code unit.
func sliceUTF16(s string, n int) string {
	if n == 0 {
		return s
	}
	u := utf16.Encode([]rune(s))
	if n >= len(u) {
		return ""
	}
	return string(utf16.Decode(u[n:]))
}

// jsTrim is JavaScript's String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// isJSSpace reports whether r is white space or a line terminator to
// JavaScript (trim, \s).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// Run is what a prerendered trace is addressed by: a run of the player.
type Run struct {
	Text   string // the timeline, as the player runs it
	Name   string // its name in messages and exports
	Lang   string // the language of the explanations: en, ko
	Mutant string // a worksheet's mutant, or ""
	// Kind is what the answer is: "" for a trace or a worksheet, KindLab
	// for a lab's result (Lang ""), KindLabSVG for its plot in Lang.
	Kind string
}

// The kinds of answer beside a timeline's (Run.Kind).
const (
	KindLab    = "lab"
	KindLabSVG = "lab-svg"
)

// KeyTag is the first field of the canonical form, its version.
const KeyTag = "leaselab-prerender-1"

// CanonicalForm is what Key hashes: the fields KeyTag, Name, Lang, Mutant
// and Text, and Kind when it is not "", each as its length in UTF-8 bytes,
// a colon, its bytes and a newline (fences.js canonicalForm writes the same
// bytes).
func CanonicalForm(r Run) []byte {
	var b strings.Builder
	fields := []string{KeyTag, r.Name, r.Lang, r.Mutant, r.Text}
	if r.Kind != "" {
		fields = append(fields, r.Kind)
	}
	for _, f := range fields {
		b.WriteString(strconv.Itoa(len(f)))
		b.WriteByte(':')
		b.WriteString(f)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Key is the key of a run's prerendered trace: the SHA-256 of its
// canonical form, in lower-case hex (fences.js traceKey).
func Key(r Run) string {
	sum := sha256.Sum256(CanonicalForm(r))
	return hex.EncodeToString(sum[:])
}

// LangTag is the interface language of a lang attribute (i18n.js langTag):
// "ko" for any Korean tag, else "en".
func LangTag(tag string) string {
	t := strings.ToLower(tag)
	if t == "ko" || strings.HasPrefix(t, "ko-") {
		return "ko"
	}
	return "en"
}
