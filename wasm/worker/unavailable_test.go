package main

import (
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// A Worker that cannot open its store or read its settings answers as the
// API answers every failure of its own: 500 "database", JSON, not to be
// stored, and nothing of the cause.
func TestUnavailable_AnswersAsTheAPIsServerError(t *testing.T) {
	log.SetOutput(io.Discard)
	defer log.SetOutput(os.Stderr)
	rec := httptest.NewRecorder()
	unavailable(rec, "D1 binding DB", errors.New("secret cause"))
	res := rec.Result()
	for name, want := range map[string]string{
		"Content-Type":           "application/json",
		"Cache-Control":          "no-store",
		"X-Content-Type-Options": "nosniff",
	} {
		if got := res.Header.Get(name); got != want {
			t.Errorf("%s %q, want %q", name, got, want)
		}
	}
	body := rec.Body.String()
	if res.StatusCode != http.StatusInternalServerError || !strings.Contains(body, `"error":"database"`) ||
		strings.Contains(body, "secret") {
		t.Errorf("%d %s: want 500 database without the cause", res.StatusCode, body)
	}
}
