package api

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"tessera/engine"
	"tessera/engine/bot"
	"tessera/functions/game"
	"tessera/internal/testenv"
)

// limitedServer is a handler with a rate limit of perSecond, whose client
// address is the X-Test-Addr header (the default, RemoteAddr, is tested
// on its own).
func limitedServer(t *testing.T, perSecond float64, bots map[string]bot.Player) (*server, *testenv.Clock) {
	t.Helper()
	clock := &testenv.Clock{T: fixedNow}
	st := newMemoryStore()
	logs := &logBuffer{}
	h := New(Config{Store: st, Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Now: func() time.Time { return fixedNow }, Rand: seededReader(7), Bots: bots,
		RateLimit: &RateLimit{PerSecond: perSecond, Now: clock.Now,
			Addr: func(r *http.Request) string { return r.Header.Get("X-Test-Addr") }}})
	return &server{t: t, h: h, store: st, logs: logs}, clock
}

func wantLimited(t *testing.T, r response, retry string) {
	t.Helper()
	if r.status != 429 {
		t.Fatalf("status %d, want 429: %s", r.status, r.body)
	}
	if e := mustError(t, r); e.Error.Code != "rate_limited" || e.Error.Message == "" {
		t.Fatalf("body %s, want rate_limited", r.body)
	}
	if got := r.header.Get("Retry-After"); got != retry {
		t.Fatalf("Retry-After %q, want %q", got, retry)
	}
}

func TestRateLimitRequests(t *testing.T) {
	s, clock := limitedServer(t, 2, nil)
	id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	// A burst of 5*2 = 10 requests (the create came from another address).
	for i := 0; i < 10; i++ {
		if r := s.do("GET", "/api/games/"+id, "", "", "X-Test-Addr", "a"); r.status != 200 {
			t.Fatalf("request %d: %d", i+1, r.status)
		}
	}
	wantLimited(t, s.do("GET", "/api/games/"+id, "", "", "X-Test-Addr", "a"), "1")
	// 429 comes before every other check: 405, 404, 400.
	wantLimited(t, s.do("PATCH", "/api/games", "", "", "X-Test-Addr", "a"), "1")
	wantLimited(t, s.do("GET", "/api/nothing", "", "", "X-Test-Addr", "a"), "1")
	wantLimited(t, s.do("POST", "/api/games", "{", "", "X-Test-Addr", "a"), "1")
	// Another address is not affected.
	if r := s.do("GET", "/api/games/"+id, "", "", "X-Test-Addr", "b"); r.status != 200 {
		t.Fatalf("another address: %d", r.status)
	}
	// Half a second gives one request back.
	clock.Add(500 * time.Millisecond)
	if r := s.do("GET", "/api/games/"+id, "", "", "X-Test-Addr", "a"); r.status != 200 {
		t.Fatalf("after the refill: %d %s", r.status, r.body)
	}
	wantLimited(t, s.do("GET", "/api/games/"+id, "", "", "X-Test-Addr", "a"), "1")
}

func TestRateLimitCreatesChangeNothing(t *testing.T) {
	s, clock := limitedServer(t, 20, nil)
	body := `{"variant":"fiveup","players":2,"name":"Ana"}`
	for i := 0; i < 10; i++ {
		if r := s.do("POST", "/api/games", body, "", "X-Test-Addr", "a"); r.status != 201 {
			t.Fatalf("create %d: %d %s", i+1, r.status, r.body)
		}
	}
	// Creates refill at 20/40 = 0.5 a second: the next in 2 s.
	r := s.do("POST", "/api/games", body, "", "X-Test-Addr", "a")
	wantLimited(t, r, "2")
	if n := strings.Count(s.logs.String(), `"status":201`); n != 10 {
		t.Fatalf("%d games created, want 10", n)
	}
	// Polls from the same address still pass; a rematch is a create too.
	id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Bea"}`) // another address ("")
	if r := s.do("GET", "/api/games/"+id, "", "", "X-Test-Addr", "a"); r.status != 200 {
		t.Fatalf("poll: %d", r.status)
	}
	wantLimited(t, s.do("POST", "/api/games/"+id+"/rematch", "{}", "", "X-Test-Addr", "a"), "2")
	clock.Add(2 * time.Second)
	if r := s.do("POST", "/api/games", body, "", "X-Test-Addr", "a"); r.status != 201 {
		t.Fatalf("after 2 s: %d %s", r.status, r.body)
	}
}

