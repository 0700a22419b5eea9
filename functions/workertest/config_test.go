package workertest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tessera/internal/testenv"
)

func read(t *testing.T, rel ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{testenv.RepoRoot()}, rel...)...))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func setting(t *testing.T, text, key string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(key) + `\s*=\s*"([^"]*)"`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("wrangler.toml has no %s", key)
	}
	return m[1]
}

// TestWranglerTomlMatchesWhatTheTestsRun: the deployed configuration
// (wrangler.toml) and the one the tests run under miniflare (lib.mjs,
// serve.mjs) agree on the runtime date, the static files, the routing of
// every request through the Worker, the D1 binding and its migrations, and
// a Cron Trigger; the deploy tooling pins the wrangler that runs the
// pinned miniflare.
func TestWranglerTomlMatchesWhatTheTestsRun(t *testing.T) {
	toml := read(t, "infra", "workers", "wrangler.toml")
	lib := read(t, "infra", "workers", "lib.mjs")
	serve := read(t, "infra", "workers", "serve.mjs")
	date := setting(t, toml, "compatibility_date")
	if !strings.Contains(lib, `compatibilityDate = "`+date+`"`) {
		t.Errorf("lib.mjs's compatibilityDate is not wrangler.toml's %s", date)
	}
	if main := setting(t, toml, "main"); main != "shim.mjs" {
		t.Errorf("main = %q", main)
	}
	dir := setting(t, toml, "directory")
	if _, err := os.Stat(filepath.Join(testenv.RepoRoot(), "infra", "workers", dir, "game.html")); err != nil {
		t.Errorf("the assets directory %q has no game.html: %v", dir, err)
	}
	if !strings.Contains(serve, `join(root, "frontend", "static")`) {
		t.Error("serve.mjs does not serve frontend/static")
	}
	for _, want := range []string{"run_worker_first = true", `html_handling = "none"`, `not_found_handling = "none"`, `binding = "ASSETS"`, `binding = "DB"`, `migrations_dir = "migrations"`, "crons = ["} {
		if !strings.Contains(toml, want) {
			t.Errorf("wrangler.toml lacks %s", want)
		}
	}
	for _, want := range []string{"invoke_user_worker_ahead_of_assets: true", `html_handling: "none"`, `binding: "ASSETS"`, `d1Databases: { DB:`} {
		if !strings.Contains(serve, want) {
			t.Errorf("serve.mjs lacks %s", want)
		}
	}
	root := read(t, "package.json")
	deploy := read(t, "infra", "workers", "package.json")
	lock := read(t, "infra", "workers", "package-lock.json")
	if !strings.Contains(root, `"miniflare": "4.20260730.0"`) || !strings.Contains(deploy, `"wrangler": "4.116.0"`) ||
		!strings.Contains(lock, `"node_modules/miniflare": {
      "version": "4.20260730.0"`) {
		t.Error("the pinned wrangler (infra/workers) does not run the miniflare the tests pin")
	}
}
