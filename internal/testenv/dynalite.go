package testenv

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// EndpointEnv names the variable that points tests at an already running
// DynamoDB-compatible server instead of starting dynalite.
const EndpointEnv = "DYNAMODB_ENDPOINT"

//go:embed dynalite.js
var dynaliteJS []byte

// dynaliteStartTimeout bounds how long a starting dynalite may take to
// listen.
const dynaliteStartTimeout = 20 * time.Second

// shared is the one dynalite of a test binary that declared testenv.Main.
var shared struct {
	enabled  atomic.Bool
	once     sync.Once
	server   *dynaliteServer
	toolName string
	err      error
}

// Main runs the tests of a package sharing one dynalite among them and stops
// it afterwards. Use it as TestMain(m) { testenv.Main(m) }.
func Main(m *testing.M) {
	shared.enabled.Store(true)
	code := m.Run()
	if shared.server != nil {
		shared.server.stop()
	}
	os.Exit(code)
}

// Dynalite returns the endpoint URL of a DynamoDB-compatible server: the one
// in DYNAMODB_ENDPOINT if set, else a dynalite started from
// <root>/node_modules/dynalite (shared per binary under Main, else one per
// call, stopped in t.Cleanup). Without node or dynalite the test is skipped,
// or fails under CI=true.
func Dynalite(t testing.TB) string {
	t.Helper()
	if endpoint := os.Getenv(EndpointEnv); endpoint != "" {
		return endpoint
	}
	if shared.enabled.Load() {
		shared.once.Do(func() {
			shared.server, shared.toolName, shared.err = startDynalite()
		})
		if shared.err != nil {
			failDynalite(t, shared.toolName, shared.err)
		}
		return shared.server.endpoint
	}
	server, toolName, err := startDynalite()
	if err != nil {
		failDynalite(t, toolName, err)
	}
	t.Cleanup(server.stop)
	return server.endpoint
}

// failDynalite ends the test: a missing tool is Missing (skip or CI
// failure); a tool that is there but does not start is always a failure.
func failDynalite(t testing.TB, toolName string, err error) {
	t.Helper()
	if toolName != "" {
		Missing(t, toolName, err)
	}
	t.Fatalf("testenv: dynalite did not start: %v", err)
}

var tableSeq atomic.Int64

var tableNameUnsafe = regexp.MustCompile(`[^a-zA-Z0-9_.-]+`)

// TableName returns a DynamoDB table name unique to this test, this binary
// and this call, so tests sharing one server never see each other's items.
func TableName(t testing.TB) string {
	name := tableNameUnsafe.ReplaceAllString(t.Name(), "_")
	name = fmt.Sprintf("t%d_%d_%s", os.Getpid(), tableSeq.Add(1), name)
	const maxLen = 255 // DynamoDB's limit
	if len(name) > maxLen {
		name = name[:maxLen]
	}
	return name
}

// dynaliteServer is one running dynalite process.
type dynaliteServer struct {
	cmd      *exec.Cmd
	wait     func() error // startPinned's
	endpoint string
	stderr   *bytes.Buffer // read only once wait has returned
	stopping atomic.Bool
	stopOnce sync.Once
}

func (s *dynaliteServer) stop() {
	s.stopOnce.Do(func() {
		s.stopping.Store(true)
		_ = s.cmd.Process.Kill()
		_ = s.wait()
	})
}

// reportDeath writes to the test binary's stderr why the server ended if it
// ends before stop: every later test then fails with "connection refused",
// and only this line says what happened (its exit status or signal, its
// last words, its memory).
func (s *dynaliteServer) reportDeath() {
	err := s.wait()
	if s.stopping.Load() {
		return
	}
	tail := s.stderr.String()
	if len(tail) > 4000 {
		tail = tail[len(tail)-4000:]
	}
	state := "unknown"
	if ps := s.cmd.ProcessState; ps != nil {
		state = ps.String() + usage(ps)
	}
	fmt.Fprintf(os.Stderr, "\ntestenv: dynalite at %s exited during the tests (%v; %s); its stderr: %q\n",
		s.endpoint, err, state, strings.TrimSpace(tail))
}

// startDynalite starts dynalite on a free port of the loopback interface.
// toolName is set when the failure is a missing tool rather than a broken one.
func startDynalite() (server *dynaliteServer, toolName string, err error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, "node", err
	}
	if _, err := os.Stat(filepath.Join(RepoRoot(), "node_modules", "dynalite", "cli.js")); err != nil {
		return nil, "dynalite", err
	}
	// dynalite.js (embedded, so a change to it reruns cached tests) runs
	// dynalite's cli.js, surviving a client that hangs up mid-request.
	cli := filepath.Join(RepoRoot(), "internal", "testenv", "dynalite.js")
	if _, err := os.Stat(cli); err != nil || len(dynaliteJS) == 0 {
		return nil, "", fmt.Errorf("testenv: %s is missing: %v", cli, err)
	}
	// The free port is found by binding and releasing it, so another process
	// may take it in between; a few attempts make that harmless.
	for attempt := 1; ; attempt++ {
		server, err = startDynaliteOnce(node, cli)
		if err == nil || attempt == 3 {
			return server, "", err
		}
	}
}

func startDynaliteOnce(node, cli string) (*dynaliteServer, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, cli,
		"--host", "127.0.0.1", "--port", strconv.Itoa(port),
		// Tables are ACTIVE at once instead of after 500 ms.
		"--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0")
	killWithParent(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	wait, err := startPinned(cmd)
	if err != nil {
		return nil, err
	}
	server := &dynaliteServer{cmd: cmd, wait: wait, endpoint: "http://127.0.0.1:" + strconv.Itoa(port), stderr: &stderr}

	// dynalite prints "Dynalite listening at: ..." once it accepts requests.
	ready := make(chan error, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			if strings.Contains(scanner.Text(), "listening") {
				ready <- nil
				_, _ = io.Copy(io.Discard, stdout) // keep the pipe drained
				return
			}
		}
		ready <- errors.New("dynalite exited before listening")
	}()
	select {
	case err = <-ready:
	case <-time.After(dynaliteStartTimeout):
		err = fmt.Errorf("dynalite not listening after %s", dynaliteStartTimeout)
	}
	if err != nil {
		server.stop()
		return nil, fmt.Errorf("%w (port %d, stderr: %q)", err, port, strings.TrimSpace(stderr.String()))
	}
	go server.reportDeath()
	return server, nil
}

// freePort asks the kernel for an unused loopback TCP port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
