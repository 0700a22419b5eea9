package testenv

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// WebPush returns the base URL (http://localhost:PORT) of a web-push-testing
// server (npm, a push service stand-in that decrypts RFC 8291 messages and
// checks their VAPID token) started for this test and stopped in
// t.Cleanup. Without node or the package the test is skipped, or fails
// under CI=true.
func WebPush(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		Missing(t, "node", err)
	}
	script := filepath.Join(RepoRoot(), "node_modules", "web-push-testing", "src", "bin", "server.js")
	if _, err := os.Stat(script); err != nil {
		Missing(t, "web-push-testing", err)
	}
	for attempt := 1; ; attempt++ {
		base, err := startWebPush(t, node, script)
		if err == nil {
			return base
		}
		if attempt == 3 {
			t.Fatalf("testenv: web-push-testing did not start: %v", err)
		}
	}
}

func startWebPush(t testing.TB, node, script string) (string, error) {
	port, err := freePort()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(node, script, strconv.Itoa(port))
	cmd.Dir = t.TempDir()
	killWithParent(cmd)
	wait, err := startPinned(cmd)
	if err != nil {
		return "", err
	}
	stop := func() { _ = cmd.Process.Kill(); _ = wait() }
	base := "http://localhost:" + strconv.Itoa(port)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Post(base+"/status", "application/json", nil)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Cleanup(stop)
				return base, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	return "", errors.New(fmt.Sprint("not answering /status on port ", port))
}
