package httpapi_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/httpapi"
)

// ServerError answers what a Handler answers when it fails itself: the
// same status, headers and body, whatever the cause.
func TestServerError_AnswersAsTheHandlersOwnFailure(t *testing.T) {
	failing := func(context.Context, string) ([]byte, error) { return nil, errors.New("secret cause") }
	h := httpapi.New(newStore(t), httpapi.WithTimeline(failing), httpapi.WithErrorLog(log.New(io.Discard, "", 0)))
	own := httptest.NewRecorder()
	h.ServeHTTP(own, httptest.NewRequest(http.MethodPost, "/api/timeline", strings.NewReader("job a\n")))
	got := httptest.NewRecorder()
	httpapi.ServerError(got)
	if own.Code != http.StatusInternalServerError || got.Code != own.Code ||
		!reflect.DeepEqual(got.Header(), own.Header()) || got.Body.String() != own.Body.String() {
		t.Fatalf("ServerError: %d %v %s\nthe handler's own failure: %d %v %s",
			got.Code, got.Header(), got.Body, own.Code, own.Header(), own.Body)
	}
	if strings.Contains(got.Body.String(), "secret") {
		t.Fatalf("the answer names the cause: %s", got.Body)
	}
}
