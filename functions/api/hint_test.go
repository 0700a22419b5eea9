package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"tessera/engine/bot"
	"tessera/functions/game"
	"tessera/functions/store"
)

type hintBody struct {
	Best struct {
		Tile [2]int `json:"tile"`
		End  string `json:"end"`
	} `json:"best"`
	Plays []struct {
		Tile   [2]int  `json:"tile"`
		End    string  `json:"end"`
		Points float64 `json:"points"`
		Win    float64 `json:"win"`
	} `json:"plays"`
	Version int64 `json:"version"`
}

// hintsOf is a view's hints as served (absent: nil).
func hintsOf(t *testing.T, b []byte) *[]game.HintMark {
	t.Helper()
	var v struct {
		Hints *[]struct {
			Seat int `json:"seat"`
			Seq  int `json:"seq"`
		} `json:"hints"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.Hints == nil {
		return nil
	}
	out := []game.HintMark{}
	for _, h := range *v.Hints {
		out = append(out, game.HintMark{Seat: h.Seat, Seq: h.Seq})
	}
	return &out
}

// A hint through the API: bad requests change nothing, the seat to play
// gets the expert's advice on every legal play, every reader's view shows
// that it asked (once per decision) with a new ETag and the same version;
// the table notes are the seat's view's; the look back at the hand that
// ended reviews the seat's own plays.
func TestHintsNotesAndTheLookBack(t *testing.T) { eachStore(t, testHints) }

func testHints(t *testing.T, st store.Store) {
	s := newServer(t, st, 351)
	id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"target":250,"redeal":false,"name":"Ana"}`)
	v := s.poll(id, tokens[0])
	actor := *v.Hand.Turn
	other := 1 - actor
	path := "/api/games/" + id + "/hint"
	before := s.stored(id)
	otherTag := s.do("GET", "/api/games/"+id, "", tokens[other]).header.Get("ETag")
	for _, c := range []struct {
		method, path, body, token string
		status                    int
		code                      string
	}{
		{"POST", path, `{"x":1}`, tokens[actor], 400, "bad_request"},
		{"POST", path, "", "", 401, "unauthorized"},
		{"POST", path, "", "AAAAAAAAAAAAAAAAAAAAAA", 401, "unauthorized"},
		{"POST", "/api/games/nosuchgame0000000/hint", "", tokens[actor], 404, "not_found"},
		{"GET", path, "", tokens[actor], 405, "method_not_allowed"},
		{"POST", path, "", tokens[other], 409, "not_your_turn"},
		{"GET", "/api/games/" + id + "/review", "", tokens[actor], 409, "not_finished"},
		{"GET", "/api/games/" + id + "/review?hand=x", "", tokens[actor], 400, "bad_request"},
		{"GET", "/api/games/" + id + "/review?hand=0", "", tokens[actor], 400, "bad_request"},
		{"GET", "/api/games/" + id + "/notes", "", "", 401, "unauthorized"},
	} {
		r := s.do(c.method, c.path, c.body, c.token)
		if r.status != c.status || mustError(t, r).Error.Code != c.code {
			t.Errorf("%s %s %q: %d %s, want %d %s", c.method, c.path, c.body, r.status, r.body, c.status, c.code)
		}
	}
	if after := s.stored(id); after.Version != before.Version || string(after.State) != string(before.State) {
		t.Fatal("a refused request changed the game")
	}
	if h := hintsOf(t, s.do("GET", "/api/games/"+id, "", "").body); h == nil || len(*h) != 0 {
		t.Fatalf("a friendly game's view: hints %v, want []", h)
	}

	r := s.do("POST", path, "", tokens[actor])
	var hb hintBody
	if r.status != 200 || json.Unmarshal(r.body, &hb) != nil {
		t.Fatalf("hint: %d %s", r.status, r.body)
	}
	mine := s.poll(id, tokens[actor])
	if hb.Version != v.Version || mine.Version != v.Version || len(hb.Plays) != len(mine.You.Legal) {
		t.Fatalf("hint %s; the view has version %d and %d legal plays", r.body, mine.Version, len(mine.You.Legal))
	}
	bestListed := false
	for i, p := range hb.Plays {
		l := mine.You.Legal[i]
		if p.Tile != l.Tile || p.End != l.End || p.Win < 0 || p.Win > 1 {
			t.Fatalf("play %d: %+v; legal %+v", i, p, l)
		}
		bestListed = bestListed || p.Tile == hb.Best.Tile && p.End == hb.Best.End
	}
	if !bestListed {
		t.Fatalf("the best play %+v is not among the legal ones", hb.Best)
	}
	// The advice is the expert's on the seat's own view.
	g, err := game.OpenLoaded(id, s.stored(id))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := g.Replay()
	want, _ := bot.Advise(m.View(actor), m.BotSeed(actor))
	if hb.Best.Tile != [2]int{int(want.Best.Tile[0]), int(want.Best.Tile[1])} || hb.Best.End != want.Best.End.String() {
		t.Fatalf("best %+v, the expert's %v", hb.Best, want.Best)
	}
	seq := mine.Log[len(mine.Log)-1].Seq
	wantMarks := []game.HintMark{{Seat: actor, Seq: seq}}
	for _, tok := range []string{tokens[0], tokens[1], ""} {
		if h := hintsOf(t, s.do("GET", "/api/games/"+id, "", tok).body); h == nil || !reflect.DeepEqual(*h, wantMarks) {
			t.Fatalf("reader %q: hints %v, want %v", tok, h, wantMarks)
		}
	}
	if r := s.do("GET", "/api/games/"+id, "", tokens[other], "If-None-Match", otherTag); r.status != 200 {
		t.Fatalf("the other seat's old ETag after the hint: %d, want 200 (the view changed)", r.status)
	}
	// Asked again on the same decision: the same answer, no second mark.
	if r2 := s.do("POST", path, "{}", tokens[actor]); r2.status != 200 || string(r2.body) != string(r.body) {
		t.Fatalf("the hint again: %d %s", r2.status, r2.body)
	}
	if h := hintsOf(t, s.do("GET", "/api/games/"+id, "", "").body); len(*h) != 1 {
		t.Fatalf("asked twice on one decision: %v", *h)
	}

	// Table notes: the seat's, from its view.
	for seat, tok := range tokens {
		r := s.do("GET", "/api/games/"+id+"/notes", "", tok)
		var n struct {
			Out   [7]int  `json:"out"`
			Pips  int     `json:"pips"`
			Lacks [][]int `json:"lacks"`
		}
		if r.status != 200 || json.Unmarshal(r.body, &n) != nil {
			t.Fatalf("notes: %d %s", r.status, r.body)
		}
		want, _ := bot.TableNotes(m.View(seat))
		if n.Out != want.Out || n.Pips != want.Pips || !reflect.DeepEqual(n.Lacks, want.Lacks) {
			t.Fatalf("seat %d's notes %s; its view's %+v", seat, r.body, want)
		}
	}

	// Play the first hand out; the look back at it.
	for i := range 200 {
		w := s.poll(id, tokens[0])
		if w.Hand.Number > 1 || w.Status != "playing" {
			break
		}
		_, actor, body := s.firstPlay(id, tokens, fmt.Sprint("m", i))
		if r := s.do("POST", "/api/games/"+id+"/moves", body, tokens[actor]); r.status != 200 {
			t.Fatalf("move: %d %s", r.status, r.body)
		}
	}
	for seat, tok := range tokens {
		r := s.do("GET", "/api/games/"+id+"/review", "", tok)
		var rv struct {
			Hand  int `json:"hand"`
			Plays []struct {
				Seq    int      `json:"seq"`
				Played hintPlay `json:"played"`
				Best   hintPlay `json:"best"`
				Board  *struct {
					Line [][2]int `json:"line"`
					Ends []struct {
						End  string `json:"end"`
						Pips int    `json:"pips"`
					} `json:"ends"`
				} `json:"board"`
			} `json:"plays"`
		}
		if r.status != 200 || json.Unmarshal(r.body, &rv) != nil || rv.Hand != 1 || len(rv.Plays) == 0 {
			t.Fatalf("seat %d's look back: %d %s", seat, r.status, r.body)
		}
		w := s.poll(id, tok)
		for _, p := range rv.Plays {
			found := false
			for _, e := range w.Log {
				if e.Seq == p.Seq && e.Type == "play" && e.Tile != nil && norm(*e.Tile) == norm(p.Played.Tile) {
					found = true
				}
			}
			// The board it was played on, as a view's board (the service's
			// tests check which board it is).
			if p.Board == nil || p.Board.Ends == nil || (p.Played.End != "lead" && len(p.Board.Line) == 0) {
				t.Fatalf("seat %d: reviewed play %d has no board: %s", seat, p.Seq, r.body)
			}
			if !found || p.Played.End == "" || p.Best.End == "" || p.Played.Win < 0 || p.Best.Win > 1 {
				t.Fatalf("seat %d: reviewed %+v is not one of its plays", seat, p)
			}
		}
		if r := s.do("GET", "/api/games/"+id+"/review?hand=2", "", tok); r.status != 409 || mustError(t, r).Error.Code != "not_finished" {
			t.Fatalf("the hand being played: %d %s", r.status, r.body)
		}
	}
}

