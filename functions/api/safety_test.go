package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tessera/functions/community"
	"tessera/functions/store"
)

// chatTexts is what key reads of game id's talk.
func (s *server) chatTexts(id, key string) []string {
	s.t.Helper()
	r := s.do("GET", "/api/games/"+id+"/chat", "", key)
	var c struct {
		Messages []struct {
			Text *string `json:"text"`
		} `json:"messages"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &c) != nil {
		s.t.Fatalf("chat: %d %s", r.status, r.body)
	}
	out := []string{}
	for _, m := range c.Messages {
		if m.Text != nil {
			out = append(out, *m.Text)
		}
	}
	return out
}

// lobbyIDs is the lobby's game ids as key reads it ("" none).
func (s *server) lobbyIDs(key string) []string {
	s.t.Helper()
	r := s.do("GET", "/api/lobby", "", key)
	var l struct {
		Games []struct {
			ID string `json:"id"`
		} `json:"games"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &l) != nil {
		s.t.Fatalf("lobby: %d %s", r.status, r.body)
	}
	out := []string{}
	for _, g := range l.Games {
		out = append(out, g.ID)
	}
	return out
}

// Mute and block through the API (docs/blocking.md): bad requests change
// nothing; a mute hides a player's talk from the muter alone, until
// unmuted; a block hides the blocked player's open tables from the
// blocker's lobby and refuses a seat at a table where either blocked the
// other, both ways; the lists are the key's alone (never in a public
// profile).
func TestMuteAndBlock(t *testing.T) { eachStore(t, testMuteAndBlock) }

