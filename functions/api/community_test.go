package api

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/functions/community"
	"tessera/functions/game"
	"tessera/functions/store"
)

// API.md "Community": profiles, ratings, open tables, leaderboards, on
// memory, bbolt and DynamoDB (dynalite).

// movableServer is a server whose clock the test moves.
func movableServer(t *testing.T, st store.Store, seed uint64) (*server, func(time.Duration)) {
	s := newServer(t, st, seed)
	var mu sync.Mutex
	now := fixedNow
	s.h = New(Config{Store: st, Rand: seededReader(seed), Logger: slog.New(slog.NewJSONHandler(s.logs, nil)), Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Microsecond) // every write at its own time
		return now
	}})
	return s, func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
}

// roomView is what the tests read of the room's additions to a view.
type roomView struct {
	Version int64  `json:"version"`
	Status  string `json:"status"`
	Open    bool   `json:"open"`
	Rated   bool   `json:"rated"`
	Winner  *int   `json:"winner"`
	Seats   []struct {
		Player      *string `json:"player"`
		Rating      *int    `json:"rating"`
		RatingAfter *int    `json:"ratingAfter"`
		Provisional bool    `json:"provisional"`
	} `json:"seats"`
}

func (s *server) room(id, token string) roomView {
	s.t.Helper()
	r := s.do("GET", "/api/games/"+id, "", token)
	var v roomView
	if r.status != 200 || json.Unmarshal(r.body, &v) != nil {
		s.t.Fatalf("poll: %d %s", r.status, r.body)
	}
	return v
}

type profileJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Since   string `json:"since"`
	Ratings map[string]struct {
		Rating      int     `json:"rating"`
		Mu          float64 `json:"mu"`
		Sigma       float64 `json:"sigma"`
		Games       int     `json:"games"`
		Wins        int     `json:"wins"`
		Provisional bool    `json:"provisional"`
	} `json:"ratings"`
	Finished    int               `json:"finished"`
	Timeouts    int               `json:"timeouts"`
	Reliability *int              `json:"reliability"`
	Trophies    []json.RawMessage `json:"trophies"`
	Recent      []struct {
		Game   string `json:"game"`
		Pool   string `json:"pool"`
		Rank   int    `json:"rank"`
		Before int    `json:"before"`
		After  int    `json:"after"`
	} `json:"recent"`
}

func (s *server) profile(id string) profileJSON {
	s.t.Helper()
	r := s.do("GET", "/api/players/"+id, "", "")
	var p profileJSON
	if r.status != 200 || json.Unmarshal(r.body, &p) != nil {
		s.t.Fatalf("GET /api/players/%s: %d %s", id, r.status, r.body)
	}
	return p
}

