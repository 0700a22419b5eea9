package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tessera/engine"
	"tessera/engine/bot"
	"tessera/functions/store"
	"tessera/functions/store/memory"
	"tessera/functions/store/storetest"
)

func TestStoreFaults(t *testing.T) {
	unavailable := errors.New("injected: " + store.ErrUnavailable.Error())
	wrapped := errors.Join(store.ErrUnavailable, unavailable)
	unknown := errors.New("disk on fire")
	tests := []struct {
		name   string
		inject func(f *storetest.Faulty)
		req    func(g *faultGame) response
	}{
		{"load fails on a poll", func(f *storetest.Faulty) { f.FailNextLoad(wrapped) }, (*faultGame).poll},
		{"load fails on a move", func(f *storetest.Faulty) { f.FailNextLoad(wrapped) }, (*faultGame).move},
		{"save fails on a move", func(f *storetest.Faulty) { f.FailNextSave(wrapped) }, (*faultGame).move},
		{"unknown save error on a move", func(f *storetest.Faulty) { f.FailNextSave(unknown) }, (*faultGame).move},
		{"load fails on a seat", func(f *storetest.Faulty) { f.FailNextLoad(wrapped) }, (*faultGame).seat},
		{"save fails on a seat", func(f *storetest.Faulty) { f.FailNextSave(wrapped) }, (*faultGame).seat},
		{"create fails", func(f *storetest.Faulty) { f.FailNextCreate(wrapped) }, (*faultGame).create},
		{"unknown create error", func(f *storetest.Faulty) { f.FailNextCreate(unknown) }, (*faultGame).create},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newFaultGame(t)
			before := g.s.stored(g.id)
			beforeOpen := g.s.stored(g.open)
			creates, _, _ := g.f.Calls()
			tc.inject(g.f)
			r := tc.req(g)
			e := mustError(t, r)
			if r.status != 503 || e.Error.Code != "unavailable" || r.header.Get("Retry-After") == "" {
				t.Fatalf("%d %q Retry-After %q, want 503 unavailable with Retry-After", r.status, e.Error.Code, r.header.Get("Retry-After"))
			}
			if strings.Contains(string(r.body), "injected") || strings.Contains(string(r.body), "fire") {
				t.Errorf("the cause leaked into the body: %s", r.body)
			}
			after, afterOpen := g.s.stored(g.id), g.s.stored(g.open)
			if after.Version != before.Version || afterOpen.Version != beforeOpen.Version {
				t.Errorf("a failed request changed a game")
			}
			if c, _, _ := g.f.Calls(); c > creates+1 {
				t.Errorf("creates %d -> %d", creates, c)
			}
			if !strings.Contains(g.s.logs.String(), "cause") {
				t.Errorf("the cause is not logged")
			}
		})
	}
}

// faultGame is a game in play and an open one over a Faulty store.
type faultGame struct {
	t      *testing.T
	s      *server
	f      *storetest.Faulty
	id     string
	open   string
	tokens []string
	actor  int
	body   string // a legal move of the seat to play
}

