package workertest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"tessera/internal/testenv"
)

// MaxModuleGzip is the Workers free plan's limit on a Worker's size after
// compression (3 MB).
const MaxModuleGzip = 3 << 20

// TestTheModuleFitsTheFreePlan: the gzipped module stays under 3 MB.
func TestTheModuleFitsTheFreePlan(t *testing.T) {
	testenv.Miniflare(t)
	dir := testenv.WorkerBuild(t, "")
	raw, err := os.ReadFile(filepath.Join(dir, "tessera.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	t.Logf("tessera.wasm: %d bytes, %d gzipped (limit %d)", len(raw), buf.Len(), MaxModuleGzip)
	if buf.Len() >= MaxModuleGzip {
		t.Errorf("the module is %d bytes gzipped, over the free plan's %d", buf.Len(), MaxModuleGzip)
	}
}

// TestD1StoreContractInsideWorkerd runs the store contract suite (and the
// D1 adapter's own tests), compiled for js/wasm, inside workerd against a
// local D1.
func TestD1StoreContractInsideWorkerd(t *testing.T) {
	node := testenv.Miniflare(t)
	bin := filepath.Join(t.TempDir(), "d1.test.wasm")
	build := exec.Command("go", "test", "-c", "-o", bin, "./functions/store/d1")
	build.Dir = testenv.RepoRoot()
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the d1 tests for js/wasm: %v\n%s", err, out)
	}
	run := exec.Command(node, filepath.Join(testenv.RepoRoot(), "infra", "workers", "gotest.mjs"), bin, "-test.v")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("the d1 tests inside workerd: %v\n%s", err, out)
	}
	for _, want := range []string{"--- PASS: TestContract ", "--- PASS: TestExpireDeletesWhatIsPastTheTTL ", "of_32_concurrent_saves_of_one_version_exactly_one_wins", "\nPASS"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

// TestEveryErrorCodeThroughTheWorker walks the API's answers, one of each
// error code, through the Worker.
func TestEveryErrorCodeThroughTheWorker(t *testing.T) {
	base := testenv.Worker(t)
	ana := create(t, base, `{"variant": "fiveup", "players": 2, "name": "Ana"}`)
	id := ana.Game.ID
	games := base + "/api/games/" + id
	var bea seatAnswer
	do(t, "POST", games+"/seats", "", `{"name": "Bea"}`).decode(t, "join", http.StatusCreated, &bea)

	tokens := map[int]string{0: ana.Token, 1: bea.Token}
	// Past any redeal question, to a seat that must play.
	for range 10 {
		var v view
		do(t, "GET", games, "", "").decode(t, "spectator poll", http.StatusOK, &v)
		if v.Hand.Phase != "confirm" {
			break
		}
		s := actor(t, v)
		do(t, "GET", games, tokens[s], "").decode(t, "poll of the seat asked", http.StatusOK, &v)
		do(t, "POST", games+"/moves", tokens[s], nextMove(t, v, "")).decode(t, "keep", http.StatusOK, nil)
	}

	var mine view
	poll := do(t, "GET", games, ana.Token, "")
	poll.decode(t, "poll", http.StatusOK, &mine)
	etag := poll.header.Get("ETag")
	if etag == "" {
		t.Fatal("the poll has no ETag")
	}
	if a := do(t, "GET", games, ana.Token, "", "If-None-Match", etag); a.status != http.StatusNotModified || len(a.body) != 0 {
		t.Errorf("poll with its ETag = %d with %d bytes, want an empty 304", a.status, len(a.body))
	}
	turn := actor(t, mine)
	var toMove view
	do(t, "GET", games, tokens[turn], "").decode(t, "poll of the seat to move", http.StatusOK, &toMove)
	other := tokens[1-turn]

	cases := []struct {
		name, method, url, token, body string
		status                         int
		code                           string
	}{
		{"unknown path", "GET", base + "/api/nope", "", "", 404, "not_found"},
		{"/api itself", "GET", base + "/api", "", "", 404, "not_found"},
		{"wrong method", "DELETE", base + "/api/games", "", "", 405, "method_not_allowed"},
		{"body over 16 KiB", "POST", base + "/api/games", "", `{"name": "` + strings.Repeat("a", 17<<10) + `"}`, 413, "too_large"},
		{"not JSON", "POST", base + "/api/games", "", `{"variant":`, 400, "bad_request"},
		{"unknown key, null", "POST", base + "/api/games", "", `{"variant": "fiveup", "name": "X", "foo": null}`, 400, "bad_request"},
		{"bidi override in a name", "POST", base + "/api/games", "", `{"variant": "fiveup", "name": "a\u202eb"}`, 400, "bad_request"},
		{"unknown game", "GET", base + "/api/games/abcdefghijklmnop", "", "", 404, "not_found"},
		{"wrong token", "GET", games, "not-a-token-of-this-game-at-all", "", 401, "unauthorized"},
		{"move without a token", "POST", games + "/moves", "", `{"version": 1, "type": "keep"}`, 401, "unauthorized"},
		{"stale version", "POST", games + "/moves", tokens[turn], fmt.Sprintf(`{"version": %d, "type": "play", "tile": [0, 0], "end": "lead"}`, toMove.Version-1), 409, "stale_version"},
		{"not your turn", "POST", games + "/moves", other, nextMove(t, toMove, ""), 409, "not_your_turn"},
		{"a tile not in the hand", "POST", games + "/moves", tokens[turn], illegalPlay(toMove), 422, "illegal_move"},
		{"game full", "POST", games + "/seats", "", `{"name": "Cy"}`, 409, "game_full"},
		{"rematch before the end", "POST", games + "/rematch", ana.Token, `{}`, 409, "not_finished"},
		{"my games without a key", "GET", base + "/api/me", "", "", 401, "unauthorized"},
	}
	for _, c := range cases {
		a := do(t, c.method, c.url, c.token, c.body)
		if a.status != c.status || a.code() != c.code {
			t.Errorf("%s: %s %s = %d %q, want %d %q: %s", c.name, c.method, c.url, a.status, a.code(), c.status, c.code, a.body)
		}
		if ct := a.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: Content-Type %q", c.name, ct)
		}
		if a.header.Get("X-Content-Type-Options") != "nosniff" || a.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: headers %v", c.name, a.header)
		}
	}
	if a := do(t, "DELETE", base+"/api/games", "", ""); a.header.Get("Allow") == "" {
		t.Errorf("405 without Allow")
	}
	// Nothing above changed the game.
	var after view
	do(t, "GET", games, ana.Token, "").decode(t, "poll after the errors", http.StatusOK, &after)
	if after.Version != toMove.Version {
		t.Errorf("the failed requests moved the game from version %d to %d", toMove.Version, after.Version)
	}
	// A move with a moveId applied twice is applied once.
	body := nextMove(t, toMove, "once")
	var first, again view
	do(t, "POST", games+"/moves", tokens[turn], body).decode(t, "move", http.StatusOK, &first)
	do(t, "POST", games+"/moves", tokens[turn], body).decode(t, "the same move again", http.StatusOK, &again)
	if first.Version != toMove.Version+1 || again.Version != first.Version {
		t.Errorf("versions %d -> %d -> %d, want +1 then the same", toMove.Version, first.Version, again.Version)
	}
}

