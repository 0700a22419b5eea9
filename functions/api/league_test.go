package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"tessera/functions/store"
)

// API.md "Leagues (leghe)", on memory, bbolt and DynamoDB (dynalite).

type leagueBody struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Variant string   `json:"variant"`
	Admin   string   `json:"admin"`
	Season  string   `json:"season"`
	Seasons []string `json:"seasons"`
	Members []struct {
		Player string `json:"player"`
		Name   string `json:"name"`
		Since  string `json:"since"`
	} `json:"members"`
	Table []struct {
		Rank          int    `json:"rank"`
		Player        string `json:"player"`
		Name          string `json:"name"`
		Played        int    `json:"played"`
		Won           int    `json:"won"`
		Lost          int    `json:"lost"`
		PointsFor     int    `json:"pointsFor"`
		PointsAgainst int    `json:"pointsAgainst"`
	} `json:"table"`
	Games []struct {
		ID     string    `json:"id"`
		Status string    `json:"status"`
		Names  []*string `json:"names"`
		Scores []int     `json:"scores"`
		Winner *int      `json:"winner"`
	} `json:"games"`
}

func (s *server) leagueOf(id, key, query string) (leagueBody, response) {
	s.t.Helper()
	r := s.do("GET", "/api/leagues/"+id+query, "", key)
	var l leagueBody
	if r.status == 200 {
		if err := json.Unmarshal(r.body, &l); err != nil {
			s.t.Fatalf("league body %s: %v", r.body, err)
		}
	}
	return l, r
}

// playOut plays game id to its end through the API: each seat's first
// legal play, "keep" to a redeal question.
func (s *server) playOut(id string, tokens []string) {
	s.t.Helper()
	for range 3000 {
		v := s.room(id, "")
		if v.Status == "finished" {
			return
		}
		moved := false
		for _, tok := range tokens {
			if tok == "" {
				continue
			}
			w := s.poll(id, tok)
			var body string
			switch {
			case w.You.Confirm:
				body = fmt.Sprintf(`{"version":%d,"type":"keep"}`, w.Version)
			case len(w.You.Legal) > 0:
				m := w.You.Legal[0]
				body = fmt.Sprintf(`{"version":%d,"type":"play","tile":[%d,%d],"end":%q}`, w.Version, m.Tile[0], m.Tile[1], m.End)
			default:
				continue
			}
			if r := s.do("POST", "/api/games/"+id+"/moves", body, tok); r.status != 200 {
				s.t.Fatalf("move: %d %s", r.status, r.body)
			}
			moved = true
			break
		}
		if !moved {
			s.t.Fatalf("nobody can move in %s", id)
		}
	}
	s.t.Fatalf("game %s did not end", id)
}

func TestLeagues(t *testing.T) { eachStore(t, testLeagues) }

