package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
	"tessera/functions/store/storetest"
	"tessera/internal/testenv"
)

const (
	keyAna = "ana-key-0123456789abcdefghijklmnop" // 34 characters
	keyBea = "bea_key_ABCDEFGHIJKLMNOPQRSTUV"     // 30
)

// meJSON is GET /api/me.
type meJSON struct {
	Games []struct {
		ID        string    `json:"id"`
		Seat      int       `json:"seat"`
		Variant   string    `json:"variant"`
		Status    string    `json:"status"`
		YourTurn  bool      `json:"yourTurn"`
		Names     []*string `json:"names"`
		Scores    []int     `json:"scores"`
		Deadline  *string   `json:"deadline"`
		UpdatedAt string    `json:"updatedAt"`
		Previous  *string   `json:"previous"`
	} `json:"games"`
}

func (s *server) me(key string) meJSON {
	s.t.Helper()
	r := s.do("GET", "/api/me", "", key)
	if r.status != 200 {
		s.t.Fatalf("GET /api/me: %d %s", r.status, r.body)
	}
	var m meJSON
	if err := json.Unmarshal(r.body, &m); err != nil || m.Games == nil {
		s.t.Fatalf("GET /api/me body %s: %v (games must be an array)", r.body, err)
	}
	return m
}

// eachStore runs test on memory, bbolt and DynamoDB (dynalite).
func eachStore(t *testing.T, test func(t *testing.T, st store.Store)) {
	for _, rs := range raceStores[:3] {
		t.Run(rs.name, func(t *testing.T) {
			st, _ := rs.open(t)
			test(t, st)
		})
	}
}

func TestAKeyIsTheSeatToken(t *testing.T) { eachStore(t, testAKeyIsTheSeatToken) }

func testAKeyIsTheSeatToken(t *testing.T, st store.Store) {
	s := newServer(t, st, 101)
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":3,"name":"Ana","key":"`+keyAna+`"}`, "")
	var created seatAnswerJSON
	if r.status != 201 || json.Unmarshal(r.body, &created) != nil || created.Token != keyAna {
		t.Fatalf("create with a key: %d %s; want 201 with the key as token", r.status, r.body)
	}
	id := mustView(t, created.Game).ID
	if v := s.poll(id, keyAna); v.You == nil || v.You.Seat != 0 {
		t.Fatalf("the key does not read seat 0: %+v", v.You)
	}
	r = s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, "")
	var joined seatAnswerJSON
	if r.status != 201 || json.Unmarshal(r.body, &joined) != nil || joined.Token != keyBea || joined.Seat != 1 {
		t.Fatalf("join with a key: %d %s", r.status, r.body)
	}
	before := s.stored(id)
	// A retry, whatever it says, is the same seat, 200, and changes nothing.
	for _, body := range []string{`{"name":"Bea","key":"` + keyBea + `"}`, `{"name":"Someone else","seat":2,"key":"` + keyBea + `"}`} {
		r = s.do("POST", "/api/games/"+id+"/seats", body, "")
		var again seatAnswerJSON
		if r.status != 200 || json.Unmarshal(r.body, &again) != nil || again.Seat != 1 || again.Token != keyBea {
			t.Fatalf("retried join %s: %d %s; want 200 with seat 1 and the key", body, r.status, r.body)
		}
		if v := mustView(t, again.Game); v.You == nil || v.You.Seat != 1 || v.Version != before.Version {
			t.Fatalf("retried join's view: %+v", v)
		}
	}
	if after := s.stored(id); after.Version != before.Version {
		t.Fatalf("a retried join changed the game: version %d -> %d", before.Version, after.Version)
	}
	// Filled up, a retry is still 200 (before any 409); another key is game_full.
	s.join(id, `{"name":"Carlo"}`)
	if r = s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, ""); r.status != 200 {
		t.Errorf("retried join on a full table: %d, want 200", r.status)
	}
	if r = s.do("POST", "/api/games/"+id+"/seats", `{"name":"Dan","key":"dan-key-0123456789abcdefghij"}`, ""); codeOf(r) != "game_full" {
		t.Errorf("another key on a full table: %d %s, want game_full", r.status, r.body)
	}
	// Seats taken without a key work as before.
	if v := s.poll(id, keyBea); v.You == nil || v.You.Seat != 1 {
		t.Errorf("Bea's key no longer reads her seat")
	}
}

