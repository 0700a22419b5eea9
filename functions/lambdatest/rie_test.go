//go:build linux

package lambdatest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	// The bootstraps are built from these packages by make, outside this
	// test binary. Importing them makes the test binary (and so go test's
	// cache key) change whenever they do, so a cached pass never hides a
	// change to the functions.
	_ "tessera/functions/lambdaapp"

	"tessera/internal/testenv"
)

// rieBinary builds the Runtime Interface Emulator from the go tool pinned in
// go.mod. Failing to build it is a missing tool: a skip, or a failure under
// CI=true.
func rieBinary(t testing.TB) string {
	t.Helper()
	p, err := artifacts.get("aws-lambda-rie", func(dir string) (string, error) {
		bin := filepath.Join(dir, "aws-lambda-rie")
		cmd := exec.Command("go", "build", "-o", bin, "github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie")
		cmd.Dir = testenv.RepoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build aws-lambda-rie: %v\n%s", err, out)
		}
		return bin, nil
	})
	if err != nil {
		testenv.Missing(t, "aws-lambda-rie", err)
	}
	return p
}

// logBuffer collects a process's output for the test to search.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// emulated is one function running under its own emulator.
type emulated struct {
	name string
	url  string // the invocation endpoint
	cmd  *exec.Cmd
	out  *logBuffer
	// bootstrap and env start it again (restart).
	bootstrap string
	env       []string
	restarts  int
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startEmulated runs bootstrap under the emulator with only env (plus PATH)
// in its environment, as Lambda gives a function only its configuration.
func startEmulated(t testing.TB, name, bootstrap string, env ...string) *emulated {
	t.Helper()
	e := &emulated{name: name, bootstrap: bootstrap, env: env}
	e.start(t)
	t.Cleanup(e.stop)
	return e
}

// start runs the emulator on two free ports.
func (e *emulated) start(t testing.TB) {
	t.Helper()
	rie := rieBinary(t)
	name, bootstrap, env := e.name, e.bootstrap, e.env
	invokePort, runtimePort := freePort(t), freePort(t)
	cmd := exec.Command(rie,
		"--runtime-interface-emulator-address", "127.0.0.1:"+strconv.Itoa(invokePort),
		"--runtime-api-address", "127.0.0.1:"+strconv.Itoa(runtimePort),
		bootstrap)
	cmd.Dir = filepath.Dir(bootstrap)
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"AWS_LAMBDA_FUNCTION_NAME=" + name,
		"AWS_LAMBDA_FUNCTION_TIMEOUT=30",
	}, env...)
	// Its own process group, so the emulator and the bootstrap it starts
	// stop together; and killed with the test binary if that dies.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	e.url, e.cmd, e.out = fmt.Sprintf("http://127.0.0.1:%d/2015-03-31/functions/function/invocations", invokePort), cmd, &logBuffer{}
	cmd.Stdout, cmd.Stderr = e.out, e.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start emulator: %v", err)
	}
}

// lostRuntimeAPI reports an answer whose bootstrap never reached the
// emulator's runtime API: the free port freePort chose was taken, or not
// yet served, before the emulator listened on it (seen under CI's load:
// "dial tcp 127.0.0.1:43705: connect: connection refused", a 502).
func (e *emulated) lostRuntimeAPI(status int) bool {
	return status == http.StatusBadGateway && strings.Contains(e.out.String(), "/2018-06-01/runtime/invocation/next") &&
		strings.Contains(e.out.String(), "connect: connection refused")
}

// portTaken reports that the emulator could not listen on a port
// freePort chose: another process took it in between (seen under CI's
// load: the emulator panicked "bind: address already in use" and a
// dynalite on that port answered the invoke with its own 400).
func (e *emulated) portTaken() bool {
	return strings.Contains(e.out.String(), "bind: address already in use")
}

// restart starts the emulator again on new ports, at most three times.
func (e *emulated) restart(t testing.TB, why string) bool {
	if e.restarts >= 3 {
		return false
	}
	t.Logf("%s: %s; the emulator starts again:\n%s", e.name, why, e.out)
	e.restarts++
	e.stop()
	e.start(t)
	return true
}

