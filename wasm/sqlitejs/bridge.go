//go:build js

package sqlitejs

import "syscall/js"

// bridge returns globalThis.leaselabSQLite, or ErrNoBridge.
func bridge() (js.Value, error) {
	b := js.Global().Get("leaselabSQLite")
	if b.Type() != js.TypeObject {
		return js.Value{}, ErrNoBridge
	}
	return b, nil
}

// answer checks a bridge answer's result code: nil when 0, else the error
// (an *Error with the message at index 1).
func answer(a js.Value) error {
	return failure(a.Index(0).Int(), func() string { return a.Index(1).String() })
}

// failure is the error of a bridge's result code: nil for 0,
// ErrMultipleStatements for codeTail, else an *Error with msg's message.
func failure(rc int, msg func() string) error {
	switch rc {
	case 0:
		return nil
	case codeTail:
		return ErrMultipleStatements
	}
	return &Error{Code: rc, Message: msg()}
}
