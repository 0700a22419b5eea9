package api

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// A whole match through the handler for every configuration: people in
// every seat (or some computer players), each playing a move from its own
// legal list; every view checked for hidden information.

// play is one match being played by the test.
type play struct {
	t      *testing.T
	s      *server
	id     string
	tokens []string // "" for a computer seat
	rng    *rand.Rand
	moves  int
	seq    int
}

// views polls every person's view and the spectator's, checks them, and
// returns the views by seat and the known hands.
func (p *play) views() ([]*view, [][][2]int) {
	t := p.t
	n := len(p.tokens)
	views := make([]*view, n)
	raws := make([][]byte, n)
	hands := make([][][2]int, n)
	for seat, tok := range p.tokens {
		if tok == "" {
			continue
		}
		r := p.s.do("GET", "/api/games/"+p.id, "", tok)
		if r.status != 200 {
			t.Fatalf("poll seat %d: %d %s", seat, r.status, r.body)
		}
		raws[seat] = r.body
		views[seat] = mustView(t, r.body)
		if views[seat].Hand != nil {
			hands[seat] = views[seat].You.Tiles
		}
	}
	for seat := range p.tokens {
		if raws[seat] != nil {
			checkView(t, raws[seat], seat, hands)
		}
	}
	spec := p.s.do("GET", "/api/games/"+p.id, "", "")
	checkView(t, spec.body, -1, hands)
	return views, hands
}

// step makes one move by a person who must act. It returns false once the
// match is over.
func (p *play) step() bool {
	t := p.t
	views, hands := p.views()
	var v *view
	for _, vv := range views {
		if vv != nil {
			v = vv
			break
		}
	}
	if v.Status == "finished" {
		if v.Winner == nil || v.Hand.Phase != "over" || v.Hand.Turn != nil {
			t.Fatalf("finished match: winner %v, phase %s, turn %v", v.Winner, v.Hand.Phase, v.Hand.Turn)
		}
		return false
	}
	if v.Status != "playing" {
		t.Fatalf("status %q with every seat taken", v.Status)
	}
	actor := -1
	if v.Hand.Phase == "confirm" {
		actor = v.Hand.Confirming[p.rng.IntN(len(v.Hand.Confirming))]
	} else if v.Hand.Turn != nil {
		actor = *v.Hand.Turn
	}
	if actor < 0 || p.tokens[actor] == "" {
		t.Fatalf("the match waits for seat %d, which is no person (phase %s)", actor, v.Hand.Phase)
	}
	me := views[actor]
	var body string
	p.seq++
	moveID := fmt.Sprintf("m-%d-%d", actor, p.seq)
	switch {
	case me.You.Confirm:
		kind := "keep"
		if p.rng.IntN(3) == 0 {
			kind = "redeal"
		}
		body = fmt.Sprintf(`{"version":%d,"moveId":%q,"type":%q}`, v.Version, moveID, kind)
	default:
		if len(me.You.Legal) == 0 {
			t.Fatalf("seat %d must play but has no legal move", actor)
		}
		lm := me.You.Legal[p.rng.IntN(len(me.You.Legal))]
		body = fmt.Sprintf(`{"version":%d,"moveId":%q,"type":"play","tile":[%d,%d],"end":%q}`,
			v.Version, moveID, lm.Tile[1], lm.Tile[0], lm.End)
	}
	// Now and then, someone whose turn it is not tries a tile of theirs.
	if p.moves%5 == 0 && v.Hand.Phase == "play" {
		p.outOfTurn(v, actor, hands)
	}
	r := p.s.do("POST", "/api/games/"+p.id+"/moves", body, p.tokens[actor])
	if r.status != 200 {
		t.Fatalf("move %s by seat %d: %d %s", body, actor, r.status, r.body)
	}
	checkView(t, r.body, actor, nil)
	after := mustView(t, r.body)
	if after.Version != v.Version+1 {
		t.Fatalf("version after a move = %d, want %d", after.Version, v.Version+1)
	}
	// A retry of the same moveId is answered with the current view and
	// changes nothing, whatever the body says.
	if p.moves%7 == 0 {
		retry := fmt.Sprintf(`{"version":%d,"moveId":%q,"type":"keep"}`, v.Version, moveID)
		r2 := p.s.do("POST", "/api/games/"+p.id+"/moves", retry, p.tokens[actor])
		if r2.status != 200 || mustView(t, r2.body).Version != after.Version {
			t.Fatalf("retried move: %d %s, want 200 at version %d", r2.status, r2.body, after.Version)
		}
	}
	p.moves++
	return true
}