// illegalPlay is a play of a tile the seat does not hold.
func illegalPlay(v view) string {
	held := map[[2]int]bool{}
	for _, tl := range v.You.Tiles {
		held[tl], held[[2]int{tl[1], tl[0]}] = true, true
	}
	for a := 0; a <= 6; a++ {
		for b := a; b <= 6; b++ {
			if !held[[2]int{a, b}] {
				return fmt.Sprintf(`{"version": %d, "type": "play", "tile": [%d, %d], "end": "left"}`, v.Version, a, b)
			}
		}
	}
	panic("a hand with every tile")
}

// TestAMatchAgainstThreeComputersThroughTheWorker plays a four-player Five
// Up match to 50 against an easy, a medium and a hard computer player, and
// checks that the seat never sees another seat's tiles.
func TestAMatchAgainstThreeComputersThroughTheWorker(t *testing.T) {
	base := testenv.Worker(t)
	ana := create(t, base, `{"variant": "fiveup", "players": 4, "target": 50, "name": "Ana",
		"bots": [{"seat": 1, "level": "easy"}, {"seat": 2, "level": "medium"}, {"seat": 3, "level": "hard"}]}`)
	games := base + "/api/games/" + ana.Game.ID
	moves := 0
	for {
		var mine view
		do(t, "GET", games, ana.Token, "").decode(t, "poll", http.StatusOK, &mine)
		if mine.You == nil || mine.You.Seat != 0 {
			t.Fatalf("the seat's view is not seat 0's: %+v", mine.You)
		}
		if mine.Status == "finished" {
			t.Logf("finished after %d moves of seat 0: scores %v, winner %v", moves, mine.Scores, *mine.Winner)
			if mine.Winner == nil {
				t.Error("a finished match without a winner")
			}
			// The rematch: the first request makes the next match, with
			// the same computers; a second answers the same game.
			var next, again seatAnswer
			do(t, "POST", games+"/rematch", ana.Token, `{}`).decode(t, "rematch", http.StatusCreated, &next)
			do(t, "POST", games+"/rematch", ana.Token, `{}`).decode(t, "rematch again", http.StatusOK, &again)
			if next.Game.ID == ana.Game.ID || again.Game.ID != next.Game.ID || next.Seat != 0 || next.Game.Status != "playing" {
				t.Errorf("rematch %+v then %+v", next.Game, again.Game)
			}
			for s := 1; s < 4; s++ {
				if b := next.Game.Seats[s].Bot; b == nil || *b != []string{"", "easy", "medium", "hard"}[s] {
					t.Errorf("the rematch's seat %d is %v", s, b)
				}
			}
			return
		}
		if moves++; moves > 300 {
			t.Fatalf("not finished after 300 moves: %+v", mine)
		}
		if mine.Hand.Phase == "play" && (mine.Hand.Turn == nil || *mine.Hand.Turn != 0) {
			t.Fatalf("the server answered with a computer to play: %+v", mine.Hand)
		}
		var next view
		do(t, "POST", games+"/moves", ana.Token, nextMove(t, mine, fmt.Sprint("m", moves))).decode(t, "move", http.StatusOK, &next)
		if next.Version <= mine.Version {
			t.Fatalf("a move left the version at %d", next.Version)
		}
	}
}

