package lambdatest

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"tessera/internal/testenv"
)

// TestMain removes the binaries the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	artifacts.cleanup()
	os.Exit(code)
}

// artifactCache keeps what the tests build, once per test binary:
// bootstraps per (make target, GOARCH, variables) and the emulator.
type artifactCache struct {
	mu    sync.Mutex
	dir   string
	built map[string]string
	errs  map[string]error
}

var artifacts = &artifactCache{built: map[string]string{}, errs: map[string]error{}}

func (a *artifactCache) cleanup() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.dir != "" {
		os.RemoveAll(a.dir)
	}
}

// get runs build once per key, in a directory of its own, and remembers the
// path it returned or its error.
func (a *artifactCache) get(key string, build func(dir string) (string, error)) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if p, ok := a.built[key]; ok {
		return p, nil
	}
	if err, ok := a.errs[key]; ok {
		return "", err
	}
	if a.dir == "" {
		dir, err := os.MkdirTemp("", "tessera-lambdatest-")
		if err != nil {
			return "", err
		}
		a.dir = dir
	}
	dir, err := os.MkdirTemp(a.dir, "build-")
	if err != nil {
		return "", err
	}
	p, err := build(dir)
	if err != nil {
		a.errs[key] = err
		return "", err
	}
	a.built[key] = p
	return p, nil
}

// makeBootstrap runs the real Makefile target (as SAM does) into a fresh
// ARTIFACTS_DIR and returns the bootstrap it wrote. goarch is passed as
// BUILD_GOARCH unless empty (then the Makefile's default, what SAM builds);
// vars are extra make variables (PKG=...).
func makeBootstrap(t testing.TB, target, goarch string, vars ...string) string {
	t.Helper()
	// make reads the Makefile and go build the sources in other processes,
	// which go test's cache cannot see: tell it about them (testenv's
	// inputs.go), or a warm run would serve an old result.
	trackSources(t, vars)
	key := fmt.Sprintf("%s %s %s", target, goarch, strings.Join(vars, " "))
	p, err := artifacts.get(key, func(dir string) (string, error) {
		args := []string{"-C", testenv.RepoRoot(), target, "ARTIFACTS_DIR=" + dir}
		if goarch != "" {
			args = append(args, "BUILD_GOARCH="+goarch)
		}
		args = append(args, vars...)
		cmd := exec.Command("make", args...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("make %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return filepath.Join(dir, "bootstrap"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// trackSources tells go test's cache what the Makefile's Lambda builds
// read: the Makefile, every function's sources and the package of a PKG=
// variable (each build tracked once per test binary: TrackBuild).
func trackSources(t testing.TB, vars []string) {
	t.Helper()
	testenv.TrackFiles(t, "Makefile")
	testenv.TrackBuild(t, []string{"GOOS=linux"}, "-tags", "lambda.norpc", "./functions/...")
	for _, v := range vars {
		if pkg, ok := strings.CutPrefix(v, "PKG="); ok {
			testenv.TrackBuild(t, []string{"GOOS=linux"}, pkg)
		}
	}
}

// nativeBootstrap builds a function's bootstrap for this machine, to run
// under the emulator.
func nativeBootstrap(t testing.TB, logicalID string) string {
	t.Helper()
	return makeBootstrap(t, "build-"+logicalID, runtime.GOARCH)
}

// helloBootstrap builds the hello-world baseline the same way.
func helloBootstrap(t testing.TB, goarch string) string {
	t.Helper()
	return makeBootstrap(t, "lambda-bootstrap", goarch, "PKG=./functions/lambdatest/testdata/hello")
}

// elfMachines maps GOARCH to the ELF machine a Linux binary for it has.
var elfMachines = map[string]elf.Machine{
	"amd64": elf.EM_X86_64,
	"arm64": elf.EM_AARCH64,
}

// checkLinuxExecutable fails unless path is a static-enough Linux ELF
// executable for goarch, the form Lambda's provided.al2023 runtime execs.
func checkLinuxExecutable(t testing.TB, path, goarch string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("bootstrap not written: %v", err)
	}
	if info.Mode().Perm()&0o111 == 0 {
		t.Errorf("%s mode = %v, want executable", path, info.Mode())
	}
	f, err := elf.Open(path)
	if err != nil {
		t.Fatalf("%s is not an ELF binary: %v", path, err)
	}
	defer f.Close()
	if want := elfMachines[goarch]; f.Machine != want {
		t.Errorf("%s machine = %v, want %v", path, f.Machine, want)
	}
	if f.Type != elf.ET_EXEC {
		t.Errorf("%s ELF type = %v, want ET_EXEC (a static CGO_ENABLED=0 binary)", path, f.Type)
	}
	if interp := f.Section(".interp"); interp != nil {
		t.Errorf("%s has a dynamic loader (.interp); want a static binary", path)
	}
}
