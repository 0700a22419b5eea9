package testenv

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// go test caches a passing result and serves it again while the test
// binary and the files and environment variables the test read are
// unchanged. It sees only what the test process itself opens: a test that
// builds with make or go build, or runs node, in another process reads
// sources the cache cannot see, and a warm `make test` would pass it on
// the old result after those sources changed (docs/testing.md, "The test
// cache"). TrackBuild and TrackFiles open those inputs from the test
// process, so the cache checks them: a test run again whenever one of them
// changes.

// TrackBuild makes the calling test's cached result depend on every
// source of the module that `go list -deps args...` (with env added, e.g.
// GOOS=js GOARCH=wasm, and args such as -tags) names: it opens the
// directory of each of the module's packages (go test hashes a
// directory's entries' names, sizes and modification times) and the
// directory of each embedded file, and go.mod and go.sum. The log of
// inputs is the test binary's, so a build tracked once is tracked for all
// its tests: a second call with the same env and args does nothing.
func TrackBuild(t testing.TB, env []string, args ...string) {
	t.Helper()
	key := strings.Join(env, " ") + "\x00" + strings.Join(args, "\x00")
	trackedMu.Lock()
	defer trackedMu.Unlock()
	if tracked[key] {
		return
	}
	cmd := exec.Command("go", append([]string{"list", "-deps", "-f",
		`{{if and .Module .Module.Main}}{{.Dir}}{{range .EmbedFiles}}{{"\t"}}{{.}}{{end}}{{"\n"}}{{end}}`}, args...)...)
	cmd.Dir = RepoRoot()
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("testenv: go list -deps %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	dirs := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if f[0] == "" {
			continue
		}
		dirs[f[0]] = true
		for _, e := range f[1:] {
			dirs[filepath.Dir(filepath.Join(f[0], e))] = true
		}
	}
	if len(dirs) == 0 {
		t.Fatalf("testenv: go list -deps %s named no package of the module", strings.Join(args, " "))
	}
	for d := range dirs {
		touch(t, d)
	}
	// The versions of the modules it builds with.
	touch(t, filepath.Join(RepoRoot(), "go.mod"))
	touch(t, filepath.Join(RepoRoot(), "go.sum"))
	tracked[key] = true
}

var (
	trackedMu sync.Mutex
	tracked   = map[string]bool{}
)

// TrackFiles makes the calling test's cached result depend on paths
// (relative to the repository root): a file itself, a directory with
// every directory under it (node_modules and build outputs aside).
func TrackFiles(t testing.TB, paths ...string) {
	t.Helper()
	for _, p := range paths {
		p = filepath.Join(RepoRoot(), p)
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if n := d.Name(); path != p && (n == "node_modules" || n == "build" || n == ".git") {
					return filepath.SkipDir
				}
			} else if path != p {
				return nil // a directory's opening covers its files
			}
			touch(t, path)
			return nil
		})
		if err != nil {
			t.Fatalf("testenv: track %s: %v", p, err)
		}
	}
}

// touch opens path, which go test's log of the test's inputs records.
func touch(t testing.TB, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	f.Close()
}