func TestMalformedKeysAre400(t *testing.T) {
	s := newServer(t, memory.New(), 102)
	id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	for _, key := range []string{
		`"` + strings.Repeat("a", 21) + `"`, `"` + strings.Repeat("a", 65) + `"`, `"abcdefghijklmnopqrstuv+"`,
		`"abcdefghijklmnopqrstu v"`, `"abcdefghijklmnopqrstuvé"`, `42`, `true`, `["` + keyAna + `"]`, `""`,
	} {
		for _, req := range []struct{ path, body string }{
			{"/api/games", `{"variant":"fiveup","name":"Ana","key":` + key + `}`},
			{"/api/games/" + id + "/seats", `{"name":"Bea","key":` + key + `}`},
		} {
			if r := s.do("POST", req.path, req.body, ""); r.status != 400 || codeOf(r) != "bad_request" {
				t.Errorf("POST %s with key %s: %d %s, want 400", req.path, key, r.status, r.body)
			}
		}
	}
	if v := s.poll(id, ""); v.Seats[1].Taken {
		t.Error("a refused join took a seat")
	}
	// A key that is null counts as absent.
	if r := s.do("POST", "/api/games", `{"variant":"fiveup","name":"Ana","key":null}`, ""); r.status != 201 {
		t.Errorf("key null: %d, want 201", r.status)
	}
}

func TestMyGames(t *testing.T) { eachStore(t, testMyGames) }

func testMyGames(t *testing.T, st store.Store) {
	s := newServer(t, st, 103)
	now := fixedNow
	s.h = New(Config{Store: s.store, Rand: seededReader(103), Now: func() time.Time { return now }})
	for _, auth := range []string{"", "short", strings.Repeat("x", 65), "a b c d e f g h i j k l m"} {
		if r := s.do("GET", "/api/me", "", auth); r.status != 401 || codeOf(r) != "unauthorized" {
			t.Errorf("GET /api/me with %q: %d %s, want 401", auth, r.status, r.body)
		}
	}
	r := s.do("GET", "/api/me", "", "", "Authorization", "Basic "+keyAna)
	if r.status != 401 {
		t.Errorf("GET /api/me with Basic: %d, want 401", r.status)
	}
	if m := s.me(keyAna); len(m.Games) != 0 {
		t.Fatalf("a key with no seat: %+v, want no games", m)
	}
	// Ana: a game against a bot (her turn or not), then a game Bea joins.
	r = s.do("POST", "/api/games", `{"variant":"partnership","name":"Ana","key":"`+keyAna+`","bots":[{"seat":1,"level":"easy"},{"seat":2,"level":"easy"},{"seat":3,"level":"easy"}]}`, "")
	var first seatAnswerJSON
	json.Unmarshal(r.body, &first)
	g1 := mustView(t, first.Game)
	now = now.Add(time.Minute)
	r = s.do("POST", "/api/games", `{"variant":"fiveup","players":3,"name":"Ana","key":"`+keyAna+`"}`, "")
	var second seatAnswerJSON
	json.Unmarshal(r.body, &second)
	g2 := mustView(t, second.Game).ID
	now = now.Add(time.Minute)
	s.do("POST", "/api/games/"+g2+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, "")
	// A game Ana only watches is not hers.
	other, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Zed"}`)
	s.poll(other, "")

	m := s.me(keyAna)
	if len(m.Games) != 2 || m.Games[0].ID != g2 || m.Games[1].ID != g1.ID {
		t.Fatalf("Ana's games = %+v, want %s then %s (most recently updated first)", m.Games, g2, g1.ID)
	}
	g := m.Games[0]
	if g.Seat != 0 || g.Variant != "fiveup" || g.Status != "open" || g.YourTurn || len(g.Names) != 3 ||
		g.Names[0] == nil || *g.Names[0] != "Ana" || *g.Names[1] != "Bea" || g.Names[2] != nil ||
		len(g.Scores) != 3 || g.Deadline != nil || g.UpdatedAt != fixedNow.Add(2*time.Minute).Format(time.RFC3339) {
		t.Errorf("the open game: %+v", g)
	}
	p := m.Games[1]
	wantTurn := g1.Hand != nil && g1.Hand.Turn != nil && *g1.Hand.Turn == 0
	if p.Variant != "partnership" || p.Status != "playing" || p.YourTurn != wantTurn || len(p.Scores) != 2 {
		t.Errorf("the partnership game: %+v (Ana to play: %v)", p, wantTurn)
	}
	if b := s.me(keyBea); len(b.Games) != 1 || b.Games[0].ID != g2 || b.Games[0].Seat != 1 {
		t.Errorf("Bea's games = %+v", b)
	}
	// A server-drawn seat token is a key too, holding its one seat.
	_, zedToken, _ := s.create(`{"variant":"fiveup","players":2,"name":"Zed"}`)
	if z := s.me(zedToken); len(z.Games) != 0 {
		t.Errorf("a token without a record lists %+v", z)
	}
	if strings.Contains(string(s.do("GET", "/api/me", "", keyAna).body), keyAna) {
		t.Error("/api/me repeats the key")
	}
}

