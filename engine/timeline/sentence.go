package timeline

import (
	"fmt"
	"strconv"
	"strings"
)

// sentence is fmt.Sprintf(format, args...) for the phrasebooks' sentences,
// which use only %s and %q of strings, %d of integers, each with or without
// an argument index (%[2]d), and %%: those it writes itself; any other
// verb, flag or argument, and any mistake fmt would report (a missing or an
// extra argument), it leaves to fmt.Sprintf, whole. A test holds it to
// fmt.Sprintf on every sentence of every phrasebook, and a fuzz test on any
// format.
//
// Why not fmt: in WebAssembly fmt's printer is one large function whose
// loop over a format V8 recompiles with its optimizing compiler after a
// few hundred characters, which the explanations of a dozen steps reach
// during the browser's cold first run; this loop is small (see
// engine/DECISIONS.md, "Small hot loops in WebAssembly").
func sentence(format string, args ...any) string {
	b := make([]byte, 0, len(format)+32)
	next, reordered := 0, false
	for i := 0; i < len(format); {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			b = append(b, format[i:]...)
			break
		}
		b = append(b, format[i:i+j]...)
		i += j + 1
		if i < len(format) && format[i] == '%' {
			b = append(b, '%')
			i++
			continue
		}
		arg := next
		if i < len(format) && format[i] == '[' {
			k := strings.IndexByte(format[i:], ']')
			if k < 0 {
				return fmt.Sprintf(format, args...)
			}
			n, err := strconv.Atoi(format[i+1 : i+k])
			if err != nil || n < 1 {
				return fmt.Sprintf(format, args...)
			}
			arg, reordered = n-1, true
			i += k + 1
		}
		if i >= len(format) || arg >= len(args) {
			return fmt.Sprintf(format, args...)
		}
		var ok bool
		if b, ok = appendVerb(b, format[i], args[arg]); !ok {
			return fmt.Sprintf(format, args...)
		}
		i++
		next = arg + 1
	}
	if !reordered && next < len(args) {
		return fmt.Sprintf(format, args...) // fmt's %!(EXTRA …)
	}
	return string(b)
}

// appendVerb appends a formatted with verb as fmt does, and reports
// whether it could: %s and %q of a string, %d of an int64 or an int.
func appendVerb(b []byte, verb byte, a any) ([]byte, bool) {
	switch verb {
	case 's':
		if s, ok := a.(string); ok {
			return append(b, s...), true
		}
	case 'q':
		if s, ok := a.(string); ok {
			return strconv.AppendQuote(b, s), true
		}
	case 'd':
		switch n := a.(type) {
		case int64:
			return strconv.AppendInt(b, n, 10), true
		case int:
			return strconv.AppendInt(b, int64(n), 10), true
		}
	}
	return b, false
}
