package history

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/leaselab/leaselab/engine/limits"
)

// LinkParam is a history's text, the JSON lines format, as the simulator
// link's history= parameter: the text deflated (raw DEFLATE, no header)
// and written as unpadded base64url, as a grading report's impl= is.
// The page (and ReadLinkParam) gives back the text byte for byte. It is an
// error when the text or the parameter passes grade_link_run_bytes
// (limits.DefaultGrading.LinkRunBytes).
func LinkParam(text []byte) (string, error) {
	most := limits.DefaultGrading.LinkRunBytes
	if len(text) > most {
		return "", fmt.Errorf("a history of %d bytes: over the limit %s", len(text), limits.DefaultGrading.Row("grade_link_run_bytes"))
	}
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression) // the level is valid
	w.Write(text)
	w.Close()
	out := base64.RawURLEncoding.EncodeToString(b.Bytes())
	if len(out) > most {
		return "", fmt.Errorf("a history= parameter of %d bytes: over the limit %s", len(out), limits.DefaultGrading.Row("grade_link_run_bytes"))
	}
	return out, nil
}

// ReadLinkParam is the text a history= parameter (LinkParam) holds, byte
// for byte. A parameter that is not unpadded base64url, whose bytes are
// not one whole raw DEFLATE stream, or that (or whose text) passes
// grade_link_run_bytes is an error saying which. It does not read the
// text as a history: Read does.
func ReadLinkParam(param string) ([]byte, error) {
	lim := limits.DefaultGrading.Row("grade_link_run_bytes")
	most := limits.DefaultGrading.LinkRunBytes
	if len(param) > most {
		return nil, fmt.Errorf("history=: %d bytes, over the limit %s", len(param), lim)
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(param)
	if err != nil {
		return nil, fmt.Errorf("history=: not unpadded base64url: %w", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	text, err := io.ReadAll(io.LimitReader(r, int64(most)+1))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, errors.New("history=: cut short: its DEFLATE stream ends before its last block")
	case err != nil:
		return nil, fmt.Errorf("history=: not raw DEFLATE: %w", err)
	case len(text) > most:
		return nil, fmt.Errorf("history=: its text passes the limit %s", lim)
	}
	return text, nil
}