// outOfTurn sends a play from a person whose turn it is not: 409
// not_your_turn, naming no hidden tile, changing nothing.
func (p *play) outOfTurn(v *view, actor int, hands [][][2]int) {
	t := p.t
	for seat, tok := range p.tokens {
		if seat == actor || tok == "" || len(hands[seat]) == 0 {
			continue
		}
		before := p.s.stored(p.id)
		tl := hands[seat][0]
		body := fmt.Sprintf(`{"version":%d,"type":"play","tile":[%d,%d],"end":"right"}`, v.Version, tl[0], tl[1])
		r := p.s.do("POST", "/api/games/"+p.id+"/moves", body, tok)
		if e := mustError(t, r); r.status != 409 || e.Error.Code != "not_your_turn" {
			t.Fatalf("out-of-turn play: %d %s, want 409 not_your_turn", r.status, r.body)
		}
		var others [][2]int
		for o, h := range hands {
			if o != seat {
				others = append(others, h...)
			}
		}
		checkNoTiles(t, "not_your_turn body", string(r.body), others)
		// The seat to play sends this seat's tile: 422, and the answer does
		// not repeat the tile.
		steal := fmt.Sprintf(`{"version":%d,"type":"play","tile":[%d,%d],"end":"right"}`, v.Version, tl[0], tl[1])
		r = p.s.do("POST", "/api/games/"+p.id+"/moves", steal, p.tokens[actor])
		if e := mustError(t, r); r.status != 422 || e.Error.Code != "illegal_move" {
			t.Fatalf("play of another seat's tile: %d %s, want 422 illegal_move", r.status, r.body)
		}
		checkNoTiles(t, "illegal_move body", string(r.body), hands[seat])
		if after := p.s.stored(p.id); after.Version != before.Version || string(after.State) != string(before.State) {
			t.Fatalf("a refused move changed the game")
		}
		return
	}
}

func TestWholeMatches(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"fiveup two players", `{"variant":"fiveup","players":2,"name":"Ana"}`},
		{"fiveup three players", `{"variant":"fiveup","players":3,"name":"Ana"}`},
		{"fiveup four players", `{"variant":"fiveup","players":4,"name":"Ana"}`},
		{"fiveup four players in pairs", `{"variant":"fiveup","players":4,"pairs":true,"name":"Ana"}`},
		{"partnership", `{"variant":"partnership","name":"Ana"}`},
		{"fiveup three players with two computers", `{"variant":"fiveup","players":3,"name":"Ana","bots":[{"seat":1,"level":"easy"},{"seat":2,"level":"easy"}]}`},
		{"fiveup pairs with one computer", `{"variant":"fiveup","pairs":true,"name":"Ana","bots":[{"seat":2,"level":"easy"}]}`},
		{"partnership with three computers", `{"variant":"partnership","name":"Ana","bots":[{"seat":1,"level":"easy"},{"seat":2,"level":"easy"},{"seat":3,"level":"easy"}]}`},
		{"fiveup two players without redeal, short target", `{"variant":"fiveup","players":2,"redeal":false,"target":60,"name":"Ana"}`},
		{"block two players", `{"variant":"block","players":2,"name":"Ana"}`},
		{"block three players", `{"variant":"block","players":3,"name":"Ana"}`},
		{"block four players", `{"variant":"block","name":"Ana"}`},
		{"block three players with a computer", `{"variant":"block","players":3,"name":"Ana","bots":[{"seat":1,"level":"medium"}]}`},
	}
	// Under the race detector (make test runs this package only so): one
	// table of each rule set alone, pairs with a computer, three seats with
	// two computers, and Block for three with a computer. The engine's own
	// tests play every table to its end (engine/harness_test.go).
	raceTables := map[int]bool{0: true, 5: true, 6: true, 7: true, 9: true, 12: true}
	for i, tc := range tests {
		if raceEnabled && !raceTables[i] {
			continue // five of the tables under the race detector (race_on_test.go)
		}
		t.Run(tc.name, func(t *testing.T) {
			seeds := uint64(2)
			if raceEnabled || testing.Short() {
				seeds = 1
			}
			for seed := uint64(1); seed <= seeds; seed++ {
				s := newServer(t, newMemoryStore(), seed*100+uint64(i))
				id, tokens := s.fullGame(tc.body)
				p := &play{t: t, s: s, id: id, tokens: tokens, rng: rand.New(rand.NewPCG(seed, uint64(i)))}
				for p.step() {
					if p.moves > 3000 {
						t.Fatalf("match not over after %d moves", p.moves)
					}
				}
				final := p.s.poll(id, "")
				if final.Winner == nil || *final.Winner < 0 || final.Scores[*final.Winner] < final.Options.Target {
					t.Fatalf("winner %v with scores %v, target %d", final.Winner, final.Scores, final.Options.Target)
				}
				if strings.Contains(strings.ToLower(s.logs.String()), "token\"") {
					t.Errorf("a log line has a token field")
				}
				for _, tok := range tokens {
					if tok != "" && strings.Contains(s.logs.String(), tok) {
						t.Fatalf("a log line holds a seat token")
					}
				}
				var all [][2]int
				for a := 0; a <= 6; a++ {
					for b := a; b <= 6; b++ {
						all = append(all, [2]int{a, b})
					}
				}
				checkNoTiles(t, "the logs", s.logs.String(), all)
				t.Logf("seed %d: %d moves by people, version %d, scores %v", seed, p.moves, final.Version, final.Scores)
			}
		})
	}
}