type hintPlay struct {
	Tile   [2]int  `json:"tile"`
	End    string  `json:"end"`
	Points float64 `json:"points"`
	Win    float64 `json:"win"`
}

// A league decides: its games have hints when it allows them, and only
// then; rated games and tournaments' never (game.Stored.HintsOn).
func TestHintsAreTheLeaguesToDecide(t *testing.T) {
	s, _ := movableServer(t, newMemoryStore(), 352)
	ana := testKey("ana")
	if r := s.do("PUT", "/api/me/profile", `{"name":"Ana"}`, ana); r.status != 200 {
		t.Fatal(r.status)
	}
	for _, hints := range []bool{false, true} {
		r := s.do("POST", "/api/leagues", fmt.Sprintf(`{"name":"L","variant":"fiveup","hints":%v}`, hints), ana)
		var made struct {
			League struct {
				ID    string `json:"id"`
				Hints bool   `json:"hints"`
			} `json:"league"`
		}
		if r.status != 201 || json.Unmarshal(r.body, &made) != nil || made.League.Hints != hints {
			t.Fatalf("league with hints %v: %d %s", hints, r.status, r.body)
		}
		id, tok, _ := s.create(`{"variant":"fiveup","players":2,"redeal":false,"name":"Ana","key":"` + ana + `","league":"` + made.League.ID + `","bots":[{"seat":1,"level":"medium"}]}`)
		if w := s.poll(id, tok); w.Hand.Turn == nil || *w.Hand.Turn != 0 {
			t.Fatal("the computer did not play to Ana's turn")
		}
		r = s.do("POST", "/api/games/"+id+"/hint", "", tok)
		h := hintsOf(t, s.do("GET", "/api/games/"+id, "", "").body)
		switch {
		case hints && (r.status != 200 || h == nil || len(*h) != 1):
			t.Fatalf("a league with hints: %d %s, hints %v", r.status, r.body, h)
		case !hints && (r.status != 409 || mustError(t, r).Error.Code != "not_eligible" || h != nil):
			t.Fatalf("a league without hints: %d %s, hints %v", r.status, r.body, h)
		}
	}
	for _, c := range []struct {
		st   game.Stored
		want bool
	}{
		{game.Stored{}, true},
		{game.Stored{Room: game.Room{Rated: true}}, false},
		{game.Stored{Room: game.Room{Tournament: "t"}}, false},
		{game.Stored{Room: game.Room{League: "l"}}, false},
		{game.Stored{Room: game.Room{League: "l"}, LeagueHints: true}, true},
		{game.Stored{Room: game.Room{League: "l", Rated: true}, LeagueHints: true}, false},
	} {
		if c.st.HintsOn() != c.want {
			t.Errorf("%+v: hints on %v", c.st.Room, !c.want)
		}
	}
}