// The record is written before the game: a join whose game save fails
// leaves the game in the key's record, and /api/me, reading the game, does
// not list it; the retry takes the seat, and then it is listed.
func TestARecordWithoutItsSeatIsNotListed(t *testing.T) {
	f := storetest.NewFaulty(memory.New())
	s := newServer(t, f, 104)
	id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	f.FailNextSave(store.ErrUnavailable)
	if r := s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, ""); r.status != 503 {
		t.Fatalf("join with a failing save: %d %s, want 503", r.status, r.body)
	}
	if item, err := f.Inner.Load(context.Background(), game.PlayerID(game.HashToken(keyBea))); err != nil || len(item.State) == 0 {
		t.Fatalf("the record was not written first: %v", err)
	}
	if m := s.me(keyBea); len(m.Games) != 0 {
		t.Fatalf("a game whose seat was never taken is listed: %+v", m)
	}
	if r := s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, ""); r.status != 201 {
		t.Fatalf("the retried join: %d %s", r.status, r.body)
	}
	if m := s.me(keyBea); len(m.Games) != 1 || m.Games[0].ID != id || m.Games[0].Seat != 1 {
		t.Fatalf("after the retry: %+v", m)
	}
}

// 32 identical keyed joins at once take exactly one seat, on every store.
func TestConcurrentKeyedJoinsTakeOneSeat(t *testing.T) {
	for _, rs := range raceStores {
		t.Run(rs.name, func(t *testing.T) {
			st, arm := rs.open(t)
			s := tickingServer(t, st, 105)
			id, _, _ := s.create(`{"variant":"fiveup","players":4,"name":"Ana"}`)
			arm()
			answers := parallel(s, raceMoves, func(int) (string, string, string, string) {
				return "POST", "/api/games/" + id + "/seats", `{"name":"Bea","key":"` + keyBea + `"}`, ""
			})
			created, seats := 0, map[int]bool{}
			for _, r := range answers {
				var a seatAnswerJSON
				if (r.status != 200 && r.status != 201) || json.Unmarshal(r.body, &a) != nil || a.Token != keyBea {
					t.Fatalf("a join answered %d %s\nlogs: %s", r.status, r.body, s.logs.String())
				}
				if r.status == 201 {
					created++
				}
				seats[a.Seat] = true
			}
			v := s.poll(id, "")
			taken := 0
			for _, seat := range v.Seats {
				if seat.Taken {
					taken++
				}
			}
			if created != 1 || len(seats) != 1 || taken != 2 || v.Version != 2 {
				t.Fatalf("%d answers 201, seats %v, %d seats taken, version %d; want one seat taken once", created, seats, taken, v.Version)
			}
			if m := s.me(keyBea); len(m.Games) != 1 {
				t.Fatalf("my games = %+v", m)
			}
		})
	}
}

