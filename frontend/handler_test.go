package frontend

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, method, path string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestRoutes(t *testing.T) {
	h := Handler()
	cases := []struct {
		name, path string
		status     int
		ctype      string
		contains   string
	}{
		{"start page at root", "/", 200, "text/html; charset=utf-8", `src="/dist/start.js"`},
		{"game page for any game id", "/g/k3x9q2m7ab", 200, "text/html; charset=utf-8", `src="/dist/game.js"`},
		{"a path below a game id is 404", "/g/k3x9q2m7ab/extra", 404, "", ""},
		{"empty game id is not a page", "/g/", 404, "", ""},
		{"scripts are javascript", "/assets/app.js", 200, "text/javascript; charset=utf-8", "import"},
		{"bundles are javascript", "/dist/game.js", 200, "text/javascript; charset=utf-8", ""},
		{"styles are css", "/assets/style.css", 200, "text/css; charset=utf-8", ":root"},
		{"icons are svg", "/assets/favicon.svg", 200, "image/svg+xml", "<svg"},
		{"unknown asset is 404", "/assets/nope.js", 404, "", ""},
		{"dot-dot never escapes", "/assets/../embed.go", 404, "", ""},
		{"api paths are not ours", "/api/games", 404, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := get(t, h, http.MethodGet, c.path, nil)
			if rec.Code != c.status {
				t.Fatalf("GET %s = %d, want %d", c.path, rec.Code, c.status)
			}
			// Documents and error answers carry the CSP and X-Frame-Options;
			// what a document loads (scripts, styles, images) does not need
			// them (embed.go, Resolve).
			document := c.status != 200 || strings.HasPrefix(c.ctype, "text/html")
			if got := rec.Header().Get("Content-Security-Policy"); document && got != ContentSecurityPolicy || !document && got != "" {
				t.Errorf("CSP = %q (document: %v), want %q on documents only", got, document, ContentSecurityPolicy)
			}
			if got := rec.Header().Get("X-Frame-Options"); document && got != "DENY" || !document && got != "" {
				t.Errorf("X-Frame-Options = %q (document: %v)", got, document)
			}
			if c.status != 200 {
				return
			}
			if got := rec.Header().Get("Content-Type"); got != c.ctype {
				t.Errorf("Content-Type = %q, want %q", got, c.ctype)
			}
			if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control = %q, want no-cache (revalidate so a deploy is seen)", got)
			}
			if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("X-Content-Type-Options missing")
			}
			if !strings.Contains(rec.Body.String(), c.contains) {
				t.Errorf("body of %s lacks %q", c.path, c.contains)
			}
		})
	}
}

func TestCSPAllowsNoOtherOrigin(t *testing.T) {
	for _, directive := range strings.Split(ContentSecurityPolicy, ";") {
		for _, src := range strings.Fields(directive)[1:] {
			switch src {
			case "'self'", "'none'":
			default:
				t.Errorf("CSP directive %q allows %s; only 'self' or 'none' are wanted", strings.TrimSpace(directive), src)
			}
		}
	}
}

func TestETagRevalidation(t *testing.T) {
	h := Handler()
	first := get(t, h, http.MethodGet, "/assets/render.js", nil)
	etag := first.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag on an asset")
	}
	again := get(t, h, http.MethodGet, "/assets/render.js", map[string]string{"If-None-Match": etag})
	if again.Code != http.StatusNotModified {
		t.Fatalf("GET with If-None-Match = %d, want 304", again.Code)
	}
	other := get(t, h, http.MethodGet, "/assets/app.js", nil).Header().Get("ETag")
	if other == etag {
		t.Errorf("two different files share ETag %s", etag)
	}
}

func TestOnlyGetAndHead(t *testing.T) {
	h := Handler()
	if rec := get(t, h, http.MethodHead, "/", nil); rec.Code != 200 || rec.Body.Len() != 0 {
		t.Errorf("HEAD / = %d with %d body bytes, want 200 and none", rec.Code, rec.Body.Len())
	}
	rec := get(t, h, http.MethodPost, "/g/abcdefghij", nil)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST /g/id = %d, want 405", rec.Code)
	}
	if rec.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("Allow = %q, want GET, HEAD", rec.Header().Get("Allow"))
	}
}

func TestNoInlineCode(t *testing.T) {
	// The CSP forbids inline scripts, styles and handlers; this keeps the
	// HTML honest about it so nothing silently stops working.
	for _, page := range []string{"index.html", "game.html"} {
		html := string(mustRead(t, page))
		for _, bad := range []string{"<script>", "<style", " style=", " onclick=", " onload=", " onsubmit=", "javascript:", "http://", "https://"} {
			if strings.Contains(html, bad) {
				t.Errorf("%s contains %q", page, bad)
			}
		}
	}
}
