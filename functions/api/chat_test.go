package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"tessera/functions/store"
)

type chatMessageJSON struct {
	Seq      int     `json:"seq"`
	Seat     int     `json:"seat"`
	Text     *string `json:"text"`
	Reaction *string `json:"reaction"`
	At       string  `json:"at"`
}

func (s *server) sendChat(id, body, token string, want int) chatMessageJSON {
	s.t.Helper()
	r := s.do("POST", "/api/games/"+id+"/chat", body, token)
	if r.status != want {
		s.t.Fatalf("POST chat %s: %d %s, want %d", body, r.status, r.body, want)
	}
	var out struct {
		Message chatMessageJSON `json:"message"`
	}
	if want < 300 && json.Unmarshal(r.body, &out) != nil {
		s.t.Fatalf("POST chat: %s", r.body)
	}
	return out.Message
}

func (s *server) readChat(id, query, token string) []chatMessageJSON {
	s.t.Helper()
	r := s.do("GET", "/api/games/"+id+"/chat"+query, "", token)
	var out struct {
		Messages []chatMessageJSON `json:"messages"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &out) != nil || out.Messages == nil {
		s.t.Fatalf("GET chat%s: %d %s", query, r.status, r.body)
	}
	return out.Messages
}

type chatView struct {
	Version int64 `json:"version"`
	Chat    *int  `json:"chat"`
}

func (s *server) chatView(id, token string) (chatView, string) {
	s.t.Helper()
	r := s.do("GET", "/api/games/"+id, "", token)
	var v chatView
	if r.status != 200 || json.Unmarshal(r.body, &v) != nil {
		s.t.Fatalf("poll: %d %s", r.status, r.body)
	}
	return v, r.header.Get("ETag")
}

// The table talk through the API (API.md "Chat") on every store: who may
// read and write, what a message is, retries, the view's chat and its
// ETag, the game's version untouched, after, and the refusals.
func TestTableTalk(t *testing.T) { eachStore(t, testTableTalk) }

func testTableTalk(t *testing.T, st store.Store) {
	s, _ := newClockServer(t, st, 701)
	id, keys := s.twoPlayers(0)
	// Another game's seat is a spectator here.
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Cy","key":"`+testKey("cy")+`"}`, "")
	if r.status != 201 {
		t.Fatalf("create: %d", r.status)
	}
	v0, tag0 := s.chatView(id, keys[1])
	if v0.Chat == nil || *v0.Chat != 0 {
		t.Fatalf("a seat's view before any talk: chat %v, want 0", v0.Chat)
	}
	if sv, _ := s.chatView(id, ""); sv.Chat != nil {
		t.Fatalf("a spectator's view has chat %d, want null", *sv.Chat)
	}
	for _, tok := range []string{"", "AAAAAAAAAAAAAAAAAAAAAA", testKey("cy")} {
		if r := s.do("GET", "/api/games/"+id+"/chat", "", tok); r.status != 401 {
			t.Errorf("GET chat with token %q: %d, want 401", tok, r.status)
		}
		if r := s.do("POST", "/api/games/"+id+"/chat", `{"text":"hi"}`, tok); r.status != 401 {
			t.Errorf("POST chat with token %q: %d, want 401", tok, r.status)
		}
	}
	if r := s.do("GET", "/api/games/nosuchgame0000/chat", "", keys[0]); r.status != 404 {
		t.Errorf("an unknown game's chat: %d, want 404", r.status)
	}

	m := s.sendChat(id, `{"text":"  Bella mossa!\n "}`, keys[0], 201)
	if m.Seq != 1 || m.Seat != 0 || m.Text == nil || *m.Text != "Bella mossa!" || m.Reaction != nil || m.At == "" {
		t.Fatalf("the first message: %+v", m)
	}
	if _, err := time.Parse(time.RFC3339, m.At); err != nil {
		t.Errorf("at %q: %v", m.At, err)
	}
	v1, tag1 := s.chatView(id, keys[1])
	if v1.Version != v0.Version || v1.Chat == nil || *v1.Chat != 1 {
		t.Fatalf("after a message the view is version %d chat %v (was version %d)", v1.Version, v1.Chat, v0.Version)
	}
	if tag1 == tag0 {
		t.Errorf("the ETag did not change with the talk: %s", tag1)
	}
	if r := s.do("GET", "/api/games/"+id, "", keys[1], "If-None-Match", tag0); r.status != 200 {
		t.Errorf("a poll with the ETag before the talk: %d, want 200", r.status)
	}
	if r := s.do("GET", "/api/games/"+id, "", keys[1], "If-None-Match", tag1); r.status != 304 {
		t.Errorf("a poll with the current ETag: %d, want 304", r.status)
	}

	// A retry of a messageId answers 200 with the message sent; another
	// seat's same messageId is its own.
	r1 := s.sendChat(id, `{"reaction":"thumbs-up","messageId":"m-1"}`, keys[1], 201)
	r2 := s.sendChat(id, `{"reaction":"thumbs-up","messageId":"m-1"}`, keys[1], 200)
	if mustJSON(r1) != mustJSON(r2) || r1.Seq != 2 || r1.Reaction == nil || *r1.Reaction != "thumbs-up" || r1.Text != nil {
		t.Fatalf("a retry: %+v then %+v", r1, r2)
	}
	if r3 := s.sendChat(id, `{"text":"ok","messageId":"m-1"}`, keys[0], 201); r3.Seq != 3 {
		t.Fatalf("another seat's messageId: %+v", r3)
	}

	all := s.readChat(id, "", keys[1])
	if len(all) != 3 || all[0].Seq != 1 || all[2].Seq != 3 || *all[1].Reaction != "thumbs-up" {
		t.Fatalf("GET chat: %+v", all)
	}
	if later := s.readChat(id, "?after=2", keys[0]); len(later) != 1 || later[0].Seq != 3 {
		t.Fatalf("after=2: %+v", later)
	}
	if none := s.readChat(id, "?after=3", keys[0]); len(none) != 0 {
		t.Fatalf("after=3: %+v", none)
	}
	for _, q := range []string{"?after=", "?after=-1", "?after=x", "?after=1.5", "?after=%2B1"} {
		if r := s.do("GET", "/api/games/"+id+"/chat"+q, "", keys[0]); r.status != 400 {
			t.Errorf("GET chat%s: %d, want 400", q, r.status)
		}
	}
	for _, body := range []string{`{}`, `{"text":"a","reaction":"oops"}`, `{"text":"   "}`, `{"text":""}`,
		`{"text":"` + strings.Repeat("é", 281) + `"}`, `{"text":"a\tb"}`, `{"text":"a\u0007"}`, `{"reaction":"wave"}`,
		`{"text":"a","x":1}`, `{"text":1}`, `{"text":"a","messageId":""}`, `[]`, `{"reaction":null}`} {
		if r := s.do("POST", "/api/games/"+id+"/chat", body, keys[0]); r.status != 400 {
			t.Errorf("POST chat %s: %d %s, want 400", body, r.status, r.body)
		}
	}
	if m := s.sendChat(id, `{"text":"`+strings.Repeat("é", 280)+`"}`, keys[0], 201); m.Seq != 4 {
		t.Fatalf("280 code points: %+v", m)
	}
	if v, _ := s.chatView(id, keys[0]); v.Version != v0.Version || *v.Chat != 4 {
		t.Fatalf("the talk changed the game: %+v", v)
	}
	if r := s.do("PUT", "/api/games/"+id+"/chat", `{}`, keys[0]); r.status != 405 {
		t.Errorf("PUT chat: %d", r.status)
	}
}