// A key with 100 games that takes a seat in one more keeps the game it
// joined first when that game was updated most recently: a full record
// drops the game updated least recently (attack kit D5).
func TestAFullRecordKeepsTheMostRecentlyUpdatedGames(t *testing.T) {
	clock := &testenv.Clock{T: fixedNow}
	st := memory.New()
	s := &server{t: t, store: st, logs: &logBuffer{}}
	s.h = New(Config{Store: st, Now: clock.Now, Rand: seededReader(5), Logger: slog.New(slog.NewJSONHandler(s.logs, nil))})
	var ids []string
	for i := 0; i < game.MaxPlayerGames; i++ {
		clock.Add(time.Minute)
		id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `"}`)
		ids = append(ids, id)
	}
	// The first game is joined by Bea, which writes it: the most recent.
	clock.Add(time.Minute)
	s.join(ids[0], `{"name":"Bea"}`)
	clock.Add(time.Minute)
	extra, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `"}`)
	listed := map[string]bool{}
	for _, g := range s.me(keyAna).Games {
		listed[g.ID] = true
	}
	if len(listed) != game.MaxPlayerGames || !listed[extra] || !listed[ids[0]] || listed[ids[1]] {
		t.Fatalf("%d listed; the new %v, the first joined (updated last) %v, the least recently updated %v",
			len(listed), listed[extra], listed[ids[0]], listed[ids[1]])
	}
}

// API.md: /api/me lists the games "most recently updated first", whoever
// updated them. A key seated in 130 games (its record keeps the 100 it
// joined last) whose oldest game just got the other seat's move sees that
// game first, as does the key that moved, on every store.
func TestMyGamesFollowEveryonesChanges(t *testing.T) { eachStore(t, testMyGamesFollowEveryonesChanges) }

func testMyGamesFollowEveryonesChanges(t *testing.T, st store.Store) {
	clock := &testenv.Clock{T: fixedNow}
	s := &server{t: t, store: st, logs: &logBuffer{}}
	s.h = New(Config{Store: st, Now: clock.Now, Rand: seededReader(7), Logger: slog.New(slog.NewJSONHandler(s.logs, nil))})
	const games = 130
	var ids []string
	for range games {
		clock.Add(time.Minute)
		id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `"}`)
		s.join(id, `{"name":"Bea","key":"`+keyBea+`"}`)
		ids = append(ids, id)
	}
	for _, key := range []string{keyAna, keyBea} {
		if listed := s.me(key).Games; len(listed) != game.MaxPlayerGames || listed[0].ID != ids[games-1] {
			t.Fatalf("before: %d listed, first %s; want %d, the last joined %s", len(listed), listed[0].ID, game.MaxPlayerGames, ids[games-1])
		}
	}
	// The oldest game in which Bea is to play: she plays, and it is Ana's turn.
	for _, id := range ids {
		body, token, ok := nextMove(t, s, id, []string{keyAna, keyBea}, 0)
		if !ok || token != keyBea {
			continue
		}
		clock.Add(time.Minute)
		if r := s.do("POST", "/api/games/"+id+"/moves", body, token); r.status != 200 {
			t.Fatalf("Bea's move: %d %s", r.status, r.body)
		}
		for _, key := range []string{keyAna, keyBea} {
			listed := s.me(key).Games
			if len(listed) != game.MaxPlayerGames || listed[0].ID != id {
				t.Fatalf("after a move in %s (joined %d of %d): %d listed, first %s; want it first", id, slices.Index(ids, id)+1, games, len(listed), listed[0].ID)
			}
			if key == keyAna && !listed[0].YourTurn {
				t.Fatalf("Ana's first game %s is not her turn", id)
			}
		}
		return
	}
	t.Fatal("Bea is to play in none of the games")
}