// The same short match on every store adapter: the stored game survives the
// real stores (bbolt's file, DynamoDB's binary attribute through dynalite).
func TestWholeMatchOnEveryStore(t *testing.T) {
	for _, st := range raceStores[:3] {
		t.Run(st.name, func(t *testing.T) {
			backend, _ := st.open(t)
			s := newServer(t, backend, 51)
			id, tokens := s.fullGame(`{"variant":"fiveup","players":3,"target":100,"name":"Ana","bots":[{"seat":2,"level":"easy"}]}`)
			p := &play{t: t, s: s, id: id, tokens: tokens, rng: rand.New(rand.NewPCG(51, 1))}
			for p.step() {
				if p.moves > 3000 {
					t.Fatalf("match not over after %d moves", p.moves)
				}
			}
			t.Logf("%d moves by people, version %d", p.moves, s.poll(id, "").Version)
		})
	}
}

// Block (the third rule set) for 2, 3 and 4 players to the end on every
// store: every view is checked as it is played (no tile of another seat,
// the undealt tiles never shown), and the boneyard stays empty.
func TestBlockOnEveryStore(t *testing.T) {
	for i, st := range raceStores[:3] {
		if raceEnabled && i > 0 {
			continue // the memory store only under the race detector (race_on_test.go)
		}
		t.Run(st.name, func(t *testing.T) {
			backend, _ := st.open(t)
			for n := 2; n <= 4; n++ {
				s := newServer(t, backend, uint64(60+n))
				id, tokens := s.fullGame(fmt.Sprintf(`{"variant":"block","players":%d,"target":40,"name":"Ana"}`, n))
				p := &play{t: t, s: s, id: id, tokens: tokens, rng: rand.New(rand.NewPCG(uint64(n), 2))}
				for p.step() {
					if p.moves > 3000 {
						t.Fatalf("match not over after %d moves", p.moves)
					}
					if v := s.poll(id, ""); v.Hand != nil && v.Hand.Boneyard != 0 {
						t.Fatalf("block has a boneyard of %d", v.Hand.Boneyard)
					}
				}
				final := s.poll(id, "")
				if final.Variant != "block" || final.Winner == nil || final.Scores[*final.Winner] < 40 || len(final.Scores) != n {
					t.Fatalf("%d players: variant %s winner %v scores %v", n, final.Variant, final.Winner, final.Scores)
				}
			}
		})
	}
}