func (e *emulated) stop() {
	if e.cmd.Process == nil || e.cmd.ProcessState != nil {
		return
	}
	_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
	_ = e.cmd.Wait()
}

var initReport = regexp.MustCompile(`INIT REPORT\(durationMs: ([0-9.]+)\)`)

// initMillis is the bootstrap's init time as the emulator reported it.
func (e *emulated) initMillis() (float64, bool) {
	m := initReport.FindStringSubmatch(e.out.String())
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// invokeRaw posts payload to the emulator, retrying while it is not yet
// listening, and returns the function's answer.
func (e *emulated) invokeRaw(t testing.TB, payload []byte) []byte {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Post(e.url, "application/json", bytes.NewReader(payload))
		if err == nil {
			body, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr != nil {
				t.Fatalf("%s: read answer: %v", e.name, rerr)
			}
			// The emulator's own ports, not the function: start it again
			// on new ones.
			if (e.lostRuntimeAPI(resp.StatusCode) && e.restart(t, "the bootstrap did not reach the runtime API")) ||
				(e.portTaken() && e.restart(t, "a port it was given was taken")) {
				deadline = time.Now().Add(30 * time.Second)
				continue
			}
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: emulator answered %d: %s\nlog:\n%s", e.name, resp.StatusCode, body, e.out)
			}
			return body
		}
		if e.portTaken() && e.restart(t, "a port it was given was taken") {
			deadline = time.Now().Add(30 * time.Second)
			continue
		}
		var opErr *net.OpError
		if !errors.As(err, &opErr) || time.Now().After(deadline) {
			t.Fatalf("%s: invoke: %v\nlog:\n%s", e.name, err, e.out)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// invoke sends an API Gateway HTTP API event and decodes the proxy answer.
func (e *emulated) invoke(t testing.TB, ev events.APIGatewayV2HTTPRequest) events.APIGatewayV2HTTPResponse {
	t.Helper()
	payload, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	raw := e.invokeRaw(t, payload)
	var failure struct {
		ErrorMessage string `json:"errorMessage"`
	}
	if json.Unmarshal(raw, &failure) == nil && failure.ErrorMessage != "" {
		t.Fatalf("%s: function error: %s\nlog:\n%s", e.name, raw, e.out)
	}
	var resp events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatalf("%s: answer is not an API Gateway v2 response: %v\n%s", e.name, err, raw)
	}
	return resp
}

var requestSeq int

// apiEvent builds the event API Gateway sends for one request on a route.
// Header names are lower case, as API Gateway delivers them.
func apiEvent(routeKey, method, path string, headers map[string]string, body string) events.APIGatewayV2HTTPRequest {
	requestSeq++
	params := map[string]string{}
	if parts := strings.Split(path, "/"); len(parts) >= 4 && parts[1] == "api" && parts[2] == "games" {
		params["id"] = parts[3]
	}
	lower := map[string]string{"user-agent": "lambdatest"}
	if body != "" {
		lower["content-type"] = "application/json"
	}
	for k, v := range headers {
		lower[strings.ToLower(k)] = v
	}
	return events.APIGatewayV2HTTPRequest{
		Version:        "2.0",
		RouteKey:       routeKey,
		RawPath:        path,
		Headers:        lower,
		PathParameters: params,
		Body:           body,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RouteKey:   routeKey,
			Stage:      "$default",
			DomainName: "abc123.execute-api.eu-west-1.amazonaws.com",
			RequestID:  fmt.Sprintf("req-%d", requestSeq),
			TimeEpoch:  time.Now().UnixMilli(),
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{
				Method:    method,
				Path:      path,
				Protocol:  "HTTP/1.1",
				SourceIP:  "203.0.113.7",
				UserAgent: "lambdatest",
			},
		},
	}
}

// header looks a response header up whatever its case.
func header(resp events.APIGatewayV2HTTPResponse, name string) string {
	for k, v := range resp.Headers {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}
