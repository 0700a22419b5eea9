package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

var root = sync.OnceValue(findRoot)

// RepoRoot returns the directory holding the module's go.mod, found by
// walking up from the working directory (go test runs in the package's
// directory), or else from this source file. It panics if there is none:
// the tests are not running inside the repository.
func RepoRoot() string {
	return root()
}

func findRoot() string {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		if found, ok := walkUpToGoMod(dir); ok {
			return found
		}
	}
	panic("testenv: no go.mod above the working directory; run the tests inside the repository")
}

func walkUpToGoMod(dir string) (string, bool) {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
