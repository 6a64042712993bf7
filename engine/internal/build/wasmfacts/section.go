package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// header is what every WebAssembly binary module starts with: the magic
// "\0asm" and version 1.
var header = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

// ErrNotModule reports bytes that are not a WebAssembly binary module, or
// one cut short.
var ErrNotModule = errors.New("not a WebAssembly module")

// withSection returns module with the custom section name holding payload,
// after every other section, and without any custom section of that name it
// had. Sections are otherwise kept byte for byte, in their order: a custom
// section may stand anywhere in a module, and engines ignore the ones they
// do not know.
func withSection(module []byte, name string, payload []byte) ([]byte, error) {
	out := append([]byte(nil), header...)
	err := eachSection(module, func(id byte, whole, contents []byte) {
		if id != 0 || customName(contents) != name {
			out = append(out, whole...)
		}
	})
	if err != nil {
		return nil, err
	}
	body := binary.AppendUvarint(nil, uint64(len(name)))
	body = append(body, name...)
	body = append(body, payload...)
	out = append(out, 0)
	out = binary.AppendUvarint(out, uint64(len(body)))
	return append(out, body...), nil
}

// eachSection calls f with each section of module in order: its id, its
// bytes whole (id and size included) and its contents, or reports
// ErrNotModule for bytes that are not a module or are cut short.
func eachSection(module []byte, f func(id byte, whole, contents []byte)) error {
	if !bytes.HasPrefix(module, header) {
		return fmt.Errorf("%w: no WebAssembly header", ErrNotModule)
	}
	for rest := module[len(header):]; len(rest) > 0; {
		id := rest[0]
		size, n := binary.Uvarint(rest[1:])
		if n <= 0 || size > uint64(len(rest)-1-n) {
			return fmt.Errorf("%w: section %d cut short at byte %d", ErrNotModule, id, len(module)-len(rest))
		}
		whole := rest[:1+n+int(size)]
		f(id, whole, whole[1+n:])
		rest = rest[len(whole):]
	}
	return nil
}

// customName is the name a custom section's contents start with, or "" when
// they hold none.
func customName(contents []byte) string {
	size, n := binary.Uvarint(contents)
	if n <= 0 || size > uint64(len(contents)-n) {
		return ""
	}
	return string(contents[n : n+int(size)])
}