// TestConcurrentMovesAtOneVersionApplyOnce: 32 moves sent at once at the
// same version, with distinct moveIds: exactly one is applied, the others
// are 409 stale_version; and concurrent polls of four seats each see only
// their own tiles (requests run concurrently in the isolate and do not
// leak into each other).
func TestConcurrentMovesAtOneVersionApplyOnce(t *testing.T) {
	base := testenv.Worker(t)
	ana := create(t, base, `{"variant": "fiveup", "players": 4, "name": "Ana"}`)
	games := base + "/api/games/" + ana.Game.ID
	tokens := map[int]string{0: ana.Token}
	for _, name := range []string{"Bea", "Cy", "Dee"} {
		var s seatAnswer
		do(t, "POST", games+"/seats", "", `{"name": "`+name+`"}`).decode(t, "join", http.StatusCreated, &s)
		tokens[s.Seat] = s.Token
	}
	var spectator view
	do(t, "GET", games, "", "").decode(t, "spectator poll", http.StatusOK, &spectator)

	// Concurrent polls, 8 per seat: each answer is its own seat's.
	var wg sync.WaitGroup
	hands := make([][][2]int, 4)
	var mu sync.Mutex
	for round := range 8 {
		for seat, tok := range tokens {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var v view
				do(t, "GET", games, tok, "").decode(t, "poll", http.StatusOK, &v)
				mu.Lock()
				defer mu.Unlock()
				if v.You == nil || v.You.Seat != seat {
					t.Errorf("seat %d's poll answered as %+v", seat, v.You)
					return
				}
				if round == 0 && hands[seat] == nil {
					hands[seat] = v.You.Tiles
				} else if hands[seat] != nil && fmt.Sprint(hands[seat]) != fmt.Sprint(v.You.Tiles) {
					t.Errorf("seat %d saw two hands: %v and %v", seat, hands[seat], v.You.Tiles)
				}
			}()
		}
	}
	wg.Wait()
	seen := map[[2]int]int{}
	for seat, h := range hands {
		for _, tl := range h {
			if s, dup := seen[tl]; dup {
				t.Errorf("tile %v in the hands of seats %d and %d", tl, s, seat)
			}
			seen[tl] = seat
		}
	}

	turn := actor(t, spectator)
	var mine view
	do(t, "GET", games, tokens[turn], "").decode(t, "poll", http.StatusOK, &mine)
	const n = 32
	statuses := make([]answer, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = do(t, "POST", games+"/moves", tokens[turn], nextMove(t, mine, fmt.Sprint("c", i)))
		}()
	}
	wg.Wait()
	applied := 0
	for i, a := range statuses {
		switch {
		case a.status == http.StatusOK:
			applied++
		case a.status == http.StatusConflict && a.code() == "stale_version":
		default:
			t.Errorf("move %d: %d %s", i, a.status, a.body)
		}
	}
	var after view
	do(t, "GET", games, "", "").decode(t, "poll after", http.StatusOK, &after)
	if applied != 1 || after.Version != mine.Version+1 {
		t.Errorf("%d of %d concurrent moves applied, version %d -> %d; want exactly one", applied, n, mine.Version, after.Version)
	}
}

