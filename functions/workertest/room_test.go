package workertest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"tessera/internal/testenv"
)

// TestTheRoomThroughTheWorker: API.md's Community sections on the Worker
// (D1 and its entries table): profiles, open and rated games, the lobby,
// eligibility and the limit, rated matches that end at the same moment
// counted once each, and the leaderboard.
func TestTheRoomThroughTheWorker(t *testing.T) {
	base := testenv.WorkerFrom(t, testenv.WorkerBuild(t, "testclock")) // its clock's POST sweeps
	ana, bea := "worker-ana-key-"+strings.Repeat("a", 20), "worker-bea-key-"+strings.Repeat("b", 20)
	type seated struct {
		Game struct {
			ID    string `json:"id"`
			Seats []struct {
				Player *string `json:"player"`
			} `json:"seats"`
		} `json:"game"`
		Token string `json:"token"`
	}
	type room struct {
		Version int64  `json:"version"`
		Status  string `json:"status"`
		Rated   bool   `json:"rated"`
		Seats   []struct {
			Rating      *int `json:"rating"`
			RatingAfter *int `json:"ratingAfter"`
		} `json:"seats"`
	}
	duel := func(rated bool) (string, []string) {
		var a, b seated
		do(t, "POST", base+"/api/games", "", fmt.Sprintf(`{"variant":"fiveup","players":2,"target":100,"name":"Ana","key":%q,"open":true,"rated":%t,"moveTime":3600}`, ana, rated)).
			decode(t, "create", http.StatusCreated, &a)
		do(t, "POST", base+"/api/games/"+a.Game.ID+"/seats", "", fmt.Sprintf(`{"name":"Bea","key":%q}`, bea)).decode(t, "seat", http.StatusCreated, &b)
		return a.Game.ID, []string{a.Token, b.Token}
	}
	away := func(id, tok string) answer {
		var v room
		do(t, "GET", base+"/api/games/"+id, "", "").decode(t, "poll", http.StatusOK, &v)
		return do(t, "POST", base+"/api/games/"+id+"/moves", tok, fmt.Sprintf(`{"version":%d,"type":"away"}`, v.Version))
	}
	if a := do(t, "POST", base+"/api/games", "", `{"variant":"fiveup","name":"A","open":true,"moveTime":3600}`); a.status != 400 {
		t.Errorf("open without a key: %d", a.status)
	}
	if a := do(t, "POST", base+"/api/games", "", fmt.Sprintf(`{"variant":"fiveup","players":2,"name":"A","key":%q,"open":true,"rated":true,"moveTime":3600}`, ana)); a.status != 409 || a.code() != "not_eligible" {
		t.Errorf("rated by a new key: %d %s", a.status, a.body)
	}
	// The lobby lists an open game until its last seat is taken.
	var waiting seated
	do(t, "POST", base+"/api/games", "", fmt.Sprintf(`{"variant":"partnership","name":"Ana","key":%q,"open":true,"moveTime":86400}`, ana)).decode(t, "create", http.StatusCreated, &waiting)
	var lobby struct {
		Games []struct {
			ID string `json:"id"`
		} `json:"games"`
		Tournaments []any `json:"tournaments"`
	}
	do(t, "GET", base+"/api/lobby?variant=partnership", "", "").decode(t, "lobby", http.StatusOK, &lobby)
	if len(lobby.Games) != 1 || lobby.Games[0].ID != waiting.Game.ID || lobby.Tournaments == nil {
		t.Errorf("lobby: %+v", lobby)
	}
	for range 3 {
		id, toks := duel(false)
		for _, tok := range toks {
			if a := away(id, tok); a.status != 200 {
				t.Fatalf("away: %d %s", a.status, a.body)
			}
		}
	}
	// Eight rated matches end at once (each in the request of Bea's away).
	const n = 8
	ids, toks := make([]string, n), make([][]string, n)
	for i := range n {
		ids[i], toks[i] = duel(true)
		away(ids[i], toks[i][0])
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); away(ids[i], toks[i][1]) }()
	}
	wg.Wait()
	// The sweep (the Cron Trigger's) settles what a request left: nothing
	// here, unless a settling lost 40 races in a row.
	do(t, "POST", base+"/api/__test/clock", "", `{"advance": 0}`).decode(t, "sweep", http.StatusOK, nil)
	var me struct {
		Player *struct {
			ID string `json:"id"`
		} `json:"player"`
		Leagues []any `json:"leagues"`
	}
	do(t, "GET", base+"/api/me", ana, "").decode(t, "me", http.StatusOK, &me)
	if me.Player == nil || me.Leagues == nil {
		t.Fatalf("GET /api/me: %+v", me)
	}
	var prof struct {
		Name     string `json:"name"`
		Finished int    `json:"finished"`
		Ratings  map[string]struct {
			Games int `json:"games"`
		} `json:"ratings"`
		Recent []any `json:"recent"`
	}
	do(t, "GET", base+"/api/players/"+me.Player.ID, "", "").decode(t, "profile", http.StatusOK, &prof)
	if prof.Name != "Ana" || prof.Finished != 3+n || prof.Ratings["fiveup-duel"].Games != n || len(prof.Recent) != n {
		t.Errorf("Ana's profile after %d rated endings: %+v", n, prof)
	}
	for _, id := range ids {
		var v room
		do(t, "GET", base+"/api/games/"+id, "", "").decode(t, "poll", http.StatusOK, &v)
		if v.Status != "finished" || !v.Rated || v.Seats[0].RatingAfter == nil {
			t.Errorf("game %s: %+v", id, v)
		}
	}
	if a := do(t, "GET", base+"/api/leaderboard/fiveup-duel", "", ""); a.status != 200 || !strings.Contains(string(a.body), `"players":[]`) {
		t.Errorf("leaderboard before ten rated matches: %d %s", a.status, a.body)
	}
	if a := do(t, "GET", base+"/api/leaderboard/chess", "", ""); a.status != 404 {
		t.Errorf("unknown pool: %d", a.status)
	}
	if a := do(t, "GET", base+"/api/players/nobody0000000000", "", ""); a.status != 404 {
		t.Errorf("unknown player: %d", a.status)
	}

	// A league of the two: a league match ends and its table counts it.
	var made struct {
		League struct {
			ID string `json:"id"`
		} `json:"league"`
		Invite string `json:"invite"`
	}
	do(t, "POST", base+"/api/leagues", ana, `{"name":"Venerdì al bar","variant":"fiveup"}`).decode(t, "league", http.StatusCreated, &made)
	lid := made.League.ID
	if a := do(t, "POST", base+"/api/leagues/"+lid+"/members", bea, `{"invite":"wrong-invite-0123456789abcd"}`); a.status != 404 {
		t.Errorf("a wrong invite: %d", a.status)
	}
	do(t, "POST", base+"/api/leagues/"+lid+"/members", bea, fmt.Sprintf(`{"invite":%q}`, made.Invite)).decode(t, "join", http.StatusCreated, nil)
	var lg, lb seated
	do(t, "POST", base+"/api/games", "", fmt.Sprintf(`{"variant":"fiveup","players":2,"target":10,"name":"Ana","key":%q,"league":%q}`, ana, lid)).
		decode(t, "league game", http.StatusCreated, &lg)
	do(t, "POST", base+"/api/games/"+lg.Game.ID+"/seats", "", fmt.Sprintf(`{"name":"Bea","key":%q}`, bea)).decode(t, "seat", http.StatusCreated, &lb)
	playOut(t, base, lg.Game.ID, []string{lg.Token, lb.Token})
	var league struct {
		Table []struct {
			Played int `json:"played"`
			Won    int `json:"won"`
		} `json:"table"`
	}
	do(t, "GET", base+"/api/leagues/"+lid, bea, "").decode(t, "league", http.StatusOK, &league)
	if len(league.Table) != 2 || league.Table[0].Played != 1 || league.Table[0].Won != 1 || league.Table[1].Won != 0 {
		t.Errorf("the league's table after one match: %+v", league.Table)
	}
	if a := do(t, "GET", base+"/api/leagues/"+lid, "", ""); a.status != 404 {
		t.Errorf("a league without a key: %d", a.status)
	}

	// A round robin of the two: its one game, played out, finishes it.
	var tour struct {
		Tournament struct {
			ID string `json:"id"`
		} `json:"tournament"`
	}
	do(t, "POST", base+"/api/tournaments", ana, `{"name":"Girone","format":"roundrobin","variant":"fiveup","players":2,"target":10,"moveTime":86400,"roundTime":86400,"listed":true}`).
		decode(t, "tournament", http.StatusCreated, &tour)
	tid := tour.Tournament.ID
	for _, k := range []string{ana, bea} {
		do(t, "POST", base+"/api/tournaments/"+tid+"/entries", k, `{}`).decode(t, "enter", http.StatusCreated, nil)
	}
	type tourView struct {
		Status   string  `json:"status"`
		Winner   *string `json:"winner"`
		Pairings []struct {
			Tables []struct {
				Game *string `json:"game"`
			} `json:"tables"`
		} `json:"pairings"`
	}
	var tv tourView
	do(t, "POST", base+"/api/tournaments/"+tid+"/start", ana, `{}`).decode(t, "start", http.StatusOK, nil)
	do(t, "GET", base+"/api/tournaments/"+tid, "", "").decode(t, "tournament", http.StatusOK, &tv)
	if len(tv.Pairings) != 1 || len(tv.Pairings[0].Tables) != 1 || tv.Pairings[0].Tables[0].Game == nil {
		t.Fatalf("round robin of two: %+v", tv)
	}
	playOut(t, base, *tv.Pairings[0].Tables[0].Game, []string{ana, bea})
	do(t, "GET", base+"/api/tournaments/"+tid, "", "").decode(t, "tournament", http.StatusOK, &tv)
	if tv.Status != "finished" || tv.Winner == nil {
		t.Errorf("after its game: %+v", tv)
	}
}

// playOut plays game id to its end: each seat's first legal play.
func playOut(t *testing.T, base, id string, tokens []string) {
	t.Helper()
	for range 2000 {
		moved := false
		for _, tok := range tokens {
			var v view
			do(t, "GET", base+"/api/games/"+id, tok, "").decode(t, "poll", http.StatusOK, &v)
			if v.Status == "finished" {
				return
			}
			asked := v.Hand != nil && v.Hand.Phase == "confirm" && v.You != nil && slices.Contains(v.Hand.Confirming, v.You.Seat)
			if v.You == nil || (len(v.You.Legal) == 0 && !asked) {
				continue
			}
			do(t, "POST", base+"/api/games/"+id+"/moves", tok, nextMove(t, v, "")).decode(t, "move", http.StatusOK, nil)
			moved = true
			break
		}
		if !moved {
			t.Fatalf("nobody can move in %s", id)
		}
	}
	t.Fatalf("%s did not end", id)
}
