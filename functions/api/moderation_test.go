package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"tessera/functions/community"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

const operatorToken = "op-7Hq2xVb9KpL4mN8rT1wZ" // a test's; deployments set theirs (docs/moderation.md)

// operatorServer is movableServer with an operator token.
func operatorServer(t *testing.T, st store.Store, seed uint64) (*server, *Handler) {
	s := newServer(t, st, seed)
	now := fixedNow
	h := New(Config{Store: st, Rand: seededReader(seed), Logger: slog.New(slog.NewJSONHandler(s.logs, nil)),
		Now: func() time.Time { now = now.Add(time.Microsecond); return now }, OperatorToken: operatorToken})
	s.h = h
	return s, h
}

type queueBody struct {
	Reports []community.Report `json:"reports"`
}

func (s *server) queue() queueBody {
	s.t.Helper()
	r := s.do("GET", "/api/reports", "", operatorToken)
	var q queueBody
	if r.status != 200 || json.Unmarshal(r.body, &q) != nil {
		s.t.Fatalf("queue: %d %s", r.status, r.body)
	}
	return q
}

// Reports and moderation through the API (docs/moderation.md): the
// routes are absent without an operator token and refuse any other;
// bad reports change nothing; a report is made once whatever retries,
// with its context (a message's text, copied); too many a minute are
// refused; the operator closes reports, renames and suspends a profile
// (once), and a suspended player leaves the leaderboards and the open
// room; the token is in no answer and no log line.
func TestReportsAndModeration(t *testing.T) { eachStore(t, testReportsAndModeration) }

