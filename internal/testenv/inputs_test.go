package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTrackedInputsRerunACachedTest runs a test that tracks a directory of
// files (TrackFiles) and a package's sources (TrackBuild) with go test
// and its cache: unchanged, the second run is served from the cache; a
// changed file, a new file or a changed source runs it again.
func TestTrackedInputsRerunACachedTest(t *testing.T) {
	root := RepoRoot()
	rel, err := os.MkdirTemp(filepath.Join(root, "internal", "testenv", "testdata", "cachecheck"), "tmp-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rel) })
	rel, _ = filepath.Rel(root, rel)
	// go test refuses to cache a result whose inputs changed in the last
	// 2 s: every write is dated an hour back, each a minute later.
	at := time.Now().Add(-time.Hour)
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, rel, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Minute)
		for _, q := range []string{p, filepath.Dir(p)} {
			if err := os.Chtimes(q, at, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("files/a.txt", "one")
	write("files/deeper/b.txt", "two")
	write("pkg/p.go", "package pkg\n\nconst A = 1\n")

	cached := func() bool {
		t.Helper()
		cmd := exec.Command("go", "test", "./internal/testenv/testdata/cachecheck")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "TESSERA_CACHECHECK="+rel, "GOFLAGS=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go test: %v\n%s", err, out)
		}
		return strings.Contains(string(out), "(cached)")
	}
	cached() // whatever an earlier run left in the cache
	if !cached() {
		t.Fatal("unchanged inputs: the second run was not served from the cache")
	}
	for _, c := range []struct{ what, name, text string }{
		{"a changed file", "files/a.txt", "three"},
		{"a changed file in a directory below", "files/deeper/b.txt", "four"},
		{"a new file", "files/c.txt", "five"},
		{"a changed source", "pkg/p.go", "package pkg\n\nconst A = 2\n"},
		{"a new source", "pkg/q.go", "package pkg\n\nconst B = 1\n"},
	} {
		write(c.name, c.text)
		if cached() {
			t.Errorf("%s (%s): the result was served from the cache", c.what, c.name)
		}
		if !cached() {
			t.Errorf("after %s: the run after was not served from the cache", c.what)
		}
	}
}
