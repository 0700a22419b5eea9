package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/functions/setup"
	"tessera/internal/testenv"
)

// syncBuffer is a log sink the server and the test may use at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// inProcess runs the server in this process until the test ends and returns
// its base URL, its log, and a stop function that returns run's exit status.
func inProcess(t *testing.T, args ...string) (base string, logs *syncBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs = &syncBuffer{}
	addrc := make(chan string, 1)
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), func(string) string { return "" }, logs,
			func(addr string) { addrc <- addr })
	}()
	select {
	case addr := <-addrc:
		base = "http://" + addr
	case code := <-done:
		cancel()
		t.Fatalf("server exited with %d before listening; log:\n%s", code, logs)
	case <-time.After(20 * time.Second):
		cancel()
		t.Fatalf("server not listening after 20s; log:\n%s", logs)
	}
	var once sync.Once
	code := -1
	stop = func() int {
		once.Do(func() {
			cancel()
			select {
			case code = <-done:
			case <-time.After(ShutdownTimeout + 5*time.Second):
				t.Errorf("server did not stop; log:\n%s", logs)
			}
		})
		return code
	}
	t.Cleanup(func() { stop() })
	return base, logs, stop
}

// call sends a JSON request and decodes a JSON answer into out (if not nil).
func call(t *testing.T, method, url, token, body string, out any) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: answer %d is not JSON: %v\n%s", method, url, resp.StatusCode, err, data)
		}
	}
	return resp
}

// seatAnswer is the part of a create or join answer the tests use.
type seatAnswer struct {
	Game struct {
		ID      string `json:"id"`
		Version int    `json:"version"`
		Status  string `json:"status"`
		Seats   []struct {
			Name  *string `json:"name"`
			Taken bool    `json:"taken"`
		} `json:"seats"`
	} `json:"game"`
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

const createTwoPlayerGame = `{"variant": "fiveup", "players": 2, "name": "Ana"}`

func TestServesTheAPIUnderAPIAndThePageEverywhereElse(t *testing.T) {
	dir := t.TempDir()
	base, logs, stop := inProcess(t, "-data", dir)

	var created seatAnswer
	if resp := call(t, "POST", base+"/api/games", "", createTwoPlayerGame, &created); resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /api/games = %d, want 201", resp.StatusCode)
	}
	if created.Game.ID == "" || created.Token == "" {
		t.Fatalf("create answer = %+v, want a game id and a token", created)
	}
	var apiErr struct {
		Error struct{ Code string } `json:"error"`
	}
	if resp := call(t, "GET", base+"/api/no-such-thing", "", "", &apiErr); resp.StatusCode != http.StatusNotFound || apiErr.Error.Code != "not_found" {
		t.Errorf("GET /api/no-such-thing = %d %q, want 404 not_found from the API", resp.StatusCode, apiErr.Error.Code)
	}
	for _, path := range []string{"/", "/g/" + created.Game.ID} {
		resp := call(t, "GET", base+path, "", "", nil)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s = %d %s, want 200 text/html (the page)", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	if code := stop(); code != 0 {
		t.Errorf("exit status = %d, want 0; log:\n%s", code, logs)
	}
	log := logs.String()
	for _, want := range []string{"msg=request method=GET path=/ status=200", "msg=\"shutting down\"", "msg=stopped"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	// One line per request: the API's own for /api/, ours for the page.
	var creates int
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "msg=request") && strings.Contains(line, "method=POST") {
			creates++
		}
	}
	if creates != 1 {
		t.Errorf("%d request lines for the one POST, want 1:\n%s", creates, log)
	}
	if strings.Contains(log, created.Token) {
		t.Errorf("the seat token appears in the log:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(dir, boltFile)); err != nil {
		t.Errorf("bbolt file: %v", err)
	}
}

// The first log line names the bbolt file by its absolute path, also when
// the data directory was given relative to where the server started.
func TestTheFirstLogLineNamesTheDataFileAbsolutely(t *testing.T) {
	t.Chdir(t.TempDir())
	_, logs, stop := inProcess(t, "-data", "rel")
	stop()
	first, _, _ := strings.Cut(logs.String(), "\n")
	want, _ := filepath.Abs(filepath.Join("rel", boltFile))
	if !strings.Contains(first, "path="+want) {
		t.Fatalf("first log line %q does not name %s", first, want)
	}
}

func TestCreatesAMissingDataDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "not", "yet", "there")
	_, _, stop := inProcess(t, "-data", dir)
	if code := stop(); code != 0 {
		t.Fatalf("exit status = %d, want 0", code)
	}
	if _, err := os.Stat(filepath.Join(dir, boltFile)); err != nil {
		t.Errorf("bbolt file in the new directory: %v", err)
	}
}

func TestASecondServerOnTheSameDataFails(t *testing.T) {
	dir := t.TempDir()
	inProcess(t, "-data", dir)
	logs := &syncBuffer{}
	code := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-data", dir}, func(string) string { return "" }, logs, nil)
	if code == 0 || !strings.Contains(logs.String(), "locked") {
		t.Errorf("second server: exit %d, log %q; want a failure naming the lock", code, logs)
	}
}

