package testenv

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// WorkerBuild builds the Cloudflare Worker's module once per test binary
// and build tags (make worker-build WORKER_TAGS=tags into a directory of
// its own) and returns that directory, holding tessera.wasm and
// wasm_exec.js. tags is empty for the module as deployed.
func WorkerBuild(t testing.TB, tags string) string {
	t.Helper()
	workerMu.Lock()
	defer workerMu.Unlock()
	if b, ok := workerBuilds[tags]; ok {
		if b.err != nil {
			t.Fatal(b.err)
		}
		return b.dir
	}
	// make and go build read the sources in other processes: tell go
	// test's cache about them (inputs.go).
	TrackBuild(t, []string{"GOOS=js", "GOARCH=wasm"}, "-tags", tags, "./functions/worker")
	TrackFiles(t, "Makefile", "infra/workers", "package-lock.json")
	var b workerBuild
	b.dir, b.err = os.MkdirTemp("", "tessera-worker-")
	if b.err == nil {
		out, err := exec.Command("make", "-s", "-C", RepoRoot(), "worker-build", "WORKER_BUILD="+b.dir, "WORKER_TAGS="+tags).CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("make worker-build: %v\n%s", err, out)
		}
	}
	workerBuilds[tags] = b
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.dir
}

type workerBuild struct {
	dir string
	err error
}

var (
	workerMu     sync.Mutex
	workerBuilds = map[string]workerBuild{}
)

// Miniflare returns node and checks that the miniflare package is
// installed; without them the test is skipped, or fails under CI=true.
func Miniflare(t testing.TB) string {
	t.Helper()
	node := RequireTool(t, "node", "node")
	if _, err := os.Stat(filepath.Join(RepoRoot(), "node_modules", "miniflare", "package.json")); err != nil {
		Missing(t, "miniflare", err)
	}
	return node
}

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// Worker starts the Worker under miniflare (infra/workers/serve.mjs) on a
// free loopback port with a fresh D1, with env added to this process's
// environment (RATE_LIMIT=0 unless env sets it), and returns its base
// URL. It is stopped (SIGTERM) in t.Cleanup; its output goes to the test
// log if the test fails.
func Worker(t testing.TB, env ...string) string {
	t.Helper()
	Miniflare(t)
	return WorkerFrom(t, WorkerBuild(t, ""), env...)
}

// WorkerFrom is Worker with the module in build (WorkerBuild's directory).
func WorkerFrom(t testing.TB, build string, env ...string) string {
	t.Helper()
	node := Miniflare(t)
	cmd := exec.Command(node, filepath.Join(RepoRoot(), "infra", "workers", "serve.mjs"), "--port", "0", "--build", build)
	cmd.Env = append(append(os.Environ(), "RATE_LIMIT=0"), env...)
	killWithParent(cmd)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return logs.Write(p) })
	wait, err := startPinned(cmd)
	if err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if m := listening.FindStringSubmatch(line); m != nil && !sent {
				urls <- m[1]
				sent = true
			}
			mu.Lock()
			logs.WriteString(line + "\n")
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			mu.Lock()
			t.Logf("worker output:\n%s", logs.String())
			mu.Unlock()
		}
	})
	select {
	case u := <-urls:
		return u
	case <-time.After(60 * time.Second):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("testenv: the Worker did not start within 60 s:\n%s", logs.String())
	}
	return ""
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