// playerOf is the player id of key, from GET /api/me.
func (s *server) playerOf(key string) string {
	s.t.Helper()
	r := s.do("GET", "/api/me", "", key)
	var m struct {
		Player *struct {
			ID string `json:"id"`
		} `json:"player"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &m) != nil || m.Player == nil {
		s.t.Fatalf("GET /api/me: %d %s (want a player)", r.status, r.body)
	}
	return m.Player.ID
}

// key returns a well-formed player key for name.
func testKey(name string) string { return fmt.Sprintf("%s-key-%s", name, strings.Repeat("x", 24)) }

// awayAll makes every token's seat away in turn: in an open game the
// computer then plays on to the end, in the request of the last one.
func (s *server) awayAll(id string, tokens []string) {
	s.t.Helper()
	for _, tok := range tokens {
		v := s.room(id, tok)
		if v.Status == "finished" {
			return
		}
		r := s.do("POST", "/api/games/"+id+"/moves", fmt.Sprintf(`{"version":%d,"type":"away"}`, v.Version), tok)
		if r.status != 200 {
			s.t.Fatalf("away: %d %s", r.status, r.body)
		}
	}
}

// openDuel creates an open game of two (rated or not) by key a and seats
// key b in it; it returns the id and both tokens.
func (s *server) openDuel(a, b string, rated bool) (string, []string) {
	s.t.Helper()
	// A small target for the matches played to the end by computers; a
	// rated one starts at 0 and cannot end on its first play.
	target := 10
	if rated {
		target = 100
	}
	id, tokA, _ := s.create(fmt.Sprintf(`{"variant":"fiveup","players":2,"target":%d,"name":"A","key":%q,"open":true,"rated":%t,"moveTime":3600}`, target, a, rated))
	_, tokB, _ := s.join(id, fmt.Sprintf(`{"name":"B","key":%q}`, b))
	return id, []string{tokA, tokB}
}

func TestProfiles(t *testing.T) { eachStore(t, testProfiles) }

func testProfiles(t *testing.T, st store.Store) {
	s, _ := movableServer(t, st, 301)
	ana := testKey("ana")
	// No profile before a seat or a name.
	if r := s.do("GET", "/api/me", "", ana); r.status != 200 || !strings.Contains(string(r.body), `"player":null`) || !strings.Contains(string(r.body), `"leagues":[]`) {
		t.Fatalf("GET /api/me of a new key: %d %s", r.status, r.body)
	}
	// Bad input first (400), then the key (401).
	for body, want := range map[string]int{`{"name":" "}`: 400, `{"name":"a\u0007"}`: 400, `{}`: 400, `{"name":"Ana","x":1}`: 400, `not json`: 400} {
		if r := s.do("PUT", "/api/me/profile", body, ana); r.status != want {
			t.Errorf("PUT profile %s: %d, want %d", body, r.status, want)
		}
	}
	if r := s.do("PUT", "/api/me/profile", `{"name":"Ana"}`, ""); r.status != 401 {
		t.Errorf("PUT profile without a key: %d, want 401", r.status)
	}
	if r := s.do("GET", "/api/me/profile", "", ana); r.status != 405 {
		t.Errorf("GET /api/me/profile: %d, want 405", r.status)
	}
	// A seat makes the profile, named after the seat.
	id, tok, _ := s.create(`{"variant":"fiveup","players":2,"name":"Anna","key":"` + ana + `"}`)
	pid := s.playerOf(ana)
	if !game.ValidGameID(pid) || strings.Contains(pid, ana) || strings.Contains(pid, fmt.Sprintf("%x", game.HashToken(ana))[:10]) {
		t.Errorf("player id %q: want a random id, unlike the key", pid)
	}
	if p := s.profile(pid); p.Name != "Anna" || p.Finished != 0 || p.Reliability != nil || len(p.Ratings) != 0 || p.Trophies == nil || p.Recent == nil {
		t.Errorf("new profile: %+v", p)
	}
	// The view names the seat's player; a spectator sees it too (public).
	if v := s.room(id, ""); v.Seats[0].Player == nil || *v.Seats[0].Player != pid || v.Seats[1].Player != nil || v.Open || v.Rated || v.Seats[0].Rating != nil {
		t.Errorf("spectator view seats: %+v open %v rated %v", v.Seats, v.Open, v.Rated)
	}
	_ = tok
	// A name set wins over later seats' names; the id never changes.
	r := s.do("PUT", "/api/me/profile", `{"name":"  Ana  "}`, ana)
	var pr struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Since    string `json:"since"`
		Vacation struct {
			BudgetDays int     `json:"budgetDays"`
			Until      *string `json:"until"`
		} `json:"vacation"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &pr) != nil || pr.ID != pid || pr.Name != "Ana" || pr.Since == "" || pr.Vacation.BudgetDays != 7 {
		t.Fatalf("PUT profile: %d %s", r.status, r.body)
	}
	s.create(`{"variant":"fiveup","players":2,"name":"Other","key":"` + ana + `"}`)
	if p := s.profile(pid); p.Name != "Ana" || s.playerOf(ana) != pid {
		t.Errorf("after a seat named Other: %q, id %q", p.Name, s.playerOf(ana))
	}
	// A key that only set a name has a profile too.
	bea := testKey("bea")
	if r := s.do("PUT", "/api/me/profile", `{"name":"Bea"}`, bea); r.status != 200 {
		t.Fatalf("PUT profile: %d", r.status)
	}
	if p := s.profile(s.playerOf(bea)); p.Name != "Bea" {
		t.Errorf("Bea's profile: %+v", p)
	}
	for _, bad := range []string{"nobody1234567890", "x", "profile-" + pid} {
		if r := s.do("GET", "/api/players/"+bad, "", ""); r.status != 404 {
			t.Errorf("GET /api/players/%s: %d, want 404", bad, r.status)
		}
	}
	if r := s.do("POST", "/api/players/"+pid, "{}", ""); r.status != 405 {
		t.Errorf("POST /api/players/{id}: %d, want 405", r.status)
	}
}

