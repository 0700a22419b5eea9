package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// installHints says how to get the tools tests use, by the name passed to
// RequireTool.
var installHints = map[string]string{
	"node":           "apt-get install nodejs",
	"dynalite":       "npm ci --ignore-scripts (in the repository root)",
	"chromium":       "apt-get update && apt-get install chromium",
	"miniflare":      "npm ci --ignore-scripts (in the repository root)",
	"esbuild":        "npm ci --ignore-scripts (in the repository root)",
	"aws-lambda-rie": "go build -o <dir>/aws-lambda-rie github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie",
}

// InCI reports whether the tests run under CI=true, where a missing tool is
// a failure rather than a skip.
func InCI() bool {
	return os.Getenv("CI") == "true"
}

// RequireTool makes sure the tool called name is at path and returns its
// absolute location. A path without a slash is looked up in PATH. If the
// tool is missing the test is skipped with an install hint, or fails under
// CI=true.
func RequireTool(t testing.TB, name, path string) string {
	t.Helper()
	found, err := locate(path)
	if err != nil {
		Missing(t, name, err)
	}
	return found
}

// Missing ends the test because the tool called name is unusable: Skip with
// an install hint, or Fatal under CI=true.
func Missing(t testing.TB, name string, cause error) {
	t.Helper()
	msg := fmt.Sprintf("testenv: %s is not available: %v", name, cause)
	if hint, ok := installHints[name]; ok {
		msg += "; install it with: " + hint
	}
	if InCI() {
		t.Fatal(msg + " (CI=true: a missing tool fails the run)")
	}
	t.Skip(msg)
}

// locate resolves path to an existing executable file.
func locate(path string) (string, error) {
	if !strings.ContainsRune(path, os.PathSeparator) {
		return exec.LookPath(path)
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if info.IsDir() {
		return "", fmt.Errorf("%s is a directory", path)
	}
	if info.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("%s is not executable", path)
	}
	return filepath.Abs(path)
}