func testMuteAndBlock(t *testing.T, st store.Store) {
	s, _ := movableServer(t, st, 372)
	ana, bea, cy, dee := testKey("ana"), testKey("bea"), testKey("cy"), testKey("dee")
	for _, k := range []string{ana, bea, cy} {
		if r := s.do("PUT", "/api/me/profile", fmt.Sprintf(`{"name":%q}`, strings.ToUpper(k[:1])+k[1:strings.Index(k, "-")]), k); r.status != 200 {
			t.Fatal(r.status)
		}
	}
	pa, pb := s.playerOf(ana), s.playerOf(bea)
	before := s.do("GET", "/api/me", "", ana).body
	for _, c := range []struct {
		method, path, body, key string
		status                  int
		code                    string
	}{
		{"PUT", "/api/me/mutes/" + pa, "", ana, 400, "bad_request"},
		{"PUT", "/api/me/blocks/" + pa, "", ana, 400, "bad_request"},
		{"PUT", "/api/me/mutes/nosuchplayer00000", "", ana, 404, "not_found"},
		{"PUT", "/api/me/mutes/" + pb, "", "", 401, "unauthorized"},
		{"PUT", "/api/me/mutes/" + pb, "", dee, 409, "not_eligible"},
		{"PUT", "/api/me/mutes/" + pb, `{"x":1}`, ana, 400, "bad_request"},
		{"PATCH", "/api/me/blocks/" + pb, "", ana, 405, "method_not_allowed"},
	} {
		r := s.do(c.method, c.path, c.body, c.key)
		if r.status != c.status || mustError(t, r).Error.Code != c.code {
			t.Errorf("%s %s %q: %d %s, want %d %s", c.method, c.path, c.body, r.status, r.body, c.status, c.code)
		}
	}
	if after := s.do("GET", "/api/me", "", ana).body; string(after) != string(before) {
		t.Fatalf("a refused request changed the profile:\n%s\n%s", before, after)
	}

	// Mute: Bea's talk is gone for Ana alone, back when unmuted.
	id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + ana + `"}`)
	s.join(id, `{"name":"Bea","key":"`+bea+`"}`)
	if r := s.do("POST", "/api/games/"+id+"/chat", `{"text":"ciao"}`, bea); r.status != 201 && r.status != 200 {
		t.Fatalf("chat: %d %s", r.status, r.body)
	}
	for range 2 {
		r := s.do("PUT", "/api/me/mutes/"+pb, "", ana)
		var p struct {
			Muted []struct{ Player, Name string } `json:"muted"`
		}
		if r.status != 200 || json.Unmarshal(r.body, &p) != nil || len(p.Muted) != 1 || p.Muted[0].Player != pb || p.Muted[0].Name != "Bea" {
			t.Fatalf("mute: %d %s", r.status, r.body)
		}
	}
	if got := s.chatTexts(id, ana); len(got) != 0 {
		t.Fatalf("Ana muted Bea and reads %v", got)
	}
	if got := s.chatTexts(id, bea); len(got) != 1 {
		t.Fatalf("Bea reads her own talk: %v", got)
	}
	if r := s.do("DELETE", "/api/me/mutes/"+pb, "", ana); r.status != 200 || !strings.Contains(string(r.body), `"muted":[]`) {
		t.Fatalf("unmute: %d %s", r.status, r.body)
	}
	if got := s.chatTexts(id, ana); len(got) != 1 {
		t.Fatalf("unmuted, Ana reads %v", got)
	}

	// Block: Bea's open table leaves Ana's lobby; no seat either way.
	beaTable, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Bea","key":"` + bea + `","open":true,"moveTime":3600}`)
	if r := s.do("PUT", "/api/me/blocks/"+pb, "", ana); r.status != 200 {
		t.Fatalf("block: %d %s", r.status, r.body)
	}
	has := func(ids []string, id string) bool { return strings.Contains(strings.Join(ids, ","), id) }
	if has(s.lobbyIDs(ana), beaTable) || !has(s.lobbyIDs(cy), beaTable) || !has(s.lobbyIDs(""), beaTable) {
		t.Fatalf("lobbies: Ana %v, Cy %v, anyone %v; Bea's table %s", s.lobbyIDs(ana), s.lobbyIDs(cy), s.lobbyIDs(""), beaTable)
	}
	if r := s.do("POST", "/api/games/"+beaTable+"/seats", `{"name":"Ana","key":"`+ana+`"}`, ""); r.status != 409 || mustError(t, r).Error.Code != "not_eligible" {
		t.Fatalf("Ana at Bea's table: %d %s", r.status, r.body)
	}
	anaTable, _, _ := s.create(`{"variant":"fiveup","players":3,"name":"Ana","key":"` + ana + `","open":true,"moveTime":3600}`)
	if r := s.do("POST", "/api/games/"+anaTable+"/seats", `{"name":"Bea","key":"`+bea+`"}`, ""); r.status != 409 || mustError(t, r).Error.Code != "not_eligible" {
		t.Fatalf("Bea at Ana's table (Ana blocked her): %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/api/games/"+anaTable+"/seats", `{"name":"Cy","key":"`+cy+`"}`, ""); r.status != 201 {
		t.Fatalf("Cy at Ana's table: %d %s", r.status, r.body)
	}
	// A friendly game by link is not the room's: a block does not refuse it.
	friendly, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + ana + `"}`)
	if r := s.do("POST", "/api/games/"+friendly+"/seats", `{"name":"Bea","key":"`+bea+`"}`, ""); r.status != 201 {
		t.Fatalf("Bea at Ana's friendly table: %d %s", r.status, r.body)
	}
	if r := s.do("DELETE", "/api/me/blocks/"+pb, "", ana); r.status != 200 {
		t.Fatalf("unblock: %d %s", r.status, r.body)
	}
	if !has(s.lobbyIDs(ana), beaTable) {
		t.Fatal("unblocked, Bea's table is still out of Ana's lobby")
	}
	if r := s.do("POST", "/api/games/"+beaTable+"/seats", `{"name":"Ana","key":"`+ana+`"}`, ""); r.status != 201 {
		t.Fatalf("unblocked, Ana at Bea's table: %d %s", r.status, r.body)
	}
	// A full list refuses one more and stays as it was.
	if _, _, err := s.h.(*Handler).com.UpdateProfile(context.Background(), pa, func(p *community.Profile) bool {
		p.Muted = nil
		for i := range community.MaxListed {
			p.Muted = append(p.Muted, fmt.Sprintf("p%015d", i))
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if r := s.do("PUT", "/api/me/mutes/"+pb, "", ana); r.status != 409 || mustError(t, r).Error.Code != "limit_reached" {
		t.Fatalf("a full list: %d %s", r.status, r.body)
	}
	if got := s.chatTexts(id, ana); len(got) != 1 {
		t.Fatalf("after a refused mute Ana reads %v", got)
	}
	// The lists are private.
	s.do("PUT", "/api/me/blocks/"+pb, "", ana)
	s.do("PUT", "/api/me/mutes/"+pb, "", ana)
	if r := s.do("GET", "/api/players/"+pa, "", ""); r.status != 200 || strings.Contains(string(r.body), pb) || strings.Contains(string(r.body), "muted") || strings.Contains(string(r.body), "blocked") {
		t.Fatalf("Ana's public profile: %s", r.body)
	}
}
