package grade

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Terms is the language a report writes the student's calls and answers
// in: their code's own, so that a call reads as they would write it and an
// answer as their code returns it. Options.Terms chooses it; by default a
// module run by the Python adapter (Python, PythonLab) is PythonTerms, a
// Lab GoTerms, and any other program JSONTerms.
type Terms string

const (
	// PythonTerms: claim(path, "j1", "A", 0, 1000); None, True, False,
	// {"id": "j1"}, ["A", "B"]; raise ValueError.
	PythonTerms Terms = "python"
	// JSONTerms, the protocol's own, for a program in any language:
	// claim(path, "j1", "A", 0, 1000); null, true, false, {"id": "j1"},
	// ["A", "B"]; error ValueError (the answer {"error": "ValueError"}).
	JSONTerms Terms = "json"
	// GoTerms, a Lab's: Claim(path, "j1", "A", 0, 1000); nil, true, false,
	// map[string]any{"id": "j1"}, []string{"A", "B"}; error ErrValue (an
	// error that wraps ErrValue).
	GoTerms Terms = "go"
)

// goNames are the labs' functions as a Lab's or a CourierLab's methods.
var goNames = map[string]string{"init_db": "InitDB", "enqueue": "Enqueue", "state": "State", "claim": "Claim",
	"renew": "Renew", "complete": "Complete", "release": "Release", "claim_many": "ClaimMany",
	"claim_next": "ClaimNext", "finish": "Finish", "send": "Send", "receive": "Receive"}

// markerFields are a courier's marker's keys, as JSON and as Marker's
// fields, in Marker's order.
var markerFields = [][2]string{{"id", "ID"}, {"qty", "Qty"}, {"owner", "Owner"}, {"token", "Token"},
	{"attempt", "Attempt"}, {"lease_until", "LeaseUntil"}}

// goMarker is m as a Go CourierLab writes it, a Marker literal, when m
// has exactly a marker's keys.
func (t Terms) goMarker(m map[string]any) (string, bool) {
	if len(m) != len(markerFields) {
		return "", false
	}
	parts := make([]string, len(markerFields))
	for i, f := range markerFields {
		v, ok := m[f[0]]
		if !ok {
			return "", false
		}
		parts[i] = f[1] + ": " + t.value(v)
	}
	return "grade.Marker{" + strings.Join(parts, ", ") + "}", true
}

// fn is the lab function called name (the protocol's name) as the
// student's code names it.
func (t Terms) fn(name string) string {
	if t == GoTerms && goNames[name] != "" {
		return goNames[name]
	}
	return name
}

// call is a call of fn with args, the file's path first, as the student
// writes it (the path itself left out).
func (t Terms) call(fn string, args []any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if i == 0 {
			parts[i] = "path"
		} else {
			parts[i] = t.value(a)
		}
	}
	return t.fn(fn) + "(" + strings.Join(parts, ", ") + ")"
}

// none is the answer of no value: None, null or nil.
func (t Terms) none() string {
	switch t {
	case PythonTerms:
		return "None"
	case GoTerms:
		return "nil"
	}
	return "null"
}

// truth is a bool.
func (t Terms) truth(b bool) string {
	switch {
	case t == PythonTerms && b:
		return "True"
	case t == PythonTerms:
		return "False"
	}
	return fmt.Sprint(b)
}

// raise is the answer of an exception of kind (ValueError: the
// contract's invalid argument), whatever its message.
func (t Terms) raise(kind string) string {
	switch {
	case t == PythonTerms:
		return "raise " + kind
	case t == GoTerms && kind == "ValueError":
		return "error ErrValue"
	case t == GoTerms && kind == "error":
		return "error"
	}
	return "error " + kind
}

// raised is the answer a, an exception, with its message: it agrees with
// raise(a.Error).
func (t Terms) raised(a answer) string {
	if a.Message == "" {
		return t.raise(a.Error)
	}
	return t.raise(a.Error) + ": " + a.Message
}

// json is an answer's JSON as the student's code returns it; raw as it
// is when it is no JSON.
func (t Terms) json(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return t.value(v)
}

// value is a Go value, or one read from JSON, as the student's language
// writes it; a map's keys in sorted order.
func (t Terms) value(v any) string {
	switch v := v.(type) {
	case nil:
		return t.none()
	case bool:
		return t.truth(v)
	case string:
		return fmt.Sprintf("%q", v)
	case float64:
		if v == float64(int64(v)) {
			return fmt.Sprint(int64(v))
		}
	case map[string]any:
		if marker, ok := t.goMarker(v); ok && t == GoTerms {
			return marker
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%q: %s", k, t.value(v[k]))
		}
		return t.composite("map[string]any", parts)
	case []any:
		parts, kind := make([]string, len(v)), "[]*int64"
		for i, x := range v {
			if _, num := x.(float64); !num && x != nil {
				kind = "[]any"
			}
			parts[i] = t.value(x)
		}
		return t.composite(kind, parts)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = fmt.Sprintf("%q", s)
		}
		return t.composite("[]string", parts)
	case callbackArg:
		return v.Callback
	}
	return fmt.Sprint(v)
}

// composite is a dict or a list of parts: Go's composite literal of type
// goType, else in braces for a dict and brackets for a list.
func (t Terms) composite(goType string, parts []string) string {
	inner := strings.Join(parts, ", ")
	switch {
	case t == GoTerms:
		return goType + "{" + inner + "}"
	case strings.HasPrefix(goType, "map"):
		return "{" + inner + "}"
	}
	return "[" + inner + "]"
}

// agree reports whether the student's answer got is the contract's want:
// the same, or an exception of the same kind whatever its message.
func agree(want, got string) bool {
	return got == want || strings.HasPrefix(got, want+": ")
}
