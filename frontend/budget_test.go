package frontend

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
)

// gamePageBudget is the most the game page may load: its HTML, CSS and
// JavaScript, unminified.
const gamePageBudget = 100 * 1024

var (
	htmlRefs  = regexp.MustCompile(`(?:src|href)="(/assets/[^"]+\.(?:js|css))"`)
	jsImports = regexp.MustCompile(`(?m)^\s*import\s[^'"]*['"](\./[^'"]+)['"]`)
)

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(Static(), name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return b
}

// pageFiles follows a page's <script src>, <link href> and the JS modules'
// static imports, and returns every file the page loads.
func pageFiles(t *testing.T, page string) []string {
	t.Helper()
	seen := map[string]bool{page: true}
	order := []string{page}
	var queue []string
	for _, m := range htmlRefs.FindAllStringSubmatch(string(mustRead(t, page)), -1) {
		queue = append(queue, strings.TrimPrefix(m[1], "/"))
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		order = append(order, name)
		if path.Ext(name) != ".js" {
			continue
		}
		for _, m := range jsImports.FindAllStringSubmatch(string(mustRead(t, name)), -1) {
			queue = append(queue, path.Join(path.Dir(name), m[1]))
		}
	}
	return order
}

func TestGamePageBudget(t *testing.T) {
	files := pageFiles(t, "game.html")
	total := 0
	for _, f := range files {
		n := len(mustRead(t, f))
		total += n
		t.Logf("%-22s %6d bytes", f, n)
	}
	t.Logf("game page total: %d bytes (budget %d)", total, gamePageBudget)
	for _, want := range []string{"assets/app.js", "assets/style.css", "assets/api.js", "assets/render.js", "assets/input.js", "assets/log.js"} {
		if !contains(files, want) {
			t.Errorf("the game page does not load %s; the budget walk is missing files: %v", want, files)
		}
	}
	if total > gamePageBudget {
		t.Errorf("game page HTML+CSS+JS = %d bytes, want at most %d", total, gamePageBudget)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
