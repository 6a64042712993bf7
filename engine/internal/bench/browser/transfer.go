package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
)

// sizes is what the server sends for a set of URLs, summed, for each
// Accept-Encoding a browser may send.
type sizes struct {
	Raw, Gzip, Brotli float64
	// Uncompressed lists the URLs sent without brotli to a client that
	// accepts it (a file with no precompressed variant).
	Uncompressed []string
}

// encodings are the Accept-Encoding values asked for, in the order of the
// fields of sizes.
var encodings = []string{"identity", "gzip", "br"}

// transferSizes asks the server for each URL once per encoding and sums the
// body bytes it sends (compressed bytes as sent, not decoded).
func transferSizes(ctx context.Context, urls []string) (sizes, error) {
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	defer client.CloseIdleConnections()
	var s sizes
	for _, u := range urls {
		for i, enc := range encodings {
			n, got, err := fetchSize(ctx, client, u, enc)
			if err != nil {
				return sizes{}, err
			}
			switch i {
			case 0:
				s.Raw += n
			case 1:
				s.Gzip += n
			case 2:
				s.Brotli += n
				if got != "br" {
					s.Uncompressed = append(s.Uncompressed, pathOf(u))
				}
			}
		}
	}
	return s, nil
}

// fetchSize returns the number of body bytes the server sends for u with
// Accept-Encoding: enc, and the Content-Encoding it sent them with.
func fetchSize(ctx context.Context, client *http.Client, u, enc string) (float64, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Accept-Encoding", enc)
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, "", fmt.Errorf("%s (Accept-Encoding: %s): HTTP %d", u, enc, resp.StatusCode)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", u, err)
	}
	return float64(n), resp.Header.Get("Content-Encoding"), nil
}

// precompressedSize is the bytes of files' brotli copies in dir (NAME.br,
// which make wasm writes beside each file).
func precompressedSize(dir string, files []string) (float64, error) {
	var n float64
	for _, f := range files {
		st, err := os.Stat(filepath.Join(dir, f+".br"))
		if err != nil {
			return unmeasured, fmt.Errorf("%w: make wasm writes it", err)
		}
		n += float64(st.Size())
	}
	return n, nil
}