func newFaultGame(t *testing.T) *faultGame {
	g := &faultGame{t: t, f: storetest.NewFaulty(memory.New())}
	g.s = newServer(t, g.f, 9)
	g.id, g.tokens = g.s.fullGame(`{"variant":"fiveup","players":2,"redeal":false,"name":"Ana"}`)
	g.open, _, _ = g.s.create(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	_, g.actor, g.body = g.s.firstPlay(g.id, g.tokens, "f1")
	return g
}

func (g *faultGame) poll() response { return g.s.do("GET", "/api/games/"+g.id, "", g.tokens[0]) }

func (g *faultGame) move() response {
	return g.s.do("POST", "/api/games/"+g.id+"/moves", g.body, g.tokens[g.actor])
}

func (g *faultGame) seat() response {
	return g.s.do("POST", "/api/games/"+g.open+"/seats", `{"name":"Bea"}`, "")
}

func (g *faultGame) create() response {
	return g.s.do("POST", "/api/games", `{"variant":"fiveup","name":"Ana"}`, "")
}

func TestLostSaveResponseThenRetryAppliesOnce(t *testing.T) {
	g := newFaultGame(t)
	version, actor, body := g.s.firstPlay(g.id, g.tokens, "lost")
	g.f.LoseNextSaveResponse(store.ErrUnavailable)
	if r := g.s.do("POST", "/api/games/"+g.id+"/moves", body, g.tokens[actor]); r.status != 503 {
		t.Fatalf("lost response: %d, want 503", r.status)
	}
	r := g.s.do("POST", "/api/games/"+g.id+"/moves", body, g.tokens[actor])
	if r.status != 200 || mustView(t, r.body).Version != version+1 {
		t.Fatalf("retry: %d %s, want 200 at version %d", r.status, r.body, version+1)
	}
	if got := g.s.stored(g.id).Version; got != version+1 {
		t.Errorf("stored version %d, want %d (applied once)", got, version+1)
	}
}

func TestSaveConflictWithTheSameMoveIsNotStale(t *testing.T) {
	// The same move reaches the store first through another request (a
	// client retry racing its own first attempt): the loser reloads, finds
	// its moveId applied, and answers 200.
	g := newFaultGame(t)
	version, actor, body := g.s.firstPlay(g.id, g.tokens, "twin")
	other := New(Config{Store: g.f.Inner, Now: g.s.nowFunc(), Rand: seededReader(99)})
	g.f.BeforeNextSave(func(ctx context.Context, id string, expected int64) {
		req := httptest.NewRequest("POST", "/api/games/"+g.id+"/moves", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+g.tokens[actor])
		rec := httptest.NewRecorder()
		other.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Errorf("the twin request: %d %s", rec.Code, rec.Body)
		}
	})
	r := g.s.do("POST", "/api/games/"+g.id+"/moves", body, g.tokens[actor])
	if r.status != 200 || mustView(t, r.body).Version != version+1 {
		t.Fatalf("loser of its own race: %d %s, want 200 at version %d", r.status, r.body, version+1)
	}
}

func TestCorruptStoredGameIsInternal(t *testing.T) {
	mem := memory.New()
	s := newServer(t, mem, 10)
	id := "abcdefghijklmnop"
	if err := mem.Create(context.Background(), id, []byte("not a game"), fixedNow, time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []response{
		s.do("GET", "/api/games/"+id, "", ""),
		s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea"}`, ""),
	} {
		if e := mustError(t, r); r.status != 500 || e.Error.Code != "internal" {
			t.Errorf("%d %s, want 500 internal", r.status, r.body)
		}
	}
}

func TestPanicIsRecoveredAs500(t *testing.T) {
	logs := &logBuffer{}
	bots := bot.Levels()
	bots["boom"] = func(*engine.View, uint64) (engine.Move, bool) { panic("bot exploded") }
	h := New(Config{Store: memory.New(), Logger: slog.New(slog.NewJSONHandler(logs, nil)), Bots: bots})
	req := httptest.NewRequest("POST", "/api/games", strings.NewReader(
		`{"variant":"fiveup","players":2,"name":"Ana","bots":[{"seat":1,"level":"boom"}]}`))
	rec := httptest.NewRecorder()
	for i := 0; i < 30; i++ { // the bot panics as soon as it is its turn
		req = httptest.NewRequest("POST", "/api/games", strings.NewReader(
			`{"variant":"fiveup","players":2,"name":"Ana","bots":[{"seat":1,"level":"boom"}]}`))
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 201 {
			break
		}
	}
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"internal"`) {
		t.Fatalf("%d %s, want 500 internal", rec.Code, rec.Body)
	}
	if !strings.Contains(logs.String(), "bot exploded") {
		t.Errorf("the panic is not logged")
	}
}
