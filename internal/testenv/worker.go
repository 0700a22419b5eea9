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
// (make worker-build into a directory of its own) and returns that
// directory, holding tessera.wasm and wasm_exec.js.
func WorkerBuild(t testing.TB) string {
	t.Helper()
	workerOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tessera-worker-")
		if err != nil {
			workerErr = err
			return
		}
		out, err := exec.Command("make", "-s", "-C", RepoRoot(), "worker-build", "WORKER_BUILD="+dir).CombinedOutput()
		if err != nil {
			workerErr = fmt.Errorf("make worker-build: %v\n%s", err, out)
		}
		workerDir = dir
	})
	if workerErr != nil {
		t.Fatal(workerErr)
	}
	return workerDir
}

var (
	workerOnce sync.Once
	workerDir  string
	workerErr  error
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
	node := Miniflare(t)
	build := WorkerBuild(t)
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
	if err := cmd.Start(); err != nil {
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
		go func() { _ = cmd.Wait(); close(done) }()
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
