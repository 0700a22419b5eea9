package testenv

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// recorder stands in for a testing.TB to observe Skip and Fatal, which end
// the calling goroutine just as the real ones do.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Skip(args ...any) {
	r.skipped, r.msg = true, fmt.Sprint(args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) {
	r.failed, r.msg = true, fmt.Sprint(args...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) { r.Fatal(fmt.Sprintf(format, args...)) }

// observe runs fn against a recorder on its own goroutine.
func observe(t *testing.T, fn func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(r)
	}()
	<-done
	return r
}

func TestRepoRootHoldsTheModule(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(RepoRoot(), "go.mod"))
	if err != nil {
		t.Fatalf("reading go.mod under RepoRoot() = %v", err)
	}
	if !strings.HasPrefix(string(data), "module tessera\n") {
		t.Errorf("go.mod under RepoRoot() starts %q, want module tessera", strings.SplitN(string(data), "\n", 2)[0])
	}
}

func TestRequireTool(t *testing.T) {
	dir := t.TempDir()
	notExecutable := filepath.Join(dir, "plain")
	if err := os.WriteFile(notExecutable, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		path      string
		ci        string
		wantFound bool
		wantSkip  bool
	}{
		{"a command in PATH is found", "sh", "", true, false},
		{"an absolute executable is found", "/bin/sh", "true", true, false},
		{"a missing command skips outside CI", "tessera-no-such-tool", "", false, true},
		{"a missing command fails under CI=true", "tessera-no-such-tool", "true", false, false},
		{"a missing file skips outside CI", filepath.Join(dir, "absent"), "false", false, true},
		{"a file without the exec bit fails under CI=true", notExecutable, "true", false, false},
		{"a directory fails under CI=true", dir, "true", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("CI", c.ci)
			var got string
			r := observe(t, func(tb testing.TB) { got = RequireTool(tb, "chromium", c.path) })
			switch {
			case c.wantFound:
				if r.skipped || r.failed || !filepath.IsAbs(got) {
					t.Errorf("RequireTool(%q) = %q (skipped %v, failed %v: %s), want an absolute path", c.path, got, r.skipped, r.failed, r.msg)
				}
			case c.wantSkip:
				if !r.skipped || r.failed {
					t.Errorf("RequireTool(%q): skipped %v, failed %v, want a skip", c.path, r.skipped, r.failed)
				}
			default:
				if !r.failed || r.skipped {
					t.Errorf("RequireTool(%q) under CI: skipped %v, failed %v, want a failure", c.path, r.skipped, r.failed)
				}
			}
			if !c.wantFound && !strings.Contains(r.msg, "apt-get install chromium") {
				t.Errorf("message %q lacks the install hint", r.msg)
			}
		})
	}
}

func TestTableNameIsUniqueAndValid(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_.-]{3,255}$`)
	seen := map[string]bool{}
	for range 3 {
		t.Run("a name with spaces, slashes & symbols: "+strings.Repeat("long ", 60), func(t *testing.T) {
			name := TableName(t)
			if !valid.MatchString(name) {
				t.Errorf("TableName = %q, not a valid DynamoDB table name", name)
			}
			if seen[name] {
				t.Errorf("TableName = %q twice", name)
			}
			seen[name] = true
		})
	}
}

func TestDynaliteHonoursTheEndpointVariable(t *testing.T) {
	t.Setenv(EndpointEnv, "http://127.0.0.1:1")
	if got := Dynalite(t); got != "http://127.0.0.1:1" {
		t.Errorf("Dynalite = %q, want the endpoint from %s", got, EndpointEnv)
	}
}

// A client that hangs up halfway through its request (an SDK attempt timing
// out on a loaded machine) must not end the server: dynalite 4.0.0 alone
// throws the request's "aborted" error and exits (dynalite.js).
func TestDynaliteOutlivesAClientThatHangsUp(t *testing.T) {
	t.Setenv(EndpointEnv, "")
	endpoint := Dynalite(t)
	addr := strings.TrimPrefix(endpoint, "http://")
	for i := 0; i < 3; i++ {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("dial %s (hang-up %d): %v", addr, i, err)
		}
		fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"+
			"X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 100\r\n\r\n{\"Limit\":", addr)
		time.Sleep(50 * time.Millisecond) // the server has the headers
		conn.Close()
	}
	// The server reads the hang-ups; then it must still answer.
	var resp *http.Response
	var err error
	for try := 0; try < 5; try++ {
		time.Sleep(50 * time.Millisecond)
		req, _ := http.NewRequest("POST", endpoint, strings.NewReader("{}"))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		if resp, err = http.DefaultClient.Do(req); err != nil {
			break
		}
		resp.Body.Close()
	}
	if err != nil {
		t.Fatalf("after three clients hung up mid-request, POST %s = %v (the server died)", endpoint, err)
	}
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("after the hang-ups: status %d, want DynamoDB's 400 for an unsigned request", resp.StatusCode)
	}
}

// Without testenv.Main each call starts its own server and stops it when the
// test ends.
func TestDynaliteAnswersAndStopsWithTheTest(t *testing.T) {
	t.Setenv(EndpointEnv, "")
	var endpoint string
	t.Run("running", func(t *testing.T) {
		endpoint = Dynalite(t)
		req, err := http.NewRequest("POST", endpoint, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("POST %s = %v", endpoint, err)
		}
		resp.Body.Close()
		// Unsigned, so DynamoDB's own answer is an authentication error.
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("x-amzn-RequestId") == "" {
			t.Errorf("unsigned ListTables: status %d, x-amzn-RequestId %q; want DynamoDB's 400 with a request id", resp.StatusCode, resp.Header.Get("x-amzn-RequestId"))
		}
	})
	if t.Failed() || endpoint == "" {
		return
	}
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(endpoint, "http://"), time.Second)
	if err == nil {
		conn.Close()
		t.Errorf("%s still accepts connections after its test ended", endpoint)
	}
}
