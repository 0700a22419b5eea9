package api

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/functions/store"
)

// API.md "Tournaments (tornei)", on memory, bbolt and DynamoDB (dynalite).

type tourBody struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Format  string `json:"format"`
	Status  string `json:"status"`
	Round   int    `json:"round"`
	Rounds  int    `json:"rounds"`
	Entries []struct {
		Player   string `json:"player"`
		Name     string `json:"name"`
		Points   int    `json:"points"`
		Buchholz int    `json:"buchholz"`
		Rank     int    `json:"rank"`
	} `json:"entries"`
	Pairings []struct {
		Round    int    `json:"round"`
		Deadline string `json:"deadline"`
		Tables   []struct {
			Game    *string  `json:"game"`
			Players []string `json:"players"`
			Points  []int    `json:"points"`
		} `json:"tables"`
	} `json:"pairings"`
	Winner *string `json:"winner"`
}

func (s *server) tour(id string) tourBody {
	s.t.Helper()
	r := s.do("GET", "/api/tournaments/"+id, "", "")
	var t tourBody
	if r.status != 200 || json.Unmarshal(r.body, &t) != nil {
		s.t.Fatalf("GET tournament: %d %s", r.status, r.body)
	}
	return t
}

// entrants makes n keys with profiles named E0..En-1.
func (s *server) entrants(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = testKey(fmt.Sprintf("e%02d", i))
		if r := s.do("PUT", "/api/me/profile", fmt.Sprintf(`{"name":"E%d"}`, i), keys[i]); r.status != 200 {
			s.t.Fatal(r.status)
		}
	}
	return keys
}

// tokensOf maps each table's players to their keys (a key is its seat's token).
func tokensOf(s *server, keys []string, players []string) []string {
	byPlayer := map[string]string{}
	for _, k := range keys {
		byPlayer[s.playerOf(k)] = k
	}
	out := make([]string, len(players))
	for i, p := range players {
		out[i] = byPlayer[p]
	}
	return out
}

func TestSwissTournament(t *testing.T) { eachStore(t, testSwissTournament) }

