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

// answer checks a bridge answer's result code: nil when 0, else an *Error
// with the message at index 1.
func answer(a js.Value) error {
	if rc := a.Index(0).Int(); rc != 0 {
		return &Error{Code: rc, Message: a.Index(1).String()}
	}
	return nil
}
