package frontend

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tessera/internal/testenv"
)

// The pages load esbuild's bundles (frontend/build.mjs): what a phone
// downloads before the game's GET is one HTML page, one style sheet, one
// script and the first part of the page's words in its language. browsertest/critical-path.test.js measures it in Chromium
// (bytes on the wire, requests before the game's GET); this test is the
// quick guard on the same files, gzipped as the server sends them.
//
// The game page keeps 3 KiB of its budget free (issue 44): what it
// grows by next must not push a phone's first load over.
const (
	gamePageBudget  = 25 * 1024
	gamePageRoom    = 3 * 1024
	startPageBudget = 20 * 1024
)

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(Static(), name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return b
}

var pageRefs = regexp.MustCompile(`<(?:script|link)[^>]*(?:src|href)="/((?:assets|dist)/[^"]+)"[^>]*>`)

// criticalFiles are a page's HTML and the scripts and style sheets it names.
func criticalFiles(t *testing.T, page string) []string {
	files := []string{page}
	for _, m := range pageRefs.FindAllStringSubmatch(string(mustRead(t, page)), -1) {
		if strings.HasSuffix(m[1], ".js") || strings.HasSuffix(m[1], ".css") {
			files = append(files, m[1])
		}
	}
	return files
}

func gzipped(b []byte) int {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return min(buf.Len(), len(b))
}

func TestPagesLoadTheirBundles(t *testing.T) {
	for _, c := range []struct {
		page, bundle string
		budget       int
	}{{"game.html", "game", gamePageBudget - gamePageRoom}, {"index.html", "start", startPageBudget}} {
		files := criticalFiles(t, c.page)
		want := []string{c.page, "dist/" + c.bundle + ".css", "dist/" + c.bundle + ".js"}
		if strings.Join(files, " ") != strings.Join(want, " ") {
			t.Errorf("%s loads %v, want %v (one sheet, one bundle: no module of assets/, no modulepreload)", c.page, files, want)
		}
		// Plus the words the page fetches before it draws, in the larger
		// of its languages (i18n.js, build.mjs).
		words := 0
		for _, lang := range []string{"en", "it"} {
			words = max(words, gzipped(mustRead(t, "dist/"+c.bundle+"."+lang+".json")))
		}
		total := words
		t.Logf("%-16s %6d bytes gzipped", "dist/"+c.bundle+".<lang>.json", words)
		for _, f := range files {
			n := gzipped(mustRead(t, f))
			total += n
			t.Logf("%-16s %6d bytes gzipped", f, n)
		}
		t.Logf("%s: %d bytes gzipped (budget %d)", c.page, total, c.budget)
		if total > c.budget {
			t.Errorf("%s and what it loads: %d bytes gzipped, want at most %d", c.page, total, c.budget)
		}
	}
}

// TestBundlesAreCurrent: static/dist is what frontend/build.mjs makes of
// the sources (run make bundle, or go generate ./frontend, after a change).
func TestBundlesAreCurrent(t *testing.T) {
	node := testenv.RequireTool(t, "node", "node")
	root := testenv.RepoRoot()
	if _, err := os.Stat(filepath.Join(root, "node_modules", "esbuild")); err != nil {
		testenv.Missing(t, "esbuild", err)
	}
	// build.mjs reads the sources in its own process: tell go test's cache
	// about them (testenv's inputs.go).
	testenv.TrackFiles(t, "frontend", "package-lock.json")
	cmd := exec.Command(node, filepath.Join(root, "frontend", "build.mjs"), "--check")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}