func testSwissTournament(t *testing.T, st store.Store) {
	s, _ := movableServer(t, st, 330)
	keys := s.entrants(8)
	owner := keys[7]
	body := `{"name":"Coppa d'inverno","format":"swiss","rounds":4,"variant":"fiveup","players":2,"target":10,"moveTime":86400,"roundTime":604800,"size":16,"listed":true}`
	for what, b := range map[string]string{
		"a bad format":              `{"name":"C","format":"cup","variant":"fiveup","moveTime":86400,"roundTime":604800}`,
		"no moveTime":               `{"name":"C","format":"swiss","variant":"fiveup","roundTime":604800}`,
		"no roundTime":              `{"name":"C","format":"swiss","variant":"fiveup","moveTime":86400}`,
		"a round time of 59 min":    `{"name":"C","format":"swiss","variant":"fiveup","moveTime":86400,"roundTime":3540}`,
		"11 rounds":                 `{"name":"C","format":"swiss","rounds":11,"variant":"fiveup","moveTime":86400,"roundTime":604800}`,
		"a size of 65":              `{"name":"C","format":"swiss","variant":"fiveup","moveTime":86400,"roundTime":604800,"size":65}`,
		"a round robin of 4":        `{"name":"C","format":"roundrobin","variant":"fiveup","players":4,"moveTime":86400,"roundTime":604800}`,
		"a round robin of 2 rounds": `{"name":"C","format":"roundrobin","rounds":2,"variant":"fiveup","players":2,"moveTime":86400,"roundTime":604800}`,
		"a rated block":             `{"name":"C","format":"swiss","variant":"block","moveTime":86400,"roundTime":604800,"rated":true}`,
	} {
		if r := s.do("POST", "/api/tournaments", b, owner); r.status != 400 {
			t.Errorf("%s: %d %s", what, r.status, r.body)
		}
	}
	if r := s.do("POST", "/api/tournaments", body, ""); r.status != 401 {
		t.Errorf("no key: %d", r.status)
	}
	if r := s.do("POST", "/api/tournaments", body, testKey("nobody")); r.status != 409 || mustError(t, r).Error.Code != "not_eligible" {
		t.Errorf("a key without a profile: %d %s", r.status, r.body)
	}
	r := s.do("POST", "/api/tournaments", body, owner)
	var made struct {
		Tournament tourBody `json:"tournament"`
		Invite     string   `json:"invite"`
	}
	if r.status != 201 || json.Unmarshal(r.body, &made) != nil || made.Tournament.Status != "entries" || len(made.Tournament.Entries) != 0 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	id := made.Tournament.ID
	// Seven enter (the creator is not entered unless they enter).
	for _, k := range keys[:7] {
		if r := s.do("POST", "/api/tournaments/"+id+"/entries", `{}`, k); r.status != 201 {
			t.Fatalf("enter: %d %s", r.status, r.body)
		}
	}
	if r := s.do("POST", "/api/tournaments/"+id+"/entries", `{}`, keys[0]); r.status != 200 {
		t.Errorf("entering twice: %d", r.status)
	}
	var lobby struct {
		Tournaments []struct {
			ID      string `json:"id"`
			Entries int    `json:"entries"`
			Size    int    `json:"size"`
		} `json:"tournaments"`
	}
	json.Unmarshal(s.do("GET", "/api/lobby", "", "").body, &lobby)
	if len(lobby.Tournaments) != 1 || lobby.Tournaments[0].ID != id || lobby.Tournaments[0].Entries != 7 || lobby.Tournaments[0].Size != 16 {
		t.Errorf("lobby: %+v", lobby.Tournaments)
	}
	if r := s.do("POST", "/api/tournaments/"+id+"/start", `{}`, keys[0]); r.status != 404 {
		t.Errorf("a start by an entrant: %d", r.status)
	}
	if r := s.do("POST", "/api/tournaments/"+id+"/start", `{}`, owner); r.status != 200 {
		t.Fatalf("start: %d %s", r.status, r.body)
	}
	json.Unmarshal(s.do("GET", "/api/lobby", "", "").body, &lobby)
	if len(lobby.Tournaments) != 0 {
		t.Errorf("a started tournament is still listed: %+v", lobby.Tournaments)
	}
	if r := s.do("POST", "/api/tournaments/"+id+"/entries", `{}`, owner); r.status != 409 || mustError(t, r).Error.Code != "limit_reached" {
		t.Errorf("entering after the start: %d %s", r.status, r.body)
	}
	if r := s.do("DELETE", "/api/tournaments/"+id+"/entries", `{}`, keys[0]); r.status != 409 {
		t.Errorf("withdrawing after the start: %d", r.status)
	}
	// Each entrant's /api/me says where it stands (an addition): its table
	// in round 1, a game or a bye (worth 1 at once), the deadline; and a
	// tournament game's view names its tournament.
	first := s.tour(id).Pairings[0]
	for _, k := range keys[:7] {
		var me struct {
			Tournaments []struct {
				ID       string   `json:"id"`
				Name     string   `json:"name"`
				Status   string   `json:"status"`
				Round    int      `json:"round"`
				Rounds   int      `json:"rounds"`
				Deadline *string  `json:"deadline"`
				Game     *string  `json:"game"`
				Bye      bool     `json:"bye"`
				Points   []int    `json:"points"`
				Names    []string `json:"names"`
			} `json:"tournaments"`
		}
		if r := s.do("GET", "/api/me", "", k); r.status != 200 || json.Unmarshal(r.body, &me) != nil || len(me.Tournaments) != 1 {
			t.Fatalf("/api/me of an entrant: %d %s", r.status, r.body)
		}
		mt := me.Tournaments[0]
		if mt.ID != id || mt.Name != "Coppa d'inverno" || mt.Status != "playing" || mt.Round != 1 || mt.Rounds != 4 || mt.Deadline == nil || *mt.Deadline != first.Deadline {
			t.Errorf("/api/me's tournament: %+v", mt)
		}
		switch {
		case mt.Bye:
			if mt.Game != nil || fmt.Sprint(mt.Points) != "[1]" || len(mt.Names) != 1 {
				t.Errorf("a bye in /api/me: %+v", mt)
			}
		case mt.Game == nil || mt.Points != nil || len(mt.Names) != 2:
			t.Errorf("a table in /api/me: %+v", mt)
		default:
			var v struct {
				Tournament *string `json:"tournament"`
				League     *string `json:"league"`
			}
			if json.Unmarshal(s.do("GET", "/api/games/"+*mt.Game, "", "").body, &v) != nil || v.Tournament == nil || *v.Tournament != id || v.League != nil {
				t.Errorf("the game's view names tournament %v, league %v; want %s, null", v.Tournament, v.League, id)
			}
		}
	}
	if r := s.do("GET", "/api/me", "", owner); !strings.Contains(string(r.body), `"tournaments":[]`) {
		t.Errorf("the creator, not entered: %s", r.body)
	}
	// Four rounds, each played to its end: the next begins by itself.
	byes := map[string]int{}
	met := map[string]bool{}
	for round := 1; round <= 4; round++ {
		tr := s.tour(id)
		if tr.Round != round || tr.Status != "playing" || len(tr.Pairings) != round {
			t.Fatalf("round %d: %+v", round, tr)
		}
		p := tr.Pairings[round-1]
		if len(p.Tables) != 4 {
			t.Fatalf("round %d tables: %+v", round, p.Tables)
		}
		for _, tb := range p.Tables {
			if tb.Game == nil {
				if len(tb.Players) != 1 || fmt.Sprint(tb.Points) != "[1]" {
					t.Errorf("a bye: %+v", tb)
				}
				byes[tb.Players[0]]++
				continue
			}
			pair := fmt.Sprint(sortPair(tb.Players))
			if met[pair] {
				t.Errorf("round %d repeats %s", round, pair)
			}
			met[pair] = true
			s.playOut(*tb.Game, tokensOf(s, keys, tb.Players))
		}
	}
	for p, n := range byes {
		if n > 1 {
			t.Errorf("%s had %d byes", p, n)
		}
	}
	tr := s.tour(id)
	if tr.Status != "finished" || tr.Winner == nil || *tr.Winner != tr.Entries[0].Player || len(tr.Entries) != 7 {
		t.Fatalf("after 4 rounds: %+v", tr)
	}
	total := 0
	for i, e := range tr.Entries {
		total += e.Points
		if e.Rank != i+1 || i > 0 && !orderedEntries(tr.Entries[i-1].Points, tr.Entries[i-1].Buchholz, tr.Entries[i-1].Player, e.Points, e.Buchholz, e.Player) {
			t.Errorf("entry %d out of order: %+v", i, tr.Entries)
		}
	}
	if total != 4*4 { // 3 games (1 point each) and a bye (1) a round
		t.Errorf("points add to %d, want 16", total)
	}
	// The winner of a tournament of 4 or more has its trophy, once.
	var prof map[string]json.RawMessage
	json.Unmarshal(s.do("GET", "/api/players/"+*tr.Winner, "", "").body, &prof)
	if n := strings.Count(string(prof["trophies"]), `"tournament-winner"`); n != 1 {
		t.Errorf("the winner's trophies: %s", prof["trophies"])
	}
	// A tournament game is in its players' games.
	m := s.me(keys[0])
	if len(m.Games) < 3 {
		t.Errorf("the entrant's games: %d", len(m.Games))
	}
}