// 16 creates at once with one key all succeed and all are listed: adding
// a game to a key's record commutes, so losing races never makes it 503
// (attack kit D3), on every store.
func TestConcurrentKeyedCreatesAllSucceed(t *testing.T) {
	for _, rs := range raceStores {
		t.Run(rs.name, func(t *testing.T) {
			st, _ := rs.open(t)
			s := tickingServer(t, st, 106)
			answers := parallel(s, 16, func(int) (string, string, string, string) {
				return "POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `"}`, ""
			})
			for _, r := range answers {
				if r.status != 201 {
					t.Fatalf("a keyed create answered %d %s", r.status, r.body)
				}
			}
			if m := s.me(keyAna); len(m.Games) != 16 {
				t.Fatalf("my games lists %d, want 16", len(m.Games))
			}
		})
	}
}

// tickingServer is a server whose every request stamps its own time, as a
// real clock does: the DynamoDB adapter takes a failed condition whose
// stored item is byte for byte its own write for its own retry
// (store/dynamo).
func tickingServer(t *testing.T, st store.Store, seed uint64) *server {
	s := newServer(t, st, seed)
	var mu sync.Mutex
	tick := fixedNow
	s.h = New(Config{Store: st, Rand: seededReader(seed), Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		tick = tick.Add(time.Microsecond)
		return tick
	}})
	return s
}

// /api/me says who the computer plays for and when a game waits because
// every person is away (additions `away` and `paused`), as the views do.
func TestMyGamesSayWhoIsAwayAndWhenAGameIsPaused(t *testing.T) {
	s := newServer(t, newMemoryStore(), 31)
	id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `"}`)
	s.join(id, `{"name":"Bea","key":"`+keyBea+`"}`)
	type meJSON struct {
		Games []struct {
			ID     string `json:"id"`
			Seat   int    `json:"seat"`
			Away   []bool `json:"away"`
			Paused bool   `json:"paused"`
		} `json:"games"`
	}
	mine := func(key string) (away []bool, paused bool) {
		t.Helper()
		r := s.do("GET", "/api/me", "", key)
		var m meJSON
		if r.status != 200 || json.Unmarshal(r.body, &m) != nil || len(m.Games) != 1 {
			t.Fatalf("GET /api/me: %d %s", r.status, r.body)
		}
		return m.Games[0].Away, m.Games[0].Paused
	}
	away := func(key, kind string) {
		t.Helper()
		v := s.poll(id, key)
		if r := s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(v.Version)+`,"type":"`+kind+`"}`, key); r.status != 200 {
			t.Fatalf("%s: %d %s", kind, r.status, r.body)
		}
	}
	if a, p := mine(keyAna); !slices.Equal(a, []bool{false, false}) || p {
		t.Errorf("at the start: away %v, paused %v", a, p)
	}
	away(keyBea, "away")
	if a, p := mine(keyAna); !slices.Equal(a, []bool{false, true}) || p {
		t.Errorf("Bea away: away %v, paused %v; want Bea's seat away, not paused", a, p)
	}
	away(keyAna, "away")
	for _, k := range []string{keyAna, keyBea} {
		if a, p := mine(k); !slices.Equal(a, []bool{true, true}) || !p {
			t.Errorf("both away: away %v, paused %v; want paused", a, p)
		}
	}
	away(keyBea, "back")
	if a, p := mine(keyBea); !slices.Equal(a, []bool{true, false}) || p {
		t.Errorf("Bea back: away %v, paused %v", a, p)
	}
}