func testLeagues(t *testing.T, st store.Store) {
	s, advance := movableServer(t, st, 320)
	ana, bea, cy, dee, eve := testKey("ana"), testKey("bea"), testKey("cy"), testKey("dee"), testKey("eve")
	body := `{"name":"Venerdì al bar","variant":"fiveup"}`
	if r := s.do("POST", "/api/leagues", body, ana); r.status != 409 || mustError(t, r).Error.Code != "not_eligible" {
		t.Fatalf("a league by a key without a profile: %d %s", r.status, r.body)
	}
	for _, k := range []string{ana, bea, cy, dee, eve} {
		if r := s.do("PUT", "/api/me/profile", fmt.Sprintf(`{"name":%q}`, strings.ToUpper(k[:1])+k[1:strings.Index(k, "-")]), k); r.status != 200 {
			t.Fatal(r.status)
		}
	}
	for what, b := range map[string]string{
		"a name of 41":    `{"name":"` + strings.Repeat("x", 41) + `","variant":"fiveup"}`,
		"no name":         `{"variant":"fiveup"}`,
		"unknown variant": `{"name":"L","variant":"chess"}`,
		"unknown key":     `{"name":"L","variant":"fiveup","x":1}`,
	} {
		if r := s.do("POST", "/api/leagues", b, ana); r.status != 400 {
			t.Errorf("%s: %d %s", what, r.status, r.body)
		}
	}
	if r := s.do("POST", "/api/leagues", body, ""); r.status != 401 {
		t.Errorf("a league without a key: %d", r.status)
	}
	r := s.do("POST", "/api/leagues", `{"name":"`+strings.Repeat("é", 40)+`","variant":"fiveup"}`, ana)
	if r.status != 201 {
		t.Fatalf("a name of 40: %d %s", r.status, r.body)
	}
	r = s.do("POST", "/api/leagues", body, ana)
	var made struct {
		League leagueBody `json:"league"`
		Invite string     `json:"invite"`
	}
	if r.status != 201 || json.Unmarshal(r.body, &made) != nil || made.Invite == "" {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	l, id, pa := made.League, made.League.ID, s.playerOf(ana)
	season := fixedNow.Format("2006-01")
	if l.Name != "Venerdì al bar" || l.Variant != "fiveup" || l.Admin != pa || l.Season != season || fmt.Sprint(l.Seasons) != "["+season+"]" ||
		len(l.Members) != 1 || l.Members[0].Name != "Ana" || len(l.Table) != 0 || l.Games == nil {
		t.Errorf("new league: %+v", l)
	}
	// The invite's preview (an addition): a visitor with the invite sees the
	// league's name, its admin's name and its size before joining; a wrong
	// invite is 404, and without one a non-member still gets 404.
	var pre struct {
		ID, Name, Variant, Admin, AdminName string
		MemberCount                         int `json:"memberCount"`
		Invited                             bool
	}
	if r := s.do("GET", "/api/leagues/"+id+"?invite="+made.Invite, "", ""); r.status != 200 || json.Unmarshal(r.body, &pre) != nil ||
		pre.Name != "Venerdì al bar" || pre.AdminName != "Ana" || pre.Admin != pa || pre.MemberCount != 1 || !pre.Invited || pre.Variant != "fiveup" {
		t.Errorf("the invite's preview: %d %s", r.status, r.body)
	}
	if r := s.do("GET", "/api/leagues/"+id+"?invite=wrong-invite-0123456789abc", "", bea); r.status != 404 {
		t.Errorf("a preview with a wrong invite: %d", r.status)
	}
	if r := s.do("GET", "/api/leagues/"+id, "", bea); r.status != 404 {
		t.Errorf("a non-member without the invite: %d", r.status)
	}
	// Joining: a wrong invite is 404 as an unknown league; twice is 200.
	join := func(key, invite string) response {
		return s.do("POST", "/api/leagues/"+id+"/members", fmt.Sprintf(`{"invite":%q}`, invite), key)
	}
	if r := join(bea, "wrong-invite-0123456789abc"); r.status != 404 {
		t.Errorf("a wrong invite: %d", r.status)
	}
	if r := s.do("POST", "/api/leagues/nosuchleague0000/members", fmt.Sprintf(`{"invite":%q}`, made.Invite), bea); r.status != 404 {
		t.Errorf("an unknown league: %d", r.status)
	}
	if r := join("", made.Invite); r.status != 401 {
		t.Errorf("joining without a key: %d", r.status)
	}
	if r := join(bea, made.Invite); r.status != 201 {
		t.Fatalf("join: %d %s", r.status, r.body)
	}
	if r := join(bea, made.Invite); r.status != 200 {
		t.Errorf("join again: %d", r.status)
	}
	if _, r := s.leagueOf(id, "", ""); r.status != 404 {
		t.Errorf("a league without a key: %d", r.status)
	}
	if _, r := s.leagueOf(id, cy, ""); r.status != 404 {
		t.Errorf("a league by a non-member: %d", r.status)
	}
	// The invite turns: the admin only; the old one stops working.
	if r := s.do("POST", "/api/leagues/"+id+"/invite", `{}`, bea); r.status != 404 {
		t.Errorf("a member turns the invite: %d", r.status)
	}
	r = s.do("POST", "/api/leagues/"+id+"/invite", `{}`, ana)
	var rot struct {
		Invite string `json:"invite"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &rot) != nil || rot.Invite == made.Invite {
		t.Fatalf("rotate: %d %s", r.status, r.body)
	}
	if r := join(cy, made.Invite); r.status != 404 {
		t.Errorf("the old invite: %d", r.status)
	}
	for _, k := range []string{cy, dee} {
		if r := join(k, rot.Invite); r.status != 201 {
			t.Fatalf("join with the new invite: %d %s", r.status, r.body)
		}
	}
	// League games: members only, the league's rule set.
	if r := s.do("POST", "/api/games", `{"variant":"fiveup","name":"Eve","key":"`+eve+`","league":"`+id+`"}`, ""); r.status != 404 {
		t.Errorf("a league game by a non-member: %d", r.status)
	}
	if r := s.do("POST", "/api/games", `{"variant":"partnership","name":"Ana","key":"`+ana+`","league":"`+id+`"}`, ""); r.status != 400 {
		t.Errorf("another rule set: %d", r.status)
	}
	if r := s.do("POST", "/api/games", `{"variant":"fiveup","name":"Ana","league":"`+id+`"}`, ""); r.status != 400 {
		t.Errorf("a league game without a key: %d", r.status)
	}
	g, tokAna, _ := s.create(`{"variant":"fiveup","players":4,"pairs":true,"target":20,"name":"Ana","key":"` + ana + `","league":"` + id + `"}`)
	if r := s.do("POST", "/api/games/"+g+"/seats", `{"name":"Eve","key":"`+eve+`"}`, ""); r.status != 409 || mustError(t, r).Error.Code != "not_eligible" {
		t.Errorf("a non-member's seat: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/api/games/"+g+"/seats", `{"name":"Zed"}`, ""); r.status != 400 {
		t.Errorf("a seat without a key: %d", r.status)
	}
	tokens := []string{tokAna}
	for _, k := range []string{bea, cy, dee} {
		_, tok, _ := s.join(g, `{"name":"P","key":"`+k+`"}`)
		tokens = append(tokens, tok)
	}
	s.playOut(g, tokens)
	end := s.room(g, "")
	l, _ = s.leagueOf(id, bea, "")
	if len(l.Table) != 4 || len(l.Games) != 1 || l.Games[0].ID != g || l.Games[0].Status != "finished" || *l.Games[0].Winner != *end.Winner {
		t.Fatalf("after a match: %+v", l)
	}
	var scores []int
	v := s.poll(g, "")
	scores = v.Scores
	for _, row := range l.Table {
		seat := map[string]int{pa: 0, s.playerOf(bea): 1, s.playerOf(cy): 2, s.playerOf(dee): 3}[row.Player]
		team := seat % 2
		won := team == *end.Winner
		if row.Played != 1 || (row.Won == 1) != won || row.Lost != 1-row.Won || row.PointsFor != scores[team] || row.PointsAgainst != scores[1-team] {
			t.Errorf("row %+v (seat %d, scores %v, winner %d)", row, seat, scores, *end.Winner)
		}
	}
	if l.Table[0].Won != 1 || l.Table[1].Won != 1 || l.Table[0].Player > l.Table[1].Player || l.Table[0].Rank != 1 || l.Table[3].Rank != 4 {
		t.Errorf("table order: %+v", l.Table)
	}
	// Sweeps and settles again change nothing; a rematch is a league game.
	s.settleAll()
	if l2, _ := s.leagueOf(id, bea, ""); l2.Table[0].Played != 1 {
		t.Errorf("a second settling counted again: %+v", l2.Table)
	}
	if r := s.do("POST", "/api/games/"+g+"/rematch", `{}`, tokAna); r.status != 201 {
		t.Fatalf("rematch: %d", r.status)
	}
	if l, _ = s.leagueOf(id, ana, ""); len(l.Games) != 2 || l.Games[0].Status == l.Games[1].Status {
		t.Errorf("the rematch is not among the league's games: %+v", l.Games)
	}
	// Removing: admin only; the admin stays; a removed member's row stays.
	if r := s.do("DELETE", "/api/leagues/"+id+"/members/"+s.playerOf(dee), "", bea); r.status != 404 {
		t.Errorf("a member removes another: %d", r.status)
	}
	if r := s.do("DELETE", "/api/leagues/"+id+"/members/"+pa, "", ana); r.status != 400 {
		t.Errorf("the admin removes themself: %d", r.status)
	}
	if r := s.do("DELETE", "/api/leagues/"+id+"/members/"+s.playerOf(dee), "", ana); r.status != 204 {
		t.Fatalf("remove: %d %s", r.status, r.body)
	}
	if _, r := s.leagueOf(id, dee, ""); r.status != 404 {
		t.Errorf("a removed member reads the league: %d", r.status)
	}
	if l, _ = s.leagueOf(id, ana, ""); len(l.Members) != 3 || len(l.Table) != 4 {
		t.Errorf("after removal: %d members, %d rows", len(l.Members), len(l.Table))
	}
	var me struct {
		Leagues []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"leagues"`
	}
	json.Unmarshal(s.do("GET", "/api/me", "", dee).body, &me)
	if len(me.Leagues) != 0 {
		t.Errorf("a removed member's leagues: %+v", me.Leagues)
	}
	json.Unmarshal(s.do("GET", "/api/me", "", bea).body, &me)
	if len(me.Leagues) != 1 || me.Leagues[0].ID != id || me.Leagues[0].Name != "Venerdì al bar" {
		t.Errorf("Bea's leagues: %+v", me.Leagues)
	}
	// A month later: a new season; the old one stays readable.
	advance(40 * 24 * time.Hour)
	g2, t2, _ := s.create(`{"variant":"fiveup","players":2,"target":10,"name":"Ana","key":"` + ana + `","league":"` + id + `"}`)
	_, t3, _ := s.join(g2, `{"name":"Bea","key":"`+bea+`"}`)
	s.playOut(g2, []string{t2, t3})
	l, _ = s.leagueOf(id, ana, "")
	now := fixedNow.Add(40 * 24 * time.Hour).Format("2006-01")
	if l.Season != now || fmt.Sprint(l.Seasons) != "["+season+" "+now+"]" || len(l.Table) != 2 {
		t.Errorf("the new season: %s %v, %d rows", l.Season, l.Seasons, len(l.Table))
	}
	if old, _ := s.leagueOf(id, ana, "?season="+season); len(old.Table) != 4 || old.Season != season || len(old.Games) != 1 {
		t.Errorf("the old season: %+v", old)
	}
	for _, q := range []string{"?season=2026-13", "?season=26-12", "?season=x"} {
		if _, r := s.leagueOf(id, ana, q); r.status != 400 {
			t.Errorf("season %s: %d", q, r.status)
		}
	}
	// The first month has ended: the sweep crowns its champion (a table of
	// 4), once, however often it runs.
	s.settleAll()
	s.settleAll()
	champion := ""
	if old, _ := s.leagueOf(id, ana, "?season="+season); len(old.Table) > 0 {
		champion = old.Table[0].Player
	}
	for _, k := range []string{ana, bea, cy, dee} {
		var prof map[string]json.RawMessage
		json.Unmarshal(s.do("GET", "/api/players/"+s.playerOf(k), "", "").body, &prof)
		n := strings.Count(string(prof["trophies"]), `"league-champion"`)
		if want := btoi(s.playerOf(k) == champion); n != want {
			t.Errorf("%s has league-champion %d times, want %d: %s", k[:3], n, want, prof["trophies"])
		}
	}
	// At most 10 leagues a key (two made so far).
	for i := range 8 {
		if r := s.do("POST", "/api/leagues", fmt.Sprintf(`{"name":"L%d","variant":"block"}`, i), ana); r.status != 201 {
			t.Fatalf("league %d: %d", i+3, r.status)
		}
	}
	if r := s.do("POST", "/api/leagues", body, ana); r.status != 409 || mustError(t, r).Error.Code != "limit_reached" {
		t.Errorf("an eleventh league: %d %s", r.status, r.body)
	}
}