func sortPair(p []string) []string {
	q := append([]string(nil), p...)
	sort.Strings(q)
	return q
}

func orderedEntries(p1, b1 int, id1 string, p2, b2 int, id2 string) bool {
	if p1 != p2 {
		return p1 > p2
	}
	if b1 != b2 {
		return b1 > b2
	}
	return id1 < id2
}

// A round robin of 5: every pair's game at once; its deadline passes on
// the fake clock and the sweeps (two at once) decide the games still
// playing by their scores; the tournament ends. Not listed: entering
// needs the invite.
func TestRoundRobinAndDeadlines(t *testing.T) { eachStore(t, testRoundRobinAndDeadlines) }

func testRoundRobinAndDeadlines(t *testing.T, st store.Store) {
	s, advance := movableServer(t, st, 331)
	keys := s.entrants(5)
	r := s.do("POST", "/api/tournaments", `{"name":"Girone","format":"roundrobin","variant":"fiveup","players":2,"target":50,"moveTime":86400,"roundTime":86400,"size":5}`, keys[0])
	var made struct {
		Tournament tourBody `json:"tournament"`
		Invite     string   `json:"invite"`
	}
	if r.status != 201 || json.Unmarshal(r.body, &made) != nil {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	id := made.Tournament.ID
	if r := s.do("POST", "/api/tournaments/"+id+"/start", `{}`, keys[0]); r.status != 409 || mustError(t, r).Error.Code != "not_eligible" {
		t.Errorf("a start with no entrants: %d %s", r.status, r.body)
	}
	for _, b := range []string{`{}`, `{"invite":"wrong-invite-0123456789abc"}`} {
		if r := s.do("POST", "/api/tournaments/"+id+"/entries", b, keys[1]); r.status != 404 {
			t.Errorf("entering %s without the invite: %d", b, r.status)
		}
	}
	for _, k := range keys {
		if r := s.do("POST", "/api/tournaments/"+id+"/entries", fmt.Sprintf(`{"invite":%q}`, made.Invite), k); r.status != 201 {
			t.Fatalf("enter: %d %s", r.status, r.body)
		}
	}
	if r := s.do("DELETE", "/api/tournaments/"+id+"/entries", "", keys[4]); r.status != 204 { // no body, as API.md gives it
		t.Errorf("withdraw: %d", r.status)
	}
	if r := s.do("POST", "/api/tournaments/"+id+"/entries", fmt.Sprintf(`{"invite":%q}`, made.Invite), keys[4]); r.status != 201 {
		t.Errorf("enter again: %d", r.status)
	}
	if r := s.do("POST", "/api/tournaments/"+id+"/start", `{}`, keys[0]); r.status != 200 {
		t.Fatalf("start: %d %s", r.status, r.body)
	}
	tr := s.tour(id)
	if len(tr.Pairings) != 1 || len(tr.Pairings[0].Tables) != 10 || tr.Rounds != 1 {
		t.Fatalf("round robin: %+v", tr.Pairings)
	}
	for _, tb := range tr.Pairings[0].Tables {
		if tb.Game == nil || tb.Players[0] > tb.Players[1] {
			t.Errorf("table %+v: want a game, the first by id at seat 0", tb)
		}
	}
	// Two games end; the deadline passes with the others playing.
	for _, tb := range tr.Pairings[0].Tables[:2] {
		s.playOut(*tb.Game, tokensOf(s, keys, tb.Players))
	}
	advance(25 * time.Hour)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.h.(*Handler).Service().Sweep(t.Context(), "example.com"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	tr = s.tour(id)
	if tr.Status != "finished" || tr.Winner == nil {
		t.Fatalf("after the deadline: %+v", tr)
	}
	for _, tb := range tr.Pairings[0].Tables {
		if tb.Points == nil {
			t.Errorf("an undecided table: %+v", tb)
		}
	}
	// A game decided at the deadline goes on; its end changes nothing.
	g := *tr.Pairings[0].Tables[5].Game
	if v := s.room(g, ""); v.Status != "playing" {
		t.Fatalf("a decided game stopped: %s", v.Status)
	}
	before := fmt.Sprint(tr.Entries)
	s.playOut(g, tokensOf(s, keys, tr.Pairings[0].Tables[5].Players))
	if after := fmt.Sprint(s.tour(id).Entries); after != before {
		t.Errorf("a decided game's end changed the standings:\n%s\n%s", before, after)
	}
}

// A key runs at most 3 unfinished tournaments; a rated one takes only
// keys that finished 3 matches; a full one takes no more; a withdrawal
// before the start is 204 even for a key never entered.
func TestTournamentLimits(t *testing.T) {
	s, _ := movableServer(t, newMemoryStore(), 332)
	keys := s.entrants(3)
	body := `{"name":"C","format":"swiss","rounds":2,"variant":"fiveup","players":2,"moveTime":86400,"roundTime":86400,"size":2,"listed":true,"rated":true}`
	var ids []string
	for range 3 {
		r := s.do("POST", "/api/tournaments", body, keys[0])
		var made struct {
			Tournament tourBody `json:"tournament"`
		}
		if r.status != 201 || json.Unmarshal(r.body, &made) != nil {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		ids = append(ids, made.Tournament.ID)
	}
	if r := s.do("POST", "/api/tournaments", body, keys[0]); r.status != 409 || mustError(t, r).Error.Code != "limit_reached" {
		t.Errorf("a fourth running tournament: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/api/tournaments/"+ids[0]+"/entries", `{}`, keys[1]); r.status != 409 || mustError(t, r).Error.Code != "not_eligible" {
		t.Errorf("a new key in a rated tournament: %d %s", r.status, r.body)
	}
	s.eligiblePair(keys[1], keys[2])
	for _, k := range keys[1:] {
		if r := s.do("POST", "/api/tournaments/"+ids[0]+"/entries", `{}`, k); r.status != 201 {
			t.Fatalf("an eligible key: %d %s", r.status, r.body)
		}
	}
	if r := s.do("POST", "/api/tournaments/"+ids[0]+"/entries", `{}`, keys[0]); r.status != 409 || mustError(t, r).Error.Code != "limit_reached" {
		t.Errorf("a full tournament: %d %s", r.status, r.body)
	}
	if r := s.do("DELETE", "/api/tournaments/"+ids[1]+"/entries", `{}`, keys[2]); r.status != 204 {
		t.Errorf("withdrawing without an entry: %d", r.status)
	}
	if r := s.do("GET", "/api/tournaments/nosuchtournament", "", ""); r.status != 404 {
		t.Errorf("an unknown tournament: %d", r.status)
	}
	if r := s.do("POST", "/api/tournaments/"+ids[0]+"/start", `{}`, ""); r.status != 404 {
		t.Errorf("a start without a key: %d", r.status)
	}
	// A rated tournament's games are rated, with the players' ratings.
	if r := s.do("POST", "/api/tournaments/"+ids[0]+"/start", `{}`, keys[0]); r.status != 200 {
		t.Fatalf("start: %d %s", r.status, r.body)
	}
	tr := s.tour(ids[0])
	if v := s.room(*tr.Pairings[0].Tables[0].Game, ""); !v.Rated || v.Open || v.Seats[0].Rating == nil {
		t.Errorf("a rated tournament's game: %+v", v)
	}
}

// Tables of four in pairs: the table's first and fourth (in the order)
// sit together, seats 0 and 2; tables of three: a game's points are the
// sides each finished ahead of (2, 1, 0 without ties), and the byes fill
// what whole tables leave.
func TestTournamentTables(t *testing.T) {
	s, _ := movableServer(t, newMemoryStore(), 333)
	keys := s.entrants(8)
	open := func(body string, n int) tourBody {
		r := s.do("POST", "/api/tournaments", body, keys[0])
		var made struct {
			Tournament tourBody `json:"tournament"`
		}
		if r.status != 201 || json.Unmarshal(r.body, &made) != nil {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		for _, k := range keys[:n] {
			if r := s.do("POST", "/api/tournaments/"+made.Tournament.ID+"/entries", `{}`, k); r.status != 201 {
				t.Fatalf("enter: %d", r.status)
			}
		}
		if r := s.do("POST", "/api/tournaments/"+made.Tournament.ID+"/start", `{}`, keys[0]); r.status != 200 {
			t.Fatalf("start: %d %s", r.status, r.body)
		}
		return s.tour(made.Tournament.ID)
	}
	pairs := open(`{"name":"Coppie","format":"swiss","rounds":1,"variant":"fiveup","players":4,"pairs":true,"target":20,"moveTime":86400,"roundTime":86400,"listed":true}`, 8)
	ids := make([]string, 0, 8)
	for _, k := range keys {
		ids = append(ids, s.playerOf(k))
	}
	sort.Strings(ids)
	tb := pairs.Pairings[0].Tables
	if len(tb) != 2 || fmt.Sprint(tb[0].Players) != fmt.Sprint([]string{ids[0], ids[1], ids[3], ids[2]}) {
		t.Fatalf("pairs tables: %+v (ids %v)", tb, ids)
	}
	v := s.poll(*tb[0].Game, "")
	if len(v.Seats) != 4 || v.Options.Pairs != true || v.Status != "playing" {
		t.Fatalf("a pairs table's game: %+v", v)
	}
	var seats struct {
		Seats []struct {
			Player string `json:"player"`
		} `json:"seats"`
	}
	json.Unmarshal(s.do("GET", "/api/games/"+*tb[0].Game, "", "").body, &seats)
	for i, st := range seats.Seats {
		if st.Player != tb[0].Players[i] {
			t.Errorf("seat %d holds %s, the table says %s", i, st.Player, tb[0].Players[i])
		}
	}
	s.playOut(*tb[0].Game, tokensOf(s, keys, tb[0].Players))
	end := s.room(*tb[0].Game, "")
	got := s.tour(pairs.ID).Pairings[0].Tables[0].Points
	for i := range got {
		want := 0
		if i%2 == *end.Winner {
			want = 1
		}
		if got[i] != want {
			t.Errorf("pairs points %v, winner %d", got, *end.Winner)
			break
		}
	}
	threes := open(`{"name":"Tre","format":"swiss","rounds":1,"variant":"fiveup","players":3,"target":20,"moveTime":86400,"roundTime":86400,"listed":true}`, 7)
	tb = threes.Pairings[0].Tables
	if len(tb) != 3 || len(tb[0].Players) != 3 || len(tb[1].Players) != 3 || tb[2].Game != nil || len(tb[2].Players) != 1 {
		t.Fatalf("tables of three: %+v", tb)
	}
	s.playOut(*tb[0].Game, tokensOf(s, keys, tb[0].Players))
	pts := s.tour(threes.ID).Pairings[0].Tables[0].Points
	sum := 0
	for _, p := range pts {
		sum += p
	}
	if len(pts) != 3 || sum > 3 || sum < 1 {
		t.Errorf("a table of three's points: %v", pts)
	}
}