// TestThePageThroughTheWorker: the page's paths come from the static
// assets with the Go frontend's headers; /g/{id} is game.html.
func TestThePageThroughTheWorker(t *testing.T) {
	base := testenv.Worker(t)
	game := do(t, "GET", base+"/g/abcdefghijkl", "", "")
	index := do(t, "GET", base+"/", "", "")
	direct, _ := os.ReadFile(filepath.Join(testenv.RepoRoot(), "frontend", "static", "game.html"))
	if game.status != 200 || !bytes.Equal(game.body, direct) {
		t.Errorf("/g/{id} = %d, %d bytes; want game.html (%d bytes)", game.status, len(game.body), len(direct))
	}
	for path, a := range map[string]answer{"/g/abcdefghijkl": game, "/": index, "/assets/app.js": do(t, "GET", base+"/assets/app.js", "", ""), "/sw.js": do(t, "GET", base+"/sw.js", "", "")} {
		if a.status != 200 {
			t.Errorf("%s = %d", path, a.status)
		}
		for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache"} {
			if got := a.header.Get(k); got != want {
				t.Errorf("%s: %s = %q, want %q", path, k, got, want)
			}
		}
		// Documents and the service worker carry the CSP and X-Frame-Options,
		// a script does not need them (frontend.Resolve).
		document := path != "/assets/app.js"
		if got := a.header.Get("Content-Security-Policy"); document != strings.Contains(got, "default-src 'none'") {
			t.Errorf("%s: CSP %q", path, got)
		}
		if got := a.header.Get("X-Frame-Options"); document != (got == "DENY") {
			t.Errorf("%s: X-Frame-Options %q", path, got)
		}
	}
	if ct := index.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("/ Content-Type %q", ct)
	}
	if a := do(t, "GET", base+"/assets/app.js", "", "", "If-None-Match", do(t, "GET", base+"/assets/app.js", "", "").header.Get("ETag")); a.status != http.StatusNotModified {
		t.Errorf("app.js with its ETag = %d, want 304", a.status)
	}
	// (A path with dot segments reaches the Worker resolved, as a
	// browser sends it: /assets/../index.html is /index.html there.)
	for _, p := range []string{"/nope", "/g/", "/g/a.b", "/assets/nope.js"} {
		if a := do(t, "GET", base+p, "", ""); a.status != 404 || a.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s = %d (Cache-Control %q), want 404 no-store", p, a.status, a.header.Get("Cache-Control"))
		}
	}
	if a := do(t, "POST", base+"/", "", "x"); a.status != 405 || a.header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST / = %d, Allow %q", a.status, a.header.Get("Allow"))
	}
}

// TestRateLimitOnTheWorker: the limit is on by default (here 2 per second)
// and RATE_LIMIT=0 turns it off (every other test runs so).
func TestRateLimitOnTheWorker(t *testing.T) {
	base := testenv.Worker(t, "RATE_LIMIT=2")
	limited := 0
	for range 40 {
		a := do(t, "GET", base+"/api/games/abcdefghijklmnop", "", "")
		if a.status == http.StatusTooManyRequests {
			limited++
			if a.code() != "rate_limited" || a.header.Get("Retry-After") == "" {
				t.Errorf("429 without its code or Retry-After: %v %s", a.header, a.body)
			}
		}
	}
	if limited == 0 {
		t.Error("40 requests at once at RATE_LIMIT=2: none limited")
	}
}

// TestAGoCrashRestartsTheInstance: when the Go program dies (here a test
// build's trigger panics outside any request), the request in flight
// answers 500 at once, and the next request starts a new instance that
// serves the games kept in D1.
func TestAGoCrashRestartsTheInstance(t *testing.T) {
	testenv.Miniflare(t)
	base := testenv.WorkerFrom(t, testenv.WorkerBuild(t, "workercrash"))
	ana := create(t, base, `{"variant": "fiveup", "players": 2, "name": "Ana"}`)
	crash := do(t, "POST", base+"/api/__crash", "", "{}")
	if crash.status != http.StatusInternalServerError || crash.code() != "internal" {
		t.Fatalf("the request in flight when Go died = %d %s, want 500 internal", crash.status, crash.body)
	}
	var v view
	do(t, "GET", base+"/api/games/"+ana.Game.ID, ana.Token, "").decode(t, "poll after the crash", http.StatusOK, &v)
	if v.ID != ana.Game.ID || v.You == nil || v.You.Seat != 0 {
		t.Errorf("after the restart: %+v", v)
	}
	create(t, base, `{"variant": "fiveup", "players": 2, "name": "Bea"}`)
}

// TestConcurrentFirstRequestsAreAllAnswered: 16 requests reach a fresh
// isolate at once, while Go is starting (the shim makes them wait for the
// one start under way); every one is answered as API.md says.
func TestConcurrentFirstRequestsAreAllAnswered(t *testing.T) {
	base := testenv.Worker(t)
	var wg sync.WaitGroup
	answers := make([]answer, 16)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				answers[i] = do(t, "POST", base+"/api/games", "", `{"variant": "fiveup", "players": 2, "name": "Ana"}`)
			} else {
				answers[i] = do(t, "GET", base+"/api/games/abcdefghijklmnop", "", "")
			}
		}()
	}
	wg.Wait()
	for i, a := range answers {
		want := http.StatusCreated
		if i%2 == 1 {
			want = http.StatusNotFound
		}
		if a.status != want {
			t.Errorf("request %d: %d %s, want %d", i, a.status, a.body, want)
		}
	}
}
