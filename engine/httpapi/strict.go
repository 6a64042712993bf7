package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// A request body is read by github.com/go-json-experiment/json (encoding/
// json v2's origin) with its strict defaults, and stricter still:
//   - invalid UTF-8 anywhere is refused (two ids never become one U+FFFD);
//   - a field named twice is refused (no "last one wins");
//   - field names match exactly: "ID" is an unknown field, not "id";
//   - an unknown field is refused;
//   - null is refused wherever the API gives it no meaning (every field
//     but "now", where null means "the server's clock");
//   - nothing may follow the one JSON object.
//
// Each refusal is errBadJSON's message naming the field.

// errNull is a null where the API defines none.
var errNull = errors.New("null is not a value of this field")

// strictOptions are the decoding options of every request body.
var strictOptions = json.JoinOptions(
	json.RejectUnknownMembers(true),
	json.MatchCaseInsensitiveNames(false),
	jsontext.AllowDuplicateNames(false),
	jsontext.AllowInvalidUTF8(false),
	json.WithUnmarshalers(json.JoinUnmarshalers(
		refuseNull[*string](), refuseNull[*int64](),
		refuseNull[**string](), refuseNull[**int64](), refuseNull[**leaseJSON](),
	)),
)

// refuseNull refuses a JSON null for a value of type T (a pointer to the
// field's type) and leaves any other value to the default decoding.
func refuseNull[T any]() *json.Unmarshalers {
	return json.UnmarshalFromFunc(func(dec *jsontext.Decoder, _ T) error {
		if dec.PeekKind() == 'n' {
			return errNull
		}
		return json.SkipFunc
	})
}

// nowField is the request's "now": absent, null (both: the server's clock
// in the client-clock mode) or an integer. Given is true when the field is
// present, null included, so the server-clock mode can refuse it.
type nowField struct {
	Given bool
	V     *int64
}

// UnmarshalJSONFrom reads null or an integer.
func (n *nowField) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	n.Given = true
	if dec.PeekKind() == 'n' {
		_, err := dec.ReadToken()
		return err
	}
	var v int64
	if err := json.UnmarshalDecode(dec, &v); err != nil {
		return err
	}
	n.V = &v
	return nil
}

// decodeJSON reads b as exactly one JSON object into dst under the strict
// rules above.
func decodeJSON(b []byte, dst any) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return errors.New("empty body: want a JSON object")
	}
	dec := jsontext.NewDecoder(bytes.NewReader(b), strictOptions)
	if k := dec.PeekKind(); k != '{' && k != 0 { // 0: malformed, which decoding reports
		return fmt.Errorf("want a JSON object, got %s", kindText(k))
	}
	if err := json.UnmarshalDecode(dec, dst, strictOptions); err != nil {
		return describeJSONError(err)
	}
	end := dec.InputOffset()
	if _, err := dec.ReadToken(); err != io.EOF {
		extra := end + int64(len(b[end:])-len(bytes.TrimLeft(b[end:], " \t\r\n")))
		return fmt.Errorf("unexpected data after the JSON object at byte %d", extra)
	}
	return nil
}

// describeJSONError turns the decoder's errors into messages that name the
// field and what it wants, without Go type names.
func describeJSONError(err error) error {
	var (
		syn *jsontext.SyntacticError
		sem *json.SemanticError
	)
	switch {
	case errors.As(err, &syn):
		return describeSyntax(syn)
	case errors.As(err, &sem):
		return describeSemantic(sem)
	}
	return fmt.Errorf("invalid JSON: %v", err)
}

func describeSyntax(e *jsontext.SyntacticError) error {
	field := fieldName(e.JSONPointer)
	switch {
	case errors.Is(e.Err, io.ErrUnexpectedEOF):
		return errors.New("invalid JSON: unexpected end of the body")
	case errors.Is(e.Err, jsontext.ErrDuplicateName):
		return fmt.Errorf("%s: duplicate field: a JSON object names each field once", field)
	case strings.Contains(e.Err.Error(), "invalid UTF-8"):
		if field == "" {
			return fmt.Errorf("invalid UTF-8 at byte %d: the body must be UTF-8", e.ByteOffset)
		}
		return fmt.Errorf("%s: invalid UTF-8 at byte %d: strings must be UTF-8", field, e.ByteOffset)
	}
	return fmt.Errorf("invalid JSON at byte %d: %v", e.ByteOffset, e.Err)
}

func describeSemantic(e *json.SemanticError) error {
	field := fieldName(e.JSONPointer)
	switch {
	case e.JSONPointer == "":
		return fmt.Errorf("want a JSON object, got %s", kindText(e.JSONKind))
	case errors.Is(e.Err, json.ErrUnknownName):
		name := e.JSONPointer.LastToken()
		msg := fmt.Sprintf("unknown field %q", name)
		if parent := fieldName(e.JSONPointer.Parent()); parent != "" {
			msg += " in " + parent
		}
		if known := caseTwin(e.GoType, name); known != "" {
			msg += fmt.Sprintf(" (field names are case-sensitive: %q)", known)
		}
		return errors.New(msg)
	case errors.Is(e.Err, errNull):
		if field == "job_id" {
			return errors.New("job_id: null is not a job id; leave job_id out to claim the next job")
		}
		return fmt.Errorf("%s: null is not allowed: give a value or leave the field out", field)
	}
	got := kindText(e.JSONKind)
	if e.JSONKind == '0' && len(e.JSONValue) > 0 {
		got = "the number " + string(e.JSONValue)
	}
	return fmt.Errorf("%s: want %s, got %s", field, kindName(e.GoType), got)
}

// fieldName writes a JSON pointer as the API's documentation names a
// field: "/lease/token" is "lease.token".
func fieldName(p jsontext.Pointer) string {
	var parts []string
	for tok := range p.Tokens() {
		parts = append(parts, tok)
	}
	return strings.Join(parts, ".")
}

// caseTwin returns the field of struct type t whose JSON name equals name
// but for case, or "".
func caseTwin(t reflect.Type, name string) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return ""
	}
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag != name && strings.EqualFold(tag, name) {
			return tag
		}
	}
	return ""
}

func kindText(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a value"
}

func kindName(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.Int64, reflect.Int:
		return fmt.Sprintf("an integer in 0..%d", int64(MaxSafeInteger))
	case reflect.String:
		return "a string"
	case reflect.Struct:
		if t == reflect.TypeFor[nowField]() {
			return fmt.Sprintf("an integer in 0..%d or null", int64(MaxSafeInteger))
		}
		return "an object"
	}
	return "a " + t.Kind().String()
}
