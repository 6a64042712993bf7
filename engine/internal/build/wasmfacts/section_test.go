package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// section is one section of a module as sections reads it.
type section struct {
	id       byte
	name     string // a custom section's
	contents []byte // after the name, for a custom section
}

// sections reads a module's sections back, failing the test on bytes that
// are not a module.
func sections(t *testing.T, module []byte) []section {
	t.Helper()
	var out []section
	err := eachSection(module, func(id byte, _, contents []byte) {
		s := section{id: id, contents: contents}
		if id == 0 {
			l, m := binary.Uvarint(contents)
			s.name, s.contents = string(contents[m:m+int(l)]), contents[m+int(l):]
		}
		out = append(out, s)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// custom is a custom section's bytes.
func custom(name string, payload []byte) []byte {
	body := append(binary.AppendUvarint(nil, uint64(len(name))), name...)
	body = append(body, payload...)
	return append(binary.AppendUvarint([]byte{0}, uint64(len(body))), body...)
}

// a module of a type section (one func type () -> ()), a custom section of
// another name and a facts section written before.
func sampleModule() []byte {
	m := append([]byte(nil), header...)
	m = append(m, 1, 4, 1, 0x60, 0, 0) // type section: one type, () -> ()
	m = append(m, custom("producers", []byte("go"))...)
	m = append(m, custom("leaselab.facts", []byte(`{"old":true}`))...)
	return m
}

func TestWithSection_ReplacesItsOwnAndKeepsEveryOther(t *testing.T) {
	out, err := withSection(sampleModule(), "leaselab.facts", []byte(`{"new":true}`))
	if err != nil {
		t.Fatal(err)
	}
	got := sections(t, out)
	if len(got) != 3 {
		t.Fatalf("sections: %+v, want the type section, producers and one leaselab.facts", got)
	}
	if got[0].id != 1 || !bytes.Equal(got[0].contents, []byte{1, 0x60, 0, 0}) {
		t.Errorf("type section changed: %+v", got[0])
	}
	if got[1].name != "producers" || string(got[1].contents) != "go" {
		t.Errorf("other custom section changed: %+v", got[1])
	}
	if got[2].id != 0 || got[2].name != "leaselab.facts" || string(got[2].contents) != `{"new":true}` {
		t.Errorf("facts section: %+v, want {\"new\":true} last", got[2])
	}
	again, err := withSection(out, "leaselab.facts", []byte(`{"new":true}`))
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("writing the same facts again changed the module (err %v)", err)
	}
}

func TestWithSection_BareHeaderGetsTheSectionOnly(t *testing.T) {
	out, err := withSection(header, "leaselab.facts", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := sections(t, out); len(got) != 1 || got[0].name != "leaselab.facts" || len(got[0].contents) != 0 {
		t.Errorf("sections %+v, want one empty leaselab.facts", got)
	}
}

// A payload past 127 bytes needs a section size of two LEB128 bytes.
func TestWithSection_SizeOfManyBytes(t *testing.T) {
	payload := bytes.Repeat([]byte("x"), 300)
	out, err := withSection(header, "leaselab.facts", payload)
	if err != nil {
		t.Fatal(err)
	}
	if got := sections(t, out); len(got) != 1 || !bytes.Equal(got[0].contents, payload) {
		t.Errorf("a payload of 300 bytes did not read back whole")
	}
}

func TestWithSection_RefusesWhatIsNoModule(t *testing.T) {
	m := sampleModule()
	for name, in := range map[string][]byte{
		"empty":                 nil,
		"not wasm":              []byte("<!doctype html>"),
		"header cut short":      header[:7],
		"last section cut":      m[:len(m)-1],
		"section size unending": append(append([]byte(nil), header...), 1, 0x80, 0x80),
	} {
		if _, err := withSection(in, "leaselab.facts", nil); !errors.Is(err, ErrNotModule) {
			t.Errorf("%s: err %v, want ErrNotModule", name, err)
		}
	}
}

func TestWrite_RewritesTheFileKeepingItsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.wasm")
	if err := os.WriteFile(path, sampleModule(), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := write(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := sections(t, b)
	last := got[len(got)-1]
	if last.name != "leaselab.facts" || !bytes.Contains(last.contents, []byte(`"library":[{"name":`)) {
		t.Errorf("last section %q: %.80s, want the facts' JSON", last.name, last.contents)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("left beside the module: %v", entries)
	}
}

func TestWrite_LeavesABadFileAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.wasm")
	if err := os.WriteFile(path, []byte("not wasm"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := write(path); !errors.Is(err, ErrNotModule) {
		t.Fatalf("err %v, want ErrNotModule", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "not wasm" {
		t.Errorf("file became %q", b)
	}
}
