package frontend

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed static
var files embed.FS

// Static is the page's file tree (index.html, game.html, assets/...), the
// same layout that is uploaded to the S3 bucket.
func Static() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}

// ContentSecurityPolicy allows scripts, styles, images and API calls from
// the page's own origin only, and no inline code at all.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; " +
	"img-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; " +
	"form-action 'self'; frame-ancestors 'none'"

type asset struct {
	body        []byte
	contentType string
	etag        string
}

var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".txt":         "text/plain; charset=utf-8",
}

func load(name string) asset {
	body, err := fs.ReadFile(Static(), name)
	if err != nil {
		panic(err)
	}
	ct, ok := contentTypes[path.Ext(name)]
	if !ok {
		ct = mime.TypeByExtension(path.Ext(name))
	}
	sum := sha256.Sum256(body)
	return asset{body: body, contentType: ct, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
}

// Handler serves the start page at "/", the game page at "/g/{id}" and the
// files under "/assets/". Only GET and HEAD are allowed. Every answer can be
// cached but must be revalidated (Cache-Control: no-cache with a content
// ETag), so a new deploy is picked up on the next load while an unchanged
// file costs a 304.
func Handler() http.Handler {
	assets := map[string]asset{}
	err := fs.WalkDir(Static(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		assets[p] = load(p)
		return nil
	})
	if err != nil {
		panic(err)
	}
	startedAt := time.Now()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		name, ok := route(r.URL.Path)
		a, found := assets[name]
		if !ok || !found {
			h.Set("Cache-Control", "no-store")
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h.Set("Content-Type", a.contentType)
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", a.etag)
		http.ServeContent(w, r, "", startedAt, bytes.NewReader(a.body))
	})
}

// route maps a request path to the embedded file that answers it.
func route(p string) (string, bool) {
	switch {
	case p == "/" || p == "/index.html":
		return "index.html", true
	case p == "/sw.js" || p == "/manifest.webmanifest":
		// At the root: a service worker's scope is its own path's folder.
		return strings.TrimPrefix(p, "/"), true
	case strings.HasPrefix(p, "/g/"):
		id := strings.TrimPrefix(p, "/g/")
		if id == "" || strings.ContainsAny(id, "/.") {
			return "", false
		}
		return "game.html", true
	case strings.HasPrefix(p, "/assets/"):
		name := strings.TrimPrefix(p, "/")
		if strings.Contains(name, "..") || strings.HasSuffix(name, "/") {
			return "", false
		}
		return name, true
	}
	return "", false
}
