//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tessera/internal/testenv"
)

// buildLocal compiles this command once per test binary; buildTestBuild
// the test build (-tags testclock: its clock and its AfterEnd kill).
var (
	buildLocal     = sync.OnceValues(func() (string, error) { return build() })
	buildTestBuild = sync.OnceValues(func() (string, error) { return build("-tags", "testclock") })
)

// trackBuilds tells go test's cache what go build reads in its own
// process (testenv's inputs.go): the test build's sources (once per
// binary, whichever test asks first).
func trackBuilds(t testing.TB) {
	t.Helper()
	testenv.TrackBuild(t, nil, "-tags", "testclock", "./functions/local")
}

func build(flags ...string) (string, error) {
	dir, err := os.MkdirTemp("", "tessera-local-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "local")
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "-o", bin, "./functions/local")...)
	cmd.Dir = testenv.RepoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./functions/local: %v\n%s", err, out)
	}
	return bin, nil
}

// process is the server running as a real program.
type process struct {
	cmd   *exec.Cmd
	addr  string
	mu    sync.Mutex
	lines []string
	added chan struct{} // signalled on every new log line
	exit  chan error
}

var listeningAddr = regexp.MustCompile(`msg=listening addr=(\S+)`)

func startProcess(t *testing.T, args ...string) *process {
	t.Helper()
	trackBuilds(t)
	bin, err := buildLocal()
	if err != nil {
		t.Fatal(err)
	}
	return startBinary(t, bin, nil, args...)
}

// startBinary runs bin with env added to PATH alone.
func startBinary(t *testing.T, bin string, env []string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, added: make(chan struct{}, 1), exit: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
			select {
			case p.added <- struct{}{}:
			default:
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		p.exit <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	m := p.waitFor(t, listeningAddr, 30*time.Second)
	p.addr = m[1]
	return p
}

func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// waitFor returns the first log line's match of re, waiting up to d.
func (p *process) waitFor(t *testing.T, re *regexp.Regexp, d time.Duration) []string {
	t.Helper()
	deadline := time.After(d)
	for {
		p.mu.Lock()
		for _, l := range p.lines {
			if m := re.FindStringSubmatch(l); m != nil {
				p.mu.Unlock()
				return m
			}
		}
		p.mu.Unlock()
		select {
		case <-p.added:
		case <-deadline:
			t.Fatalf("no log line matching %s after %s; log:\n%s", re, d, p.log())
		}
	}
}

// wait returns the exit error of the process, waiting up to d.
func (p *process) wait(t *testing.T, d time.Duration) error {
	t.Helper()
	select {
	case err := <-p.exit:
		return err
	case <-time.After(d):
		t.Fatalf("process still running after %s; log:\n%s", d, p.log())
		return nil
	}
}

// A request that is in flight when SIGTERM arrives is finished and its
// change is on disk; the next server on the same data directory sees it.
func TestSIGTERMFinishesTheRequestInFlightAndKeepsTheData(t *testing.T) {
	dir := t.TempDir()
	p := startProcess(t, "-data", dir)
	base := "http://" + p.addr

	var created seatAnswer
	if resp := call(t, "POST", base+"/api/games", "", createTwoPlayerGame, &created); resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /api/games = %d, want 201", resp.StatusCode)
	}

	// Start taking seat 1, but send only half of the body: the request is
	// now in flight, the handler waiting for the rest.
	body := `{"name": "Bea"}`
	conn, err := net.Dial("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/games/%s/seats HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		created.Game.ID, p.addr, len(body), body[:7])
	time.Sleep(200 * time.Millisecond) // let the server read the headers and start the handler

	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, regexp.MustCompile(`msg="shutting down"`), 10*time.Second)

	// No new connections once shutting down...
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", p.addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("still accepting connections 5s after SIGTERM")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// ...but the process waits for the one in flight.
	select {
	case err := <-p.exit:
		t.Fatalf("process exited (%v) with a request in flight; log:\n%s", err, p.log())
	case <-time.After(300 * time.Millisecond):
	}

	if _, err := io.WriteString(conn, body[7:]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer to the request in flight: %v; log:\n%s", err, p.log())
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("in-flight POST seats = %d, want 201", resp.StatusCode)
	}
	if err := p.wait(t, ShutdownTimeout+5*time.Second); err != nil {
		t.Fatalf("exit: %v, want status 0; log:\n%s", err, p.log())
	}
	if !strings.Contains(p.log(), "msg=stopped") {
		t.Errorf("log lacks msg=stopped (store closed):\n%s", p.log())
	}

	// A new server on the same directory has the seat that was taken.
	q := startProcess(t, "-data", dir)
	var view struct {
		Version int `json:"version"`
		Seats   []struct {
			Name  *string `json:"name"`
			Taken bool    `json:"taken"`
		} `json:"seats"`
	}
	if resp := call(t, "GET", "http://"+q.addr+"/api/games/"+created.Game.ID, "", "", &view); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET game after restart = %d, want 200", resp.StatusCode)
	}
	if view.Version != 2 || len(view.Seats) != 2 || !view.Seats[1].Taken || view.Seats[1].Name == nil || *view.Seats[1].Name != "Bea" {
		t.Errorf("after restart: version %d seats %+v; want version 2 with Bea in seat 1", view.Version, view.Seats)
	}
	if err := q.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := q.wait(t, ShutdownTimeout+5*time.Second); err != nil {
		t.Errorf("SIGINT exit: %v, want status 0", err)
	}
}