// A device registered with fresh keys makes a player record: charged like
// a create (attack kit D4: 2.8 KB a request at the request limit), so ten
// pass, the eleventh waits, and nothing of it is stored.
func TestRateLimitChargesNewRecordsLikeCreates(t *testing.T) {
	s, clock := limitedServer(t, 20, nil)
	s.h = New(Config{Store: s.store, Now: func() time.Time { return fixedNow }, Rand: seededReader(7),
		Push:      &PushConfig{Subject: "mailto:t@tessera.invalid"},
		RateLimit: &RateLimit{PerSecond: 20, Now: clock.Now, Addr: func(r *http.Request) string { return r.Header.Get("X-Test-Addr") }}})
	dev := `{"endpoint":"https://push.example/d/1","keys":{"p256dh":"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4","auth":"BTBZMqHH6r4Tts7J_aSIgg"}}`
	key := func(i int) string { return strings.Repeat(strconv.Itoa(i%10), 43) }
	for i := 0; i < 10; i++ {
		if r := s.do("PUT", "/api/me/push", dev, key(i), "X-Test-Addr", "a"); r.status != 204 {
			t.Fatalf("device %d: %d %s", i+1, r.status, r.body)
		}
	}
	r := s.do("PUT", "/api/me/push", dev, "k"+key(0)[1:], "X-Test-Addr", "a")
	wantLimited(t, r, "2")
	if _, err := s.store.Load(t.Context(), game.PlayerID(game.HashToken("k"+key(0)[1:]))); err == nil {
		t.Error("a refused PUT stored a record")
	}
	wantLimited(t, s.do("PUT", "/api/me/profile", `{"name":"Ana"}`, key(1), "X-Test-Addr", "a"), "2")
	// A create shares the bucket; polls and /api/me still pass.
	wantLimited(t, s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Ana"}`, "", "X-Test-Addr", "a"), "2")
	if r := s.do("GET", "/api/me", "", key(1), "X-Test-Addr", "a"); r.status != 200 {
		t.Fatalf("GET /api/me: %d", r.status)
	}
	clock.Add(2 * time.Second)
	if r := s.do("PUT", "/api/me/push", dev, "k"+key(0)[1:], "X-Test-Addr", "a"); r.status != 204 {
		t.Fatalf("after 2 s: %d %s", r.status, r.body)
	}
}

func TestRateLimitOff(t *testing.T) {
	for _, cfg := range []*RateLimit{nil, {PerSecond: 0}} {
		h := New(Config{Store: newMemoryStore(), RateLimit: cfg})
		if h.limit != nil {
			t.Fatalf("%+v: a limiter", cfg)
		}
	}
}

// TestRateLimitThinking: hard decisions are charged to the address after
// the request; in debt, requests that may run computer players are 429
// while polls pass.
func TestRateLimitThinking(t *testing.T) {
	calls := 0
	hard := func(v *engine.View, seed uint64) (engine.Move, bool) {
		if !v.You.Confirm {
			calls++
		}
		return bot.Easy(v, seed)
	}
	bots := map[string]bot.Player{"easy": bot.Easy, "medium": bot.Medium, "hard": hard}
	s, clock := limitedServer(t, 20, bots)
	body := `{"variant":"fiveup","players":4,"name":"Ana","bots":[{"seat":1,"level":"hard"},{"seat":2,"level":"hard"},{"seat":3,"level":"hard"}]}`
	var id, token string
	for calls == 0 {
		r := s.do("POST", "/api/games", body, "", "X-Test-Addr", "a")
		if r.status != 201 {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		var a seatAnswerJSON
		if err := json.Unmarshal(r.body, &a); err != nil {
			t.Fatal(err)
		}
		id, token = mustView(t, a.Game).ID, a.Token
	}
	h := s.h.(*Handler)
	b := h.limit.addrs["a"]
	if got := 30 - b.thinking.tokens; got != float64(calls) {
		t.Fatalf("charged %v, the hard player thought %d times", got, calls)
	}
	h.limit.charge("a", 100) // at most a burst (30) into debt
	if b.thinking.tokens != -30 {
		t.Fatalf("debt %v, want -30", b.thinking.tokens)
	}
	// Out of debt (30 tokens at 20/4 = 5 a second) in 6 s.
	wantLimited(t, s.do("POST", "/api/games/"+id+"/moves", `{"version":1,"type":"play","tile":[0,0],"end":"left"}`, token, "X-Test-Addr", "a"), "6")
	if r := s.do("GET", "/api/games/"+id, "", token, "X-Test-Addr", "a"); r.status != 200 {
		t.Fatalf("poll in debt: %d", r.status)
	}
	clock.Add(6 * time.Second)
	if r := s.do("POST", "/api/games/"+id+"/moves", `{"version":1,"type":"play","tile":[0,0],"end":"left"}`, token, "X-Test-Addr", "a"); r.status == 429 {
		t.Fatalf("still limited after 6 s: %s", r.body)
	}
}

// TestHardPerRequest: past game.HardPerRequest hard decisions in one request,
// the hard seats play at the medium level.
func TestHardPerRequest(t *testing.T) {
	hardCalls, mediumCalls := 0, 0
	h := New(Config{Store: newMemoryStore(), Bots: map[string]bot.Player{
		"easy":   bot.Easy,
		"medium": func(v *engine.View, s uint64) (engine.Move, bool) { mediumCalls++; return bot.Easy(v, s) },
		"hard":   func(v *engine.View, s uint64) (engine.Move, bool) { hardCalls++; return bot.Easy(v, s) },
	}})
	var think game.Thinking
	p := h.svc.Players(&think)["hard"]
	v := &engine.View{You: &engine.ViewYou{}}
	for i := 0; i < game.HardPerRequest+5; i++ {
		p(v, 1)
	}
	if hardCalls != game.HardPerRequest || mediumCalls != 5 || think.Hard != game.HardPerRequest {
		t.Fatalf("hard %d, medium %d, counted %d; want %d, 5, %d", hardCalls, mediumCalls, think.Hard, game.HardPerRequest, game.HardPerRequest)
	}
}

// TestExpertCountsTwice: an expert decision (2,400 playouts) counts as two
// hard ones against game.HardPerRequest, shared with the hard seats; past
// it both play at the medium level.
func TestExpertCountsTwice(t *testing.T) {
	calls := map[string]int{}
	counted := func(level string) bot.Player {
		return func(v *engine.View, s uint64) (engine.Move, bool) { calls[level]++; return bot.Easy(v, s) }
	}
	h := New(Config{Store: newMemoryStore(), Bots: map[string]bot.Player{
		"easy": bot.Easy, "medium": counted("medium"), "hard": counted("hard"), "expert": counted("expert"),
	}})
	var think game.Thinking
	players := h.svc.Players(&think)
	v := &engine.View{You: &engine.ViewYou{}}
	players["hard"](v, 1) // 1
	for i := 0; i < 6; i++ {
		players["expert"](v, 1) // 3, 5, 7, 9, 11, then 13 > 12: medium
	}
	players["hard"](v, 1) // 12
	players["hard"](v, 1) // medium
	if calls["hard"] != 2 || calls["expert"] != 5 || calls["medium"] != 2 || think.Hard != game.HardPerRequest {
		t.Fatalf("calls %v, counted %d; want hard 2, expert 5, medium 2, counted %d", calls, think.Hard, game.HardPerRequest)
	}
	// The redeal question is answered by the level itself, uncounted.
	players["expert"](&engine.View{You: &engine.ViewYou{Confirm: true}}, 1)
	if calls["expert"] != 6 || think.Hard != game.HardPerRequest {
		t.Fatalf("the redeal question: calls %v, counted %d", calls, think.Hard)
	}
}

func TestRemoteHost(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.1:1234":             "192.0.2.1",
		"[::ffff:192.0.2.1]:80":      "192.0.2.1",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:443": "2001:db8:1:2::/64",
		"@":                          "@",
	} {
		r := httptest.NewRequest("GET", "/api/me", nil)
		r.RemoteAddr = addr
		if got := remoteHost(r); got != want {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
}

func TestLimiterForgetsIdleAddresses(t *testing.T) {
	clock := &testenv.Clock{T: fixedNow}
	l := newLimiter(RateLimit{PerSecond: 20, Now: clock.Now})
	for i := range 50 {
		l.allow(string(rune('a'+i)), routePoll, "GET")
	}
	clock.Add(l.refillTime() + 2*time.Minute)
	l.allow("z", routePoll, "GET")
	if len(l.addrs) != 1 {
		t.Fatalf("%d addresses remembered, want 1", len(l.addrs))
	}
}

// A flood from more addresses than the limiter remembers, each spending
// its burst, neither grows the map past maxAddrs nor refuses a new
// address's first request (attack kit D9).
func TestAFullLimiterLetsANewAddressIn(t *testing.T) {
	clock := &testenv.Clock{T: fixedNow}
	l := newLimiter(RateLimit{PerSecond: 1, Now: clock.Now})
	for i := range maxAddrs + 1000 {
		addr := "flood-" + strconv.Itoa(i)
		for {
			if _, ok := l.allow(addr, routePoll, "GET"); !ok {
				break
			}
		}
	}
	if len(l.addrs) > maxAddrs {
		t.Fatalf("%d addresses remembered, at most %d", len(l.addrs), maxAddrs)
	}
	if retry, ok := l.allow("innocent", routePoll, "GET"); !ok {
		t.Fatalf("a new address's first request was refused (retry %v)", retry)
	}
}