// An open table talks with reactions only; a seat sends at most 20
// messages a minute and 500 a game (a retry counts toward no limit);
// GET keeps the last 200.
func TestTableTalkLimits(t *testing.T) {
	s, clock := newClockServer(t, nil2mem(), 702)
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Ana","key":"`+keyAna+`","open":true,"moveTime":3600}`, "")
	var a seatAnswerJSON
	json.Unmarshal(r.body, &a)
	open := mustView(t, a.Game).ID
	if r := s.do("POST", "/api/games/"+open+"/chat", `{"text":"ciao"}`, keyAna); r.status != 409 || !bodyHasCode(r.body, "not_eligible") {
		t.Errorf("text at an open table: %d %s, want 409 not_eligible", r.status, r.body)
	}
	s.sendChat(open, `{"reaction":"good-game"}`, keyAna, 201)

	id, keys := s.twoPlayers(0)
	for i := 0; i < 20; i++ {
		s.sendChat(id, fmt.Sprintf(`{"text":"m%d","messageId":"id-%d"}`, i, i), keys[0], 201)
	}
	if r := s.do("POST", "/api/games/"+id+"/chat", `{"text":"one too many"}`, keys[0]); r.status != 409 || !bodyHasCode(r.body, "limit_reached") {
		t.Fatalf("the 21st message in a minute: %d %s, want 409 limit_reached", r.status, r.body)
	}
	s.sendChat(id, `{"text":"m19","messageId":"id-19"}`, keys[0], 200) // a retry is answered, as the last 16 are
	s.sendChat(id, `{"text":"the other seat"}`, keys[1], 201)
	sent := 20
	for sent < 500 {
		clock.Add(61 * time.Second)
		for i := 0; i < 20 && sent < 500; i++ {
			s.sendChat(id, fmt.Sprintf(`{"text":"n%d"}`, sent), keys[0], 201)
			sent++
		}
	}
	clock.Add(61 * time.Second)
	if r := s.do("POST", "/api/games/"+id+"/chat", `{"reaction":"oops"}`, keys[0]); r.status != 409 || !bodyHasCode(r.body, "limit_reached") {
		t.Fatalf("the 501st message: %d %s, want 409 limit_reached", r.status, r.body)
	}
	msgs := s.readChat(id, "", keys[1])
	if len(msgs) != 200 || msgs[199].Seq != 501 || msgs[0].Seq != 302 {
		t.Fatalf("GET keeps the last 200: %d, %d..%d", len(msgs), msgs[0].Seq, msgs[len(msgs)-1].Seq)
	}
}
