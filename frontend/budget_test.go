package frontend

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
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

var modulePreloads = regexp.MustCompile(`<link rel="modulepreload" href="/assets/([^"]+\.js)">`)

// TestModulePreloadsAreTheImportGraph: each page names, with
// <link rel="modulepreload">, exactly the modules its <script> entries
// import (directly or not), so the browser fetches them all at once instead
// of discovering them import by import (docs/frontend.md, "Loading").
func TestModulePreloadsAreTheImportGraph(t *testing.T) {
	scripts := regexp.MustCompile(`<script type="module" src="/(assets/[^"]+\.js)"`)
	for _, page := range []string{"game.html", "index.html"} {
		html := string(mustRead(t, page))
		entries := map[string]bool{}
		var queue []string
		for _, m := range scripts.FindAllStringSubmatch(html, -1) {
			entries[m[1]] = true
			queue = append(queue, m[1])
		}
		imported := map[string]bool{}
		for len(queue) > 0 {
			name := queue[0]
			queue = queue[1:]
			for _, m := range jsImports.FindAllStringSubmatch(string(mustRead(t, name)), -1) {
				dep := path.Join(path.Dir(name), m[1])
				if !imported[dep] {
					imported[dep] = true
					queue = append(queue, dep)
				}
			}
		}
		var want, got []string
		for dep := range imported {
			if !entries[dep] {
				want = append(want, strings.TrimPrefix(dep, "assets/"))
			}
		}
		for _, m := range modulePreloads.FindAllStringSubmatch(html, -1) {
			got = append(got, m[1])
		}
		slices.Sort(want)
		slices.Sort(got)
		if len(entries) == 0 || !slices.Equal(got, want) {
			t.Errorf("%s (entries %v) preloads %v; its modules are %v", page, entries, got, want)
		}
	}
}