func TestUsesDynamoDBWhenGivenATable(t *testing.T) {
	endpoint := testenv.Dynalite(t)
	table := testenv.TableName(t)
	args := []string{"-dynamodb-table", table, "-dynamodb-endpoint", endpoint, "-data", ""}

	base, logs, stop := inProcess(t, args...)
	var created seatAnswer
	if resp := call(t, "POST", base+"/api/games", "", createTwoPlayerGame, &created); resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /api/games = %d, want 201; log:\n%s", resp.StatusCode, logs)
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit status = %d; log:\n%s", code, logs)
	}
	if !strings.Contains(logs.String(), "kind=dynamodb") {
		t.Errorf("log does not say the store is DynamoDB:\n%s", logs)
	}

	// A new server on the same table sees the game: it was in DynamoDB.
	base, _, _ = inProcess(t, args...)
	var got struct {
		ID      string `json:"id"`
		Version int    `json:"version"`
	}
	if resp := call(t, "GET", base+"/api/games/"+created.Game.ID, "", "", &got); resp.StatusCode != http.StatusOK || got.ID != created.Game.ID {
		t.Errorf("GET game after restart = %d %+v, want 200 with id %s", resp.StatusCode, got, created.Game.ID)
	}
}

// noRedirects is a client that shows redirects instead of following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// TestStrayAPIPathsAre404 sends paths Go's ServeMux would redirect (a
// cleaned path, /api without its slash) and gets API.md's 404 for each,
// never a redirect that a client could follow into a create.
func TestStrayAPIPathsAre404(t *testing.T) {
	base, _, _ := inProcess(t, "-data", t.TempDir())
	for _, tc := range []struct{ method, path string }{
		{"POST", "/api//games"},
		{"POST", "/api/x/../games"},
		{"POST", "/api/./games"},
		{"GET", "/api/games/abcdefghij/../../me"},
		{"GET", "/api"},
		{"GET", "/api/"},
		{"GET", "//api/games"},
		{"POST", "/api/games//moves"},
	} {
		req, err := http.NewRequest(tc.method, base+tc.path, strings.NewReader(createTwoPlayerGame))
		if err != nil {
			t.Fatal(err)
		}
		req.URL.Opaque = tc.path // as written: no client-side cleaning
		resp, err := noRedirects.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Error struct{ Code string } `json:"error"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if tc.path == "//api/games" {
			// Not under /api/: the page's, which never creates a game.
			if resp.StatusCode == http.StatusCreated {
				t.Errorf("%s %s created a game", tc.method, tc.path)
			}
			continue
		}
		if resp.StatusCode != http.StatusNotFound || err != nil || body.Error.Code != "not_found" || resp.Header.Get("Location") != "" {
			t.Errorf("%s %s = %d %q (Location %q), want 404 not_found", tc.method, tc.path, resp.StatusCode, body.Error.Code, resp.Header.Get("Location"))
		}
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s: X-Content-Type-Options %q", tc.method, tc.path, got)
		}
	}
}

// HTTP/2's preface sent in clear to this HTTP/1 server is 400, not the
// page's 404.
func TestAnHTTP2PrefaceIs400(t *testing.T) {
	base, _, _ := inProcess(t, "-data", t.TempDir())
	for _, raw := range []string{"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := conn.Write([]byte(raw)); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if !strings.HasPrefix(line, "HTTP/1.1 400") {
			t.Errorf("%q: answered %q, want 400", strings.SplitN(raw, "\r", 2)[0], line)
		}
	}
}

// TestRateLimitIsOnByDefault: the default limit answers a burst past
// 5*setup.DefaultRateLimit requests with 429 and Retry-After; RATE_LIMIT=0 and
// -rate-limit 0 turn it off.
func TestRateLimitIsOnByDefault(t *testing.T) {
	burst := func(base string) (limited int, retry string) {
		for i := 0; i < 5*setup.DefaultRateLimit+20; i++ {
			resp := call(t, "GET", base+"/api/games/nosuchgame1", "", "", nil)
			if resp.StatusCode == http.StatusTooManyRequests {
				limited++
				retry = resp.Header.Get("Retry-After")
			}
		}
		return limited, retry
	}
	base, _, _ := inProcess(t, "-data", t.TempDir())
	if n, retry := burst(base); n < 10 || retry == "" {
		t.Errorf("default: %d of %d requests limited (Retry-After %q), want at least 10 with Retry-After", n, 5*setup.DefaultRateLimit+20, retry)
	}
	base, _, _ = inProcess(t, "-data", t.TempDir(), "-rate-limit", "0")
	if n, _ := burst(base); n != 0 {
		t.Errorf("-rate-limit 0: %d requests limited", n)
	}
}

// With -public-url, a page asked for at another address is sent to the
// public one (so its invite links are ones friends can open); the API and
// the files a page loads answer at any address; a URL that is not a site
// is refused at start.
func TestPublicURLSendsPagesThere(t *testing.T) {
	base, _, _ := inProcess(t, "-data", t.TempDir(), "-public-url", "http://192.0.2.7:8080/")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		path     string
		status   int
		location string
	}{
		{"/", http.StatusFound, "http://192.0.2.7:8080/"},
		{"/g/k3x9q2m7ab", http.StatusFound, "http://192.0.2.7:8080/g/k3x9q2m7ab"},
		{"/rules?x=1", http.StatusFound, "http://192.0.2.7:8080/rules?x=1"},
		{"/dist/game.js", http.StatusOK, ""},
		{"/api/push", http.StatusOK, ""},
	} {
		res, err := client.Get(base + c.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.status || res.Header.Get("Location") != c.location {
			t.Errorf("GET %s = %d %q, want %d %q", c.path, res.StatusCode, res.Header.Get("Location"), c.status, c.location)
		}
	}
	// At the public address itself the page is served.
	req, _ := http.NewRequest(http.MethodGet, base+"/", nil)
	req.Host = "192.0.2.7:8080"
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("the page at the public address: %d", res.StatusCode)
	}
	for _, bad := range []string{"192.0.2.7:8080", "ftp://x", "http://", "http://x/sub", "http://x/?q=1"} {
		if code := run(context.Background(), []string{"-public-url", bad}, func(string) string { return "" }, io.Discard, nil); code != 2 {
			t.Errorf("-public-url %q: exit %d, want 2", bad, code)
		}
	}
}
