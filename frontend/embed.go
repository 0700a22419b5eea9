//go:generate node build.mjs

package frontend

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
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
	// gzipped is body compressed (gzip, best compression), made once at
	// start, nil when compressing does not pay (images, tiny files).
	gzipped []byte
	gzipTag string
	// brotli is body at Brotli's best quality, made on the first request
	// that takes it (80 ms for the game page's script: not at start), nil
	// when it would not be smaller than gzipped.
	brOnce sync.Once
	brotli []byte
	brTag  string
}

// br returns a's Brotli body and its ETag, made once.
func (a *asset) br() ([]byte, string) {
	a.brOnce.Do(func() {
		var buf bytes.Buffer
		w := brotli.NewWriterLevel(&buf, brotli.BestCompression)
		w.Write(a.body)
		w.Close()
		if buf.Len() < len(a.gzipped) {
			a.brotli, a.brTag = buf.Bytes(), strings.TrimSuffix(a.etag, `"`)+`-br"`
		}
	})
	return a.brotli, a.brTag
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

// ContentType is the Content-Type a file of Static() is served with, here
// and from the S3 bucket (functions/sitepub uploads it with each file).
func ContentType(name string) string {
	if ct, ok := contentTypes[path.Ext(name)]; ok {
		return ct
	}
	return mime.TypeByExtension(path.Ext(name))
}

// CacheControl is every file's Cache-Control (Resolve's): stored, but
// revalidated before each use, so a new deploy shows on the next load.
const CacheControl = "no-cache"

func load(name string) *asset {
	body, err := fs.ReadFile(Static(), name)
	if err != nil {
		panic(err)
	}
	ct := ContentType(name)
	sum := sha256.Sum256(body)
	tag := hex.EncodeToString(sum[:12])
	a := &asset{body: body, contentType: ct, etag: `"` + tag + `"`}
	if compressible(ct) && len(body) >= minCompress {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		if buf.Len() < len(body)*9/10 {
			a.gzipped = buf.Bytes()
			// Another representation, another validator (RFC 9110 8.8.3).
			a.gzipTag = `"` + tag + `-gz"`
		}
	}
	return a
}

// minCompress is the smallest file worth compressing: below it the gzip
// header and a round of decoding cost more than the bytes saved.
const minCompress = 512

// compressible is a text type (PNGs are compressed already).
func compressible(contentType string) bool {
	return strings.HasPrefix(contentType, "text/") || strings.Contains(contentType, "json") ||
		strings.HasPrefix(contentType, "image/svg")
}

// accepts reports whether an Accept-Encoding header allows coding (gzip
// or br) and with what weight (0: refused): a q-value of 0 refuses it;
// "*" allows it unless it is refused by name. x-gzip is gzip.
func accepts(header, coding string) float64 {
	star := 0.0
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "x-gzip" {
			name = "gzip"
		}
		if name != coding && name != "*" {
			continue
		}
		q := 1.0
		if k, v, found := strings.Cut(strings.TrimSpace(params), "="); found && strings.TrimSpace(strings.ToLower(k)) == "q" {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
				q = f
			}
		}
		if name == "*" {
			star = q
			continue
		}
		return q
	}
	return star
}

// Handler serves the start page at "/", the game page at "/g/{id}", the
// rules at "/rules" and the
// files under "/assets/", as Resolve decides, gzipped when the client
// takes it.
func Handler() http.Handler {
	assets := map[string]*asset{}
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
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		name, status, body := Resolve(r.Method, r.URL.Path, h)
		if status != http.StatusOK {
			http.Error(w, body, status)
			return
		}
		a := assets[name]
		h.Set("Content-Type", a.contentType)
		content, etag := a.body, a.etag
		if a.gzipped != nil {
			// Brotli where the client takes it at least as gladly as
			// gzip (Chromium sends "gzip, deflate, br, zstd"): 10% fewer
			// bytes than gzip for the game page's first load, as CloudFront
			// and Cloudflare serve it there.
			h.Set("Vary", "Accept-Encoding")
			ae := r.Header.Get("Accept-Encoding")
			gz, br := accepts(ae, "gzip"), accepts(ae, "br")
			if body, tag := a.br(); body != nil && br > 0 && br >= gz {
				content, etag = body, tag
				h.Set("Content-Encoding", "br")
			} else if gz > 0 {
				content, etag = a.gzipped, a.gzipTag
				h.Set("Content-Encoding", "gzip")
			}
		}
		h.Set("ETag", etag)
		// No Last-Modified: the ETag (the content's hash) answers
		// revalidation, and the header was 45 bytes of every answer.
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(content))
	})
}

// names is the set of files in Static().
var names = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	fs.WalkDir(Static(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			set[p] = true
		}
		return err
	})
	return set
})

// Resolve decides how the page answers method on path p, for Handler and
// for the Cloudflare Worker (which serves the same files through Workers
// static assets): the file of Static() that answers, with status 200; or
// no file, status 404 or 405 and the body to send. It sets the security
// headers, Cache-Control and (on a 405) Allow in h. Every answer can be
// cached but must be revalidated (no-cache with a content ETag), so a
// new deploy is picked up on the next load while an unchanged file costs
// a 304.
//
// The Content-Security-Policy and X-Frame-Options go with what a browser
// applies them to: documents (the pages, and every error answer) and the
// service worker. A script, style sheet, image or catalog ignores them
// (CSP 3, "Integration with Fetch"; RFC 7034), and on a phone's first load
// they were 270 bytes of every answer (docs/frontend.md, "Bundles").
func Resolve(method, p string, h http.Header) (file string, status int, body string) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	name, ok := route(p)
	if !ok || !names()[name] || strings.HasSuffix(name, ".html") || name == "sw.js" {
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Frame-Options", "DENY")
	}
	if !ok || !names()[name] {
		h.Set("Cache-Control", "no-store")
		return "", http.StatusNotFound, "404 page not found"
	}
	if method != http.MethodGet && method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		return "", http.StatusMethodNotAllowed, "405 method not allowed"
	}
	h.Set("Cache-Control", CacheControl)
	return name, http.StatusOK, ""
}

// route maps a request path to the embedded file that answers it.
func route(p string) (string, bool) {
	switch {
	case p == "/" || p == "/index.html":
		return "index.html", true
	case p == "/rules":
		return "rules.html", true
	case p == "/room":
		return "room.html", true
	case strings.HasPrefix(p, "/p/"), strings.HasPrefix(p, "/l/"), strings.HasPrefix(p, "/t/"):
		// A player's profile, a league, a tournament: the room's page
		// (room.js reads the id).
		id := p[len("/p/"):]
		if id == "" || strings.ContainsAny(id, "/.") {
			return "", false
		}
		return "room.html", true
	case p == "/sw.js" || p == "/manifest.webmanifest":
		// At the root: a service worker's scope is its own path's folder.
		return strings.TrimPrefix(p, "/"), true
	case strings.HasPrefix(p, "/g/"):
		id := strings.TrimPrefix(p, "/g/")
		if id == "" || strings.ContainsAny(id, "/.") {
			return "", false
		}
		return "game.html", true
	case strings.HasPrefix(p, "/assets/"), strings.HasPrefix(p, "/dist/"):
		name := strings.TrimPrefix(p, "/")
		if strings.Contains(name, "..") || strings.HasSuffix(name, "/") {
			return "", false
		}
		return name, true
	}
	return "", false
}