func testReportsAndModeration(t *testing.T, st store.Store) {
	if r := newServer(t, st, 380).do("GET", "/api/reports", "", operatorToken); r.status != 404 {
		t.Fatalf("no operator token: %d %s", r.status, r.body)
	}
	s, h := operatorServer(t, st, 381)
	ana, bea, cy, dee := testKey("ana"), testKey("bea"), testKey("cy"), testKey("dee")
	for _, k := range []string{ana, bea, cy} {
		if r := s.do("PUT", "/api/me/profile", fmt.Sprintf(`{"name":%q}`, strings.ToUpper(k[:1])+k[1:strings.Index(k, "-")]), k); r.status != 200 {
			t.Fatal(r.status)
		}
	}
	pa, pb := s.playerOf(ana), s.playerOf(bea)
	for _, tok := range []string{"", "not-the-token", operatorToken + "x"} {
		if r := s.do("GET", "/api/reports", "", tok); r.status != 401 {
			t.Fatalf("queue with %q: %d", tok, r.status)
		}
	}
	if q := s.queue(); len(q.Reports) != 0 {
		t.Fatalf("an empty queue: %+v", q)
	}

	// A game where Bea says something.
	id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + ana + `"}`)
	s.join(id, `{"name":"Bea","key":"`+bea+`"}`)
	s.do("POST", "/api/games/"+id+"/chat", `{"text":"you play like a brick"}`, bea)
	s.do("POST", "/api/games/"+id+"/chat", `{"text":"mine"}`, ana)
	long := strings.Repeat("x", community.MaxReportNote+1)
	for _, c := range []struct {
		body, key string
		status    int
		code      string
	}{
		{`{"player":"` + pb + `","what":"name"}`, "", 401, "unauthorized"},
		{`{"player":"` + pb + `","what":"name"}`, dee, 409, "not_eligible"},
		{`{"player":"` + pa + `","what":"name"}`, ana, 400, "bad_request"},
		{`{"player":"nosuchplayer00000","what":"name"}`, ana, 404, "not_found"},
		{`{"player":"` + pb + `","what":"face"}`, ana, 400, "bad_request"},
		{`{"player":"` + pb + `","what":"message"}`, ana, 400, "bad_request"},
		{`{"player":"` + pb + `","what":"name","seq":1}`, ana, 400, "bad_request"},
		{`{"player":"` + pb + `","what":"name","note":"` + long + `"}`, ana, 400, "bad_request"},
		{`{"player":"` + pb + `","what":"name","x":1}`, ana, 400, "bad_request"},
		{`{"player":"` + pb + `","what":"message","game":"` + id + `","seq":2}`, ana, 400, "bad_request"}, // Ana's own
		{`{"player":"` + pb + `","what":"message","game":"` + id + `","seq":1}`, cy, 400, "bad_request"},  // not Cy's game
		{`{"player":"` + pb + `","what":"message","game":"nosuchgame0000000","seq":1}`, ana, 404, "not_found"},
	} {
		r := s.do("POST", "/api/reports", c.body, c.key)
		if r.status != c.status || mustError(t, r).Error.Code != c.code {
			t.Errorf("report %s by %q: %d %s, want %d %s", c.body, c.key, r.status, r.body, c.status, c.code)
		}
	}
	if q := s.queue(); len(q.Reports) != 0 {
		t.Fatalf("refused reports are in the queue: %+v", q)
	}

	// A name and a message reported; a retry is the same report.
	var first struct {
		Report struct{ ID string } `json:"report"`
	}
	r := s.do("POST", "/api/reports", `{"player":"`+pb+`","what":"name","note":"a rude name"}`, ana)
	if r.status != 201 || json.Unmarshal(r.body, &first) != nil {
		t.Fatalf("report: %d %s", r.status, r.body)
	}
	if r2 := s.do("POST", "/api/reports", `{"player":"`+pb+`","what":"name","note":"a rude name"}`, ana); r2.status != 200 || string(r2.body) != string(r.body) {
		t.Fatalf("the same report again: %d %s", r2.status, r2.body)
	}
	if r := s.do("POST", "/api/reports", `{"player":"`+pb+`","what":"message","game":"`+id+`","seq":1}`, ana); r.status != 201 {
		t.Fatalf("a message: %d %s", r.status, r.body)
	}
	q := s.queue()
	if len(q.Reports) != 2 || q.Reports[0].ID != first.Report.ID || q.Reports[0].Name != "Bea" || q.Reports[0].By != pa ||
		q.Reports[0].Note != "a rude name" || q.Reports[1].Message == nil || q.Reports[1].Message.Text != "you play like a brick" || q.Reports[1].Game != id {
		t.Fatalf("queue: %+v", q)
	}
	// The queue's pages: a short queue has no next; a cursor that no page
	// can give is 400.
	if r := s.do("GET", "/api/reports", "", operatorToken); strings.Contains(string(r.body), `"next"`) {
		t.Errorf("a queue of two has a next: %s", r.body)
	} else {
		var page struct{ Reports []json.RawMessage }
		_ = json.Unmarshal(r.body, &page)
		for _, rep := range page.Reports {
			conformsTo(t, "Report", rep)
		}
	}
	if r := s.do("GET", "/api/reports?after=a%20b", "", operatorToken); r.status != 400 {
		t.Errorf("a cursor with a space: %d %s, want 400", r.status, r.body)
	}
	// Five a minute: the sixth is refused and not kept.
	for i := range 3 {
		if r := s.do("POST", "/api/reports", fmt.Sprintf(`{"player":"%s","what":"player","note":"%d"}`, pb, i), ana); r.status != 201 {
			t.Fatalf("report %d: %d %s", i, r.status, r.body)
		}
	}
	if r := s.do("POST", "/api/reports", `{"player":"`+pb+`","what":"player","note":"sixth"}`, ana); r.status != 409 || mustError(t, r).Error.Code != "limit_reached" {
		t.Fatalf("a sixth report in a minute: %d %s", r.status, r.body)
	}
	if q := s.queue(); len(q.Reports) != 5 {
		t.Fatalf("%d reports in the queue, want 5", len(q.Reports))
	}
	// Closed: out of the queue, once.
	for range 2 {
		if r := s.do("DELETE", "/api/reports/"+first.Report.ID, "", operatorToken); r.status != 204 {
			t.Fatalf("close: %d %s", r.status, r.body)
		}
	}
	if r := s.do("DELETE", "/api/reports/"+first.Report.ID, "", ana); r.status != 401 {
		t.Fatalf("a player closes a report: %d", r.status)
	}
	if r := s.do("DELETE", "/api/reports/nosuchreport0000", "", operatorToken); r.status != 404 {
		t.Fatalf("close an unknown report: %d", r.status)
	}
	if q := s.queue(); len(q.Reports) != 4 {
		t.Fatalf("%d reports after closing one, want 4", len(q.Reports))
	}

	// Bea on a leaderboard (her pool's stats written as a settling would).
	ctx := context.Background()
	if _, _, err := h.com.UpdateProfile(ctx, pb, func(p *community.Profile) bool {
		p.Pools = map[string]*community.PoolStats{"fiveup-duel": {Mu: 30, Sigma: 2, Games: 12, Wins: 8}}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	board := func() string { return string(s.do("GET", "/api/leaderboard/fiveup-duel", "", "").body) }
	mod := func(body string) response { return s.do("PUT", "/api/players/"+pb+"/moderation", body, operatorToken) }
	for _, c := range []struct {
		body, token string
		status      int
	}{{`{"name":"Beatrice"}`, "", 401}, {`{}`, operatorToken, 400}, {`{"name":"fr0cio"}`, operatorToken, 400}, {`{"suspended":"yes"}`, operatorToken, 400}} {
		if r := s.do("PUT", "/api/players/"+pb+"/moderation", c.body, c.token); r.status != c.status {
			t.Fatalf("moderation %s: %d %s, want %d", c.body, r.status, r.body, c.status)
		}
	}
	if r := s.do("PUT", "/api/players/nosuchplayer00000/moderation", `{"suspended":true}`, operatorToken); r.status != 404 {
		t.Fatalf("an unknown player: %d", r.status)
	}
	for range 2 {
		if r := mod(`{"name":"Beatrice"}`); r.status != 200 || !strings.Contains(string(r.body), `"name":"Beatrice"`) {
			t.Fatalf("rename: %d %s", r.status, r.body)
		}
	}
	if !strings.Contains(board(), `"name":"Beatrice"`) {
		t.Fatalf("the board after the rename: %s", board())
	}
	// A table Bea opened before her suspension, still waiting in the lobby.
	waiting, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Bea","key":"` + bea + `","open":true,"moveTime":3600}`)
	for range 2 {
		if r := mod(`{"suspended":true}`); r.status != 200 || !strings.Contains(string(r.body), `"suspended":true`) {
			t.Fatalf("suspend: %d %s", r.status, r.body)
		}
	}
	if strings.Contains(board(), pb) {
		t.Fatalf("a suspended player on the board: %s", board())
	}
	if r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Bea","key":"`+bea+`","open":true,"moveTime":3600}`, ""); r.status != 409 || mustError(t, r).Error.Code != "not_eligible" {
		t.Fatalf("a suspended player opens a table: %d %s", r.status, r.body)
	}
	table, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + ana + `","open":true,"moveTime":3600}`)
	if r := s.do("POST", "/api/games/"+table+"/seats", `{"name":"Bea","key":"`+bea+`"}`, ""); r.status != 409 {
		t.Fatalf("a suspended player sits at an open table: %d %s", r.status, r.body)
	}
	// Nobody sits at her waiting table: a player with a profile, nor a
	// key new to the room; the seat stays free.
	for _, k := range []string{ana, testKey("eve")} {
		if r := s.do("POST", "/api/games/"+waiting+"/seats", `{"name":"Eve","key":"`+k+`"}`, ""); r.status != 409 || mustError(t, r).Error.Code != "not_eligible" {
			t.Fatalf("a seat at a suspended player's table: %d %s", r.status, r.body)
		}
	}
	if r := s.do("GET", "/api/games/"+waiting, "", ""); r.status != 200 || !strings.Contains(string(r.body), `"status":"open"`) {
		t.Fatalf("her table after the refused seats: %d %s", r.status, r.body)
	}
	if _, _, v := s.create(`{"variant":"fiveup","players":2,"name":"Bea","key":"` + bea + `"}`); v == nil {
		t.Fatal("a friendly game by link is still hers")
	}
	if r := mod(`{"suspended":false}`); r.status != 200 || !strings.Contains(board(), pb) {
		t.Fatalf("unsuspended: %d %s; board %s", r.status, r.body, board())
	}
	if strings.Contains(s.logs.String(), operatorToken) {
		t.Fatal("the operator token is in a log line")
	}
	// Nor in any stored item: only its digest is kept, in memory.
	if mem, ok := st.(*memory.Store); ok {
		for id, it := range mem.Dump() {
			if strings.Contains(string(it.State), operatorToken) || strings.Contains(string(it.Entry.Card), operatorToken) {
				t.Fatalf("item %s holds the operator token", id)
			}
		}
	}
}

// TestANotFoundNamesWhatItLookedFor: a 404 says what was not there (a
// player, a report, a tournament, a game), not "no such game" for all.
func TestANotFoundNamesWhatItLookedFor(t *testing.T) {
	s, _ := operatorServer(t, memory.New(), 390)
	for _, c := range []struct{ method, path, body, token, want string }{
		{"GET", "/api/players/nobodyatall12345", "", "", "There is no such player."},
		{"PUT", "/api/players/nobodyatall12345/moderation", `{"suspended":true}`, operatorToken, "There is no such player."},
		{"DELETE", "/api/reports/noreportatall1234", "", operatorToken, "There is no such report."},
		{"GET", "/api/tournaments/notournament1234", "", "", "There is no such tournament."},
		{"GET", "/api/games/nogameatall12345", "", "", "There is no such game."},
	} {
		r := s.do(c.method, c.path, c.body, c.token)
		var body errorBody
		if err := json.Unmarshal(r.body, &body); err != nil || r.status != 404 || body.Error.Message != c.want {
			t.Errorf("%s %s: %d %s; want 404 %q", c.method, c.path, r.status, r.body, c.want)
		}
	}
}
