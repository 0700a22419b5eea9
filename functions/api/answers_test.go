package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tessera/functions/store/memory"
)

// TestCommunityAnswersAreAsDocumented (issue 43): the room's answers
// (GET /api/me, a public profile, the lobby, a leaderboard, a league and
// its preview, a tournament, the private profile) in a room with rated
// matches, a muted player, a league and a listed tournament, each valid
// against its schema of docs/openapi.yaml, which names every key
// (additionalProperties: false): a key added to an answer and not to the
// document fails here, as the views' do.
func TestCommunityAnswersAreAsDocumented(t *testing.T) {
	s, _ := movableServer(t, memory.New(), 777)
	ana, bea, cy := testKey("ana"), testKey("bea"), testKey("cy")
	// Three unrated matches (rated tables are for players who finished
	// 3), then ten rated: both leave their provisional ratings and are on
	// the leaderboard.
	for range 3 {
		id, toks := s.openDuel(ana, bea, false)
		s.awayAll(id, toks)
	}
	for range 10 {
		id, tokA, _ := s.create(fmt.Sprintf(`{"variant":"fiveup","players":2,"target":25,"name":"A","key":%q,"open":true,"rated":true,"moveTime":3600}`, ana))
		_, tokB, _ := s.join(id, fmt.Sprintf(`{"name":"B","key":%q}`, bea))
		s.awayAll(id, []string{tokA, tokB})
	}
	if r := s.do("PUT", "/api/me/profile", `{"name":"Cy"}`, cy); r.status != 200 {
		t.Fatalf("Cy's name: %d %s", r.status, r.body)
	}
	s.create(fmt.Sprintf(`{"variant":"fiveup","players":2,"target":100,"name":"Cy","key":%q,"open":true,"moveTime":3600}`, cy))
	pa := s.playerOf(ana)
	s.do("PUT", "/api/me/mutes/"+s.playerOf(cy), "", ana)
	r := s.do("POST", "/api/leagues", `{"name":"Lega","variant":"fiveup"}`, ana)
	var league struct {
		League struct{ ID string } `json:"league"`
		Invite string              `json:"invite"`
	}
	if r.status != 201 || json.Unmarshal(r.body, &league) != nil {
		t.Fatalf("league: %d %s", r.status, r.body)
	}
	conformsTo(t, "LeagueCreated", r.body)
	s.do("POST", "/api/leagues/"+league.League.ID+"/members", `{"invite":"`+league.Invite+`"}`, bea)
	// A league game waiting for Bea: open in Ana's games and the league's.
	s.create(fmt.Sprintf(`{"variant":"fiveup","players":2,"name":"A","key":%q,"league":%q}`, ana, league.League.ID))
	r = s.do("POST", "/api/tournaments", `{"name":"Coppa","format":"swiss","rounds":2,"variant":"fiveup","players":2,"target":10,"moveTime":86400,"roundTime":604800,"size":8,"listed":true}`, ana)
	var tour struct {
		Tournament struct{ ID string } `json:"tournament"`
	}
	if r.status != 201 || json.Unmarshal(r.body, &tour) != nil {
		t.Fatalf("tournament: %d %s", r.status, r.body)
	}
	for _, k := range []string{ana, bea} {
		if r := s.do("POST", "/api/tournaments/"+tour.Tournament.ID+"/entries", `{}`, k); r.status != 201 {
			t.Fatalf("enter: %d %s", r.status, r.body)
		}
	}
	for _, c := range []struct{ schema, path, key, must string }{
		{"Me", "/api/me", ana, `"status":"open"`},
		{"PublicProfile", "/api/players/" + pa, "", `"provisional":false`},
		{"Lobby", "/api/lobby", "", `"name":"Coppa"`},
		{"Lobby", "/api/lobby", cy, `"taken":true`},
		{"Leaderboard", "/api/leaderboard/fiveup-duel", "", `"rank":2`},
		{"LeagueView", "/api/leagues/" + league.League.ID, ana, `"status":"open"`},
		{"LeaguePreview", "/api/leagues/" + league.League.ID + "?invite=" + league.Invite, cy, `"invited":true`},
		{"Tournament", "/api/tournaments/" + tour.Tournament.ID, ana, `"buchholz"`},
		{"PrivateProfileBody", "/api/me/profile", cy, `"name":"Cy"`},
	} {
		method := "GET"
		body := ""
		if c.path == "/api/me/profile" {
			method, body = "PUT", `{"name":"Cy"}`
		}
		r := s.do(method, c.path, body, c.key)
		if r.status != 200 || !strings.Contains(string(r.body), c.must) {
			t.Errorf("%s %s: %d %s (want %s in it)", method, c.path, r.status, r.body, c.must)
			continue
		}
		conformsTo(t, c.schema, r.body)
		// The check can fail: an answer with one more key is refused.
		var v map[string]any
		_ = json.Unmarshal(r.body, &v)
		v["extra"] = 1
		doc := loadOpenAPI(t)
		if doc.ValidateSchemaJSON(doc.Components.Schemas[c.schema].Value, v) == nil {
			t.Errorf("%s with an unknown key still validates: the check proves nothing", c.schema)
		}
	}
}
