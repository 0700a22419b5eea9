package frontend

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// TestGzipByAcceptEncoding: every text file is served gzipped to a client
// that takes gzip (decoding to the file itself, with its own ETag and Vary)
// and as is to one that does not; PNGs are never gzipped.
func TestGzipByAcceptEncoding(t *testing.T) {
	h := Handler()
	raw, gz := 0, 0
	for path, name := range map[string]string{
		"/": "index.html", "/g/abcdefghij": "game.html", "/assets/app.js": "assets/app.js",
		"/assets/style.css": "assets/style.css", "/sw.js": "sw.js", "/assets/icon.svg": "assets/icon.svg",
	} {
		want, err := fs.ReadFile(Static(), name)
		if err != nil {
			t.Fatal(err)
		}
		plain := get(t, h, http.MethodGet, path, nil)
		if plain.Header().Get("Content-Encoding") != "" || !bytes.Equal(plain.Body.Bytes(), want) {
			t.Errorf("%s without Accept-Encoding: encoding %q", path, plain.Header().Get("Content-Encoding"))
		}
		z := get(t, h, http.MethodGet, path, map[string]string{"Accept-Encoding": "gzip, br;q=0.8"})
		if z.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(z.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s with gzip: encoding %q, Vary %q", path, z.Header().Get("Content-Encoding"), z.Header().Get("Vary"))
			continue
		}
		gz += z.Body.Len()
		zr, err := gzip.NewReader(bytes.NewReader(z.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the gzipped body does not decode to the file (%v)", path, err)
		}
		if z.Header().Get("ETag") == plain.Header().Get("ETag") {
			t.Errorf("%s: the gzipped and the plain body share an ETag", path)
		}
		again := get(t, h, http.MethodGet, path, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": z.Header().Get("ETag")})
		if again.Code != http.StatusNotModified {
			t.Errorf("%s: revalidating the gzipped body: %d", path, again.Code)
		}
		raw += len(want)
	}
	t.Logf("page files: %d bytes, %d gzipped", raw, gz)
	for _, refuse := range []string{"gzip;q=0", "identity", "br;q=0", "*;q=0", "gzip;q=0, br;q=0, *"} {
		if r := get(t, h, http.MethodGet, "/assets/app.js", map[string]string{"Accept-Encoding": refuse}); r.Header().Get("Content-Encoding") != "" {
			t.Errorf("Accept-Encoding %q got %q", refuse, r.Header().Get("Content-Encoding"))
		}
	}
	for ae, want := range map[string]string{"*": "br", "gzip;q=0, *": "br", "br;q=0, *": "gzip", "gzip, br;q=0.5": "gzip", "x-gzip": "gzip"} {
		if r := get(t, h, http.MethodGet, "/assets/app.js", map[string]string{"Accept-Encoding": ae}); r.Header().Get("Content-Encoding") != want {
			t.Errorf("Accept-Encoding %q got %q, want %q", ae, r.Header().Get("Content-Encoding"), want)
		}
	}
	if r := get(t, h, http.MethodGet, "/assets/icon-192.png", map[string]string{"Accept-Encoding": "gzip"}); r.Header().Get("Content-Encoding") != "" {
		t.Errorf("a PNG was gzipped")
	}
}

// TestBrotliByAcceptEncoding: a client that takes Brotli (Chromium: "gzip,
// deflate, br, zstd") gets it, smaller than gzip, decoding to the file,
// with its own ETag that revalidates; a PNG is never compressed.
func TestBrotliByAcceptEncoding(t *testing.T) {
	h := Handler()
	gzTotal, brTotal := 0, 0
	for path, name := range map[string]string{
		"/": "index.html", "/g/abcdefghij": "game.html", "/dist/game.js": "dist/game.js",
		"/dist/game.css": "dist/game.css", "/dist/game.it.json": "dist/game.it.json", "/sw.js": "sw.js",
	} {
		want, err := fs.ReadFile(Static(), name)
		if err != nil {
			t.Fatal(err)
		}
		z := get(t, h, http.MethodGet, path, map[string]string{"Accept-Encoding": "gzip"})
		b := get(t, h, http.MethodGet, path, map[string]string{"Accept-Encoding": "gzip, deflate, br, zstd"})
		if b.Header().Get("Content-Encoding") != "br" || !strings.Contains(b.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: encoding %q, Vary %q; want br", path, b.Header().Get("Content-Encoding"), b.Header().Get("Vary"))
			continue
		}
		got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(b.Body.Bytes())))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the Brotli body does not decode to the file (%v)", path, err)
		}
		if b.Body.Len() >= z.Body.Len() {
			t.Errorf("%s: Brotli %d bytes, gzip %d", path, b.Body.Len(), z.Body.Len())
		}
		if tag := b.Header().Get("ETag"); tag == z.Header().Get("ETag") || !strings.HasSuffix(tag, `-br"`) {
			t.Errorf("%s: Brotli ETag %s beside gzip's %s", path, tag, z.Header().Get("ETag"))
		}
		again := get(t, h, http.MethodGet, path, map[string]string{"Accept-Encoding": "br", "If-None-Match": b.Header().Get("ETag")})
		if again.Code != http.StatusNotModified {
			t.Errorf("%s: revalidating the Brotli body: %d", path, again.Code)
		}
		gzTotal += z.Body.Len()
		brTotal += b.Body.Len()
	}
	t.Logf("gzip %d bytes, Brotli %d", gzTotal, brTotal)
	if r := get(t, h, http.MethodGet, "/assets/icon-192.png", map[string]string{"Accept-Encoding": "br"}); r.Header().Get("Content-Encoding") != "" {
		t.Errorf("a PNG was compressed")
	}
}