func TestOpenTablesAndTheLobby(t *testing.T) { eachStore(t, testOpenTablesAndTheLobby) }

func testOpenTablesAndTheLobby(t *testing.T, st store.Store) {
	s, advance := movableServer(t, st, 302)
	ana, bea := testKey("ana"), testKey("bea")
	bad := map[string]string{
		"open without a key":     `{"variant":"fiveup","name":"A","open":true,"moveTime":3600}`,
		"open without a clock":   `{"variant":"fiveup","name":"A","open":true,"key":"` + ana + `"}`,
		"rated but not open":     `{"variant":"fiveup","name":"A","rated":true,"key":"` + ana + `","moveTime":3600}`,
		"rated with a computer":  `{"variant":"fiveup","players":2,"name":"A","open":true,"rated":true,"key":"` + ana + `","moveTime":3600,"bots":[{"seat":1,"level":"easy"}]}`,
		"rated block (no pool)":  `{"variant":"block","name":"A","open":true,"rated":true,"key":"` + ana + `","moveTime":3600}`,
		"open is not a boolean":  `{"variant":"fiveup","name":"A","open":1,"key":"` + ana + `","moveTime":3600}`,
		"rated is not a boolean": `{"variant":"fiveup","name":"A","open":true,"rated":"yes","key":"` + ana + `","moveTime":3600}`,
	}
	for what, body := range bad {
		if r := s.do("POST", "/api/games", body, ""); r.status != 400 {
			t.Errorf("%s: %d %s, want 400", what, r.status, r.body)
		}
	}
	// A new key may not create or join a rated game: 409 not_eligible, saying how many more.
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"A","open":true,"rated":true,"key":"`+ana+`","moveTime":3600}`, "")
	if e := mustError(t, r); r.status != 409 || e.Error.Code != "not_eligible" || !strings.Contains(e.Error.Message, "3 more") {
		t.Errorf("rated create by a new key: %d %s", r.status, r.body)
	}
	// Three open games wait; a fourth is 409 limit_reached.
	var ids []string
	for i := range 3 {
		id, _, v := s.create(fmt.Sprintf(`{"variant":"fiveup","players":%d,"name":"Ana","key":%q,"open":true,"moveTime":3600}`, 2+i%2, ana))
		ids = append(ids, id)
		if v.Status != "open" {
			t.Fatalf("open game status %s", v.Status)
		}
	}
	r = s.do("POST", "/api/games", `{"variant":"fiveup","name":"A","open":true,"key":"`+ana+`","moveTime":3600}`, "")
	if e := mustError(t, r); r.status != 409 || e.Error.Code != "limit_reached" {
		t.Errorf("a fourth open game: %d %s", r.status, r.body)
	}
	// A game with a friend is not limited.
	s.create(`{"variant":"fiveup","name":"Ana","key":"` + ana + `"}`)
	// The lobby: newest first, with seats, ratings null in unrated games.
	type lobby struct {
		Games []struct {
			ID        string          `json:"id"`
			Variant   string          `json:"variant"`
			Options   json.RawMessage `json:"options"`
			Rated     bool            `json:"rated"`
			CreatedAt string          `json:"createdAt"`
			Seats     []struct {
				Seat        int     `json:"seat"`
				Taken       bool    `json:"taken"`
				Name        *string `json:"name"`
				Player      *string `json:"player"`
				Rating      *int    `json:"rating"`
				Reliability *int    `json:"reliability"`
			} `json:"seats"`
		} `json:"games"`
		Tournaments []json.RawMessage `json:"tournaments"`
	}
	read := func(q string) lobby {
		t.Helper()
		var l lobby
		r := s.do("GET", "/api/lobby"+q, "", "")
		if r.status != 200 || json.Unmarshal(r.body, &l) != nil || l.Games == nil || l.Tournaments == nil {
			t.Fatalf("GET /api/lobby%s: %d %s", q, r.status, r.body)
		}
		return l
	}
	l := read("")
	if len(l.Games) != 3 || l.Games[0].ID != ids[2] || l.Games[2].ID != ids[0] {
		t.Fatalf("lobby: %s", mustJSON(l))
	}
	g := l.Games[0]
	if g.Variant != "fiveup" || g.Rated || g.CreatedAt == "" || !strings.Contains(string(g.Options), `"moveTime":3600`) || len(g.Seats) != 2 ||
		!g.Seats[0].Taken || *g.Seats[0].Name != "Ana" || *g.Seats[0].Player != s.playerOf(ana) || g.Seats[0].Rating != nil || g.Seats[1].Taken || g.Seats[1].Name != nil {
		t.Errorf("lobby entry: %s", mustJSON(g))
	}
	for q, want := range map[string]int{"?variant=fiveup": 3, "?variant=partnership": 0, "?rated=true": 0, "?rated=false": 3, "?variant=fiveup&rated=false": 3} {
		if got := len(read(q).Games); got != want {
			t.Errorf("lobby%s: %d games, want %d", q, got, want)
		}
	}
	if got := len(read("?variant=fiveup&_=123").Games); got != 3 {
		t.Errorf("lobby with a cache buster: %d games, want 3", got)
	}
	for _, q := range []string{"?variant=chess", "?rated=yes", "?rated=", "?variant="} {
		if r := s.do("GET", "/api/lobby"+q, "", ""); r.status != 400 {
			t.Errorf("lobby%s: %d, want 400", q, r.status)
		}
	}
	// Taking a seat needs a key; once full, the game leaves the room.
	if r := s.do("POST", "/api/games/"+ids[0]+"/seats", `{"name":"Bea"}`, ""); r.status != 400 {
		t.Errorf("a seat without a key in an open game: %d %s", r.status, r.body)
	}
	s.join(ids[0], `{"name":"Bea","key":"`+bea+`"}`)
	if l := read(""); len(l.Games) != 2 || l.Games[1].ID != ids[1] {
		t.Errorf("after the first game filled: %s", mustJSON(l))
	}
	if v := s.room(ids[0], ""); !v.Open || v.Rated || v.Status != "playing" {
		t.Errorf("the full open game: %+v", v)
	}
	// Seven days later the games still waiting leave the room; they stay
	// playable by link.
	advance(community.RoomStay + time.Minute)
	if l := read(""); len(l.Games) != 0 {
		t.Errorf("after 7 days: %s", mustJSON(l))
	}
	s.join(ids[1], `{"name":"Bea","key":"`+bea+`"}`)
}

// TestRatedPlay: after three finished matches a key may play rated; a
// rated match's end changes both ratings exactly once (retries and sweeps
// change nothing more), shows on the table, the profile, and after ten on
// the leaderboard.
func TestRatedPlay(t *testing.T) { eachStore(t, testRatedPlay) }

func testRatedPlay(t *testing.T, st store.Store) {
	s, _ := movableServer(t, st, 303)
	ana, bea := testKey("ana"), testKey("bea")
	for range 3 {
		id, toks := s.openDuel(ana, bea, false)
		s.awayAll(id, toks)
		if v := s.room(id, ""); v.Status != "finished" {
			t.Fatalf("an open game where everyone is away did not play on to its end: %+v", v)
		}
	}
	pa, pb := s.playerOf(ana), s.playerOf(bea)
	if p := s.profile(pa); p.Finished != 3 || p.Timeouts != 0 || p.Reliability == nil || *p.Reliability != 100 || len(p.Ratings) != 0 {
		t.Fatalf("after 3 unrated matches: %+v", p)
	}
	id, toks := s.openDuel(ana, bea, true)
	if v := s.room(id, toks[0]); !v.Rated || *v.Seats[0].Rating != 1500 || *v.Seats[1].Rating != 1500 || v.Seats[0].RatingAfter != nil ||
		!v.Seats[0].Provisional || !v.Seats[1].Provisional {
		t.Fatalf("rated view at the start: %+v", v)
	}
	s.awayAll(id, toks)
	v := s.room(id, "")
	if v.Status != "finished" || v.Seats[0].RatingAfter == nil || v.Seats[1].RatingAfter == nil {
		t.Fatalf("rated view at the end: %+v", v)
	}
	win, lose := *v.Winner, 1-*v.Winner
	if *v.Seats[win].RatingAfter <= 1500 || *v.Seats[lose].RatingAfter >= 1500 {
		t.Errorf("after: winner %d, loser %d", *v.Seats[win].RatingAfter, *v.Seats[lose].RatingAfter)
	}
	// Retried sweeps and the rematch's save change nothing more.
	for range 3 {
		if _, err := s.h.(*Handler).Service().Sweep(t.Context(), "example.com"); err != nil {
			t.Fatal(err)
		}
		if err := s.h.(*Handler).Service().Settle(t.Context(), "example.com", id); err != nil {
			t.Fatal(err)
		}
	}
	pids := []string{pa, pb}
	for seat, pid := range pids {
		p := s.profile(pid)
		r := p.Ratings["fiveup-duel"]
		wins := 0
		if seat == win {
			wins = 1
		}
		if p.Finished != 4 || r.Games != 1 || r.Wins != wins || !r.Provisional || r.Rating != *v.Seats[seat].RatingAfter ||
			len(p.Recent) != 1 || p.Recent[0].Game != id || p.Recent[0].Before != 1500 || p.Recent[0].After != r.Rating || p.Recent[0].Rank != 1+btoi(seat != win) {
			t.Errorf("seat %d's profile after one rated match: %+v", seat, p)
		}
	}
	// A rematch of a rated open game is rated and open, never listed.
	rr := s.do("POST", "/api/games/"+id+"/rematch", `{}`, toks[0])
	var ra seatAnswerJSON
	if rr.status != 201 || json.Unmarshal(rr.body, &ra) != nil {
		t.Fatalf("rematch: %d %s", rr.status, rr.body)
	}
	next := mustView(t, ra.Game).ID
	if nv := s.room(next, ""); !nv.Open || !nv.Rated || nv.Seats[win].Rating == nil || *nv.Seats[win].Rating != *v.Seats[win].RatingAfter {
		t.Errorf("rematch view: %+v", nv)
	}
	if p := s.profile(pa); p.Finished != 4 {
		t.Errorf("the rematch changed the count: %d", p.Finished)
	}
	// Nine more rated matches: both have ten, and the leaderboard lists them.
	if r := s.do("GET", "/api/leaderboard/fiveup-duel", "", ""); r.status != 200 || !strings.Contains(string(r.body), `"players":[]`) {
		t.Errorf("leaderboard before ten matches: %d %s", r.status, r.body)
	}
	s.awayAll(next, toks)
	for range 8 {
		id, toks := s.openDuel(ana, bea, true)
		s.awayAll(id, toks)
	}
	var board struct {
		Pool    string `json:"pool"`
		Players []struct {
			Rank   int    `json:"rank"`
			Player string `json:"player"`
			Name   string `json:"name"`
			Rating int    `json:"rating"`
			Games  int    `json:"games"`
			Wins   int    `json:"wins"`
		} `json:"players"`
	}
	for range 50 {
		r := s.do("GET", "/api/leaderboard/fiveup-duel", "", "")
		if r.status != 200 || json.Unmarshal(r.body, &board) != nil {
			t.Fatalf("leaderboard: %d %s", r.status, r.body)
		}
		if len(board.Players) == 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if board.Pool != "fiveup-duel" || len(board.Players) != 2 || board.Players[0].Rank != 1 || board.Players[1].Rank != 2 {
		t.Fatalf("leaderboard after ten: %+v", board)
	}
	for _, row := range board.Players {
		p := s.profile(row.Player)
		r := p.Ratings["fiveup-duel"]
		if row.Games != 10 || r.Games != 10 || r.Provisional || row.Rating != r.Rating || row.Wins != r.Wins || row.Name != p.Name {
			t.Errorf("row %+v, profile %+v", row, r)
		}
	}
	a, b := s.profile(board.Players[0].Player).Ratings["fiveup-duel"], s.profile(board.Players[1].Player).Ratings["fiveup-duel"]
	if a.Mu-3*a.Sigma < b.Mu-3*b.Sigma {
		t.Errorf("the leaderboard is not by μ − 3σ: %+v before %+v", a, b)
	}
	// After ten rated matches a rating is no longer provisional: in the
	// lobby's entry and on the table (it was before: the first rated view).
	tid, tok, _ := s.create(`{"variant":"fiveup","players":2,"target":100,"name":"A","key":"` + ana + `","open":true,"rated":true,"moveTime":3600}`)
	lr := s.do("GET", "/api/lobby?rated=true", "", "")
	if lr.status != 200 || !strings.Contains(string(lr.body), `"id":"`+tid+`"`) ||
		!regexp.MustCompile(`"rating":\d+,"reliability":\d+,"provisional":false`).Match(lr.body) {
		t.Errorf("the lobby entry of a player with ten rated matches: %s", lr.body)
	}
	if v := s.room(tid, tok); v.Seats[0].Rating == nil || v.Seats[0].Provisional {
		t.Errorf("the table of a player with ten rated matches: %+v", v.Seats[0])
	}
	for _, pool := range []string{"nothing", "block"} {
		if r := s.do("GET", "/api/leaderboard/"+pool, "", ""); r.status != 404 {
			t.Errorf("leaderboard %s: %d, want 404", pool, r.status)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// eligiblePair has keys a and b finish three unrated matches together.
func (s *server) eligiblePair(a, b string) {
	s.t.Helper()
	for range 3 {
		id, toks := s.openDuel(a, b, false)
		s.awayAll(id, toks)
	}
}

// settleAll sweeps until no game waits to be settled (a settling that lost
// too many races is the sweep's).
func (s *server) settleAll() {
	s.t.Helper()
	for range 5 {
		if _, err := s.h.(*Handler).Service().Sweep(s.t.Context(), "example.com"); err != nil {
			s.t.Fatal(err)
		}
	}
}

// TestConcurrentEndingsCountOnce: 32 rated matches of one player end at
// the same moment (each in the request of its last "away"); every one is
// counted once in both players' profiles and the leaderboard.
func TestConcurrentEndingsCountOnce(t *testing.T) { eachStore(t, testConcurrentEndingsCountOnce) }

func testConcurrentEndingsCountOnce(t *testing.T, st store.Store) {
	s, _ := movableServer(t, st, 304)
	ana, bea := testKey("ana"), testKey("bea")
	s.eligiblePair(ana, bea)
	const n = raceMoves
	ids, toks := make([]string, n), make([][]string, n)
	for i := range n {
		ids[i], toks[i] = s.openDuel(ana, bea, true)
		s.awayAll(ids[i], toks[i][:1]) // Ana away: the computer plays her turns
	}
	answers := parallel(s, n, func(i int) (string, string, string, string) {
		v := s.room(ids[i], toks[i][1])
		return "POST", "/api/games/" + ids[i] + "/moves", fmt.Sprintf(`{"version":%d,"moveId":"end","type":"away"}`, v.Version), toks[i][1]
	})
	// The same requests again: retries of an ending change nothing.
	again := parallel(s, n, func(i int) (string, string, string, string) {
		return "POST", "/api/games/" + ids[i] + "/moves", `{"version":1,"moveId":"end","type":"away"}`, toks[i][1]
	})
	for i, r := range append(answers, again...) {
		if r.status != 200 {
			t.Fatalf("ending %d: %d %s", i, r.status, r.body)
		}
	}
	s.settleAll()
	wins := 0
	for i, id := range ids {
		v := s.room(id, "")
		if v.Status != "finished" || v.Seats[0].RatingAfter == nil {
			t.Fatalf("game %d: %+v", i, v)
		}
		if *v.Winner == 0 {
			wins++
		}
	}
	pa, pb := s.profile(s.playerOf(ana)), s.profile(s.playerOf(bea))
	ra, rb := pa.Ratings["fiveup-duel"], pb.Ratings["fiveup-duel"]
	if pa.Finished != 3+n || pb.Finished != 3+n || ra.Games != n || rb.Games != n || ra.Wins != wins || rb.Wins != n-wins ||
		len(pa.Recent) != community.MaxRecent || len(pb.Recent) != community.MaxRecent {
		t.Errorf("after %d endings (Ana won %d): Ana %d finished, %+v; Bea %d finished, %+v", n, wins, pa.Finished, ra, pb.Finished, rb)
	}
	seen := map[string]bool{}
	for _, r := range pa.Recent {
		if seen[r.Game] {
			t.Errorf("game %s listed twice in recent", r.Game)
		}
		seen[r.Game] = true
	}
}

// TestACrashBetweenTheEndAndItsSettlingLosesNothing: the request that
// ends a rated match dies after its save (AfterEnd panics, as a killed
// process would stop there); the profiles are unchanged until the sweep,
// which settles the match once.
func TestACrashBetweenTheEndAndItsSettlingLosesNothing(t *testing.T) {
	eachStore(t, testACrashBetweenTheEndAndItsSettlingLosesNothing)
}

func testACrashBetweenTheEndAndItsSettlingLosesNothing(t *testing.T, st store.Store) {
	s, _ := movableServer(t, st, 305)
	ana, bea := testKey("ana"), testKey("bea")
	s.eligiblePair(ana, bea)
	id, toks := s.openDuel(ana, bea, true)
	var crashes int
	var mu sync.Mutex
	h := s.h.(*Handler)
	s.h = New(Config{Store: st, Rand: seededReader(306), Now: h.svc.Now, AfterEnd: func(string) {
		mu.Lock()
		crashes++
		mu.Unlock()
		panic("the process dies here")
	}})
	s.awayAll(id, toks[:1])
	v := s.room(id, toks[1])
	if r := s.do("POST", "/api/games/"+id+"/moves", fmt.Sprintf(`{"version":%d,"type":"away"}`, v.Version), toks[1]); r.status != 500 {
		t.Fatalf("the dying request answered %d %s", r.status, r.body)
	}
	if crashes != 1 {
		t.Fatalf("AfterEnd ran %d times", crashes)
	}
	pa := s.profile(s.playerOf(ana))
	if v := s.room(id, ""); v.Status != "finished" || pa.Finished != 3 || len(pa.Ratings) != 0 {
		t.Fatalf("after the crash: game %s, Ana finished %d, ratings %+v", v.Status, pa.Finished, pa.Ratings)
	}
	// A new process: the sweep settles the match, once.
	s.h = h
	s.settleAll()
	s.settleAll()
	end := s.room(id, "")
	for i, key := range []string{ana, bea} {
		p := s.profile(s.playerOf(key))
		r := p.Ratings["fiveup-duel"]
		if p.Finished != 4 || r.Games != 1 || r.Rating != *end.Seats[i].RatingAfter || len(p.Recent) != 1 {
			t.Errorf("seat %d after the sweep: finished %d, %+v, recent %d", i, p.Finished, r, len(p.Recent))
		}
	}
}

// A key that has not finished three matches may not sit at a rated table
// (409 not_eligible, nothing taken); a seat that ran out of time counts in
// its player's timeouts and reliability.
func TestEligibilityAndReliability(t *testing.T) { eachStore(t, testEligibilityAndReliability) }

func testEligibilityAndReliability(t *testing.T, st store.Store) {
	s, advance := movableServer(t, st, 307)
	ana, bea, cy := testKey("ana"), testKey("bea"), testKey("cy")
	s.eligiblePair(ana, bea)
	id, _, _ := s.create(`{"variant":"fiveup","players":3,"name":"Ana","key":"` + ana + `","open":true,"rated":true,"moveTime":3600}`)
	r := s.do("POST", "/api/games/"+id+"/seats", `{"name":"Cy","key":"`+cy+`"}`, "")
	if e := mustError(t, r); r.status != 409 || e.Error.Code != "not_eligible" {
		t.Fatalf("a new key at a rated table: %d %s", r.status, r.body)
	}
	if v := s.room(id, ""); v.Seats[1].Player != nil || v.Version != 1 {
		t.Errorf("the refused seat changed the game: %+v", v)
	}
	// Cy and Bea in an open game: Cy's time runs out, then Bea goes away.
	g, tokCy, _ := s.create(`{"variant":"fiveup","players":2,"target":100,"name":"Cy","key":"` + cy + `","open":true,"moveTime":3600}`)
	_, tokBea, _ := s.join(g, `{"name":"Bea","key":"`+bea+`"}`)
	advance(2 * time.Hour)
	s.awayAll(g, []string{tokBea}) // a request: the overdue seat times out first
	if v := s.room(g, ""); v.Status != "finished" {
		// Bea was the one to act: her time ran out; Cy goes away.
		s.awayAll(g, []string{tokCy})
	}
	if v := s.room(g, ""); v.Status != "finished" {
		t.Fatalf("the open game did not end: %+v", v)
	}
	late := 0
	for _, key := range []string{cy, bea} {
		p := s.profile(s.playerOf(key))
		late += p.Timeouts
		if p.Reliability == nil || *p.Reliability != (100*(p.Finished-p.Timeouts)+p.Finished/2)/p.Finished {
			t.Errorf("%s: finished %d, timeouts %d, reliability %v", p.Name, p.Finished, p.Timeouts, p.Reliability)
		}
	}
	if late != 1 {
		t.Errorf("timeouts counted %d, want 1 (the seat that ran out of time)", late)
	}
}

// Trophies (API.md "Trophies"): decided at a match's end, in its finished
// view and on the profile, once per key; a profile names only the games
// that are open (or in a tournament).
func TestTrophies(t *testing.T) { eachStore(t, testTrophies) }

func testTrophies(t *testing.T, st store.Store) {
	s, _ := movableServer(t, st, 308)
	ana, bea := testKey("ana"), testKey("bea")
	type trophyView struct {
		Status   string `json:"status"`
		Trophies *[]struct {
			Seat int    `json:"seat"`
			ID   string `json:"id"`
		} `json:"trophies"`
	}
	id, toks := s.openDuel(ana, bea, false)
	var v trophyView
	json.Unmarshal(s.do("GET", "/api/games/"+id, "", "").body, &v)
	if v.Trophies != nil {
		t.Errorf("a match going on shows trophies: %+v", *v.Trophies)
	}
	s.awayAll(id, toks)
	json.Unmarshal(s.do("GET", "/api/games/"+id, "", "").body, &v)
	first := map[int]bool{}
	if v.Status != "finished" || v.Trophies == nil {
		t.Fatalf("finished view: %+v", v)
	}
	for _, tr := range *v.Trophies {
		if tr.ID == "first-match" {
			first[tr.Seat] = true
		}
	}
	if !first[0] || !first[1] {
		t.Errorf("a first match's view: %+v", *v.Trophies)
	}
	p := s.profile(s.playerOf(ana))
	var got map[string]json.RawMessage
	json.Unmarshal(s.do("GET", "/api/players/"+s.playerOf(ana), "", "").body, &got)
	if len(p.Trophies) == 0 || !strings.Contains(string(got["trophies"]), `"id":"first-match"`) || !strings.Contains(string(got["trophies"]), `"game":"`+id+`"`) {
		t.Errorf("Ana's trophies: %s", got["trophies"])
	}
	// A second match: first-match is not given again.
	id2, toks2 := s.openDuel(ana, bea, false)
	s.awayAll(id2, toks2)
	json.Unmarshal(s.do("GET", "/api/games/"+id2, "", "").body, &v)
	for _, tr := range *v.Trophies {
		if tr.ID == "first-match" {
			t.Errorf("first-match given twice: %+v", *v.Trophies)
		}
	}
	json.Unmarshal(s.do("GET", "/api/players/"+s.playerOf(ana), "", "").body, &got)
	if n := strings.Count(string(got["trophies"]), `"first-match"`); n != 1 {
		t.Errorf("first-match %d times on the profile", n)
	}
}
