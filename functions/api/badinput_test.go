package api

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"tessera/functions/store/memory"
	"tessera/functions/store/storetest"
)

// badFixture is a game being played (two people, no redeal question) and an
// open game (three seats, one free), with what the cases need to know.
type badFixture struct {
	s            *server
	faulty       *storetest.Faulty
	play, open   string
	actor, other string // tokens: the seat to play and the other one
	openToken    string
	version      int64
	foreign      [2]int // a tile the seat to play does not hold
	legalTile    [2]int
	legalEnd     string
	blockedEnd   string // an end name that is not open now
}

func newBadFixture(t *testing.T) *badFixture {
	f := &badFixture{faulty: storetest.NewFaulty(memory.New())}
	f.s = newServer(t, f.faulty, 7)
	var tokens []string
	f.play, tokens = f.s.fullGame(`{"variant":"fiveup","players":2,"redeal":false,"name":"Ana"}`)
	v := f.s.poll(f.play, tokens[0])
	turn := *v.Hand.Turn
	f.actor, f.other = tokens[turn], tokens[1-turn]
	f.version = v.Version
	me := f.s.poll(f.play, f.actor)
	f.legalTile, f.legalEnd = me.You.Legal[0].Tile, me.You.Legal[0].End
	f.foreign = f.s.poll(f.play, f.other).You.Tiles[0]
	f.blockedEnd = "up"
	var openTok string
	f.open, openTok, _ = f.s.create(`{"variant":"fiveup","players":3,"name":"Ana"}`)
	f.s.join(f.open, `{"name":"Bea"}`)
	f.openToken = openTok
	return f
}

func (f *badFixture) expand(s string) string {
	return strings.NewReplacer("{id}", f.play, "{open}", f.open, "{v}", fmt.Sprint(f.version),
		"{actor}", f.actor, "{other}", f.other, "{openToken}", f.openToken,
		"{tile}", fmt.Sprintf("[%d,%d]", f.legalTile[0], f.legalTile[1]), "{end}", f.legalEnd,
		"{foreign}", fmt.Sprintf("[%d,%d]", f.foreign[0], f.foreign[1])).Replace(s)
}

// TestBadRequestsChangeNothing sends malformed and refused requests, each
// answered with its documented code, and checks that no game changed and
// none was created.
func TestBadRequestsChangeNothing(t *testing.T) {
	big := `{"variant":"fiveup","name":"` + strings.Repeat("a", maxBody) + `"}`
	const move = "/api/games/{id}/moves"
	const seats = "/api/games/{open}/seats"
	const okMove = `"moveId":"x1","type":"play","tile":{tile},"end":"{end}"`
	tests := []struct {
		name, method, path, body, auth string
		status                         int
		code                           string
	}{
		// Create bodies.
		{"empty body", "POST", "/api/games", "", "", 400, "bad_request"},
		{"not JSON", "POST", "/api/games", `hello`, "", 400, "bad_request"},
		{"an array, not an object", "POST", "/api/games", `[]`, "", 400, "bad_request"},
		{"a second object after the first", "POST", "/api/games", `{"variant":"fiveup","name":"A"} {}`, "", 400, "bad_request"},
		{"garbage after the object", "POST", "/api/games", `{"variant":"fiveup","name":"A"}x`, "", 400, "bad_request"},
		{"duplicate key", "POST", "/api/games", `{"variant":"fiveup","variant":"fiveup","name":"A"}`, "", 400, "bad_request"},
		{"keys are case-sensitive", "POST", "/api/games", `{"Variant":"fiveup","name":"A"}`, "", 400, "bad_request"},
		{"unknown key", "POST", "/api/games", `{"variant":"fiveup","name":"A","colour":"red"}`, "", 400, "bad_request"},
		{"variant missing", "POST", "/api/games", `{"name":"A"}`, "", 400, "bad_request"},
		{"name missing", "POST", "/api/games", `{"variant":"fiveup"}`, "", 400, "bad_request"},
		{"null name is an absent name", "POST", "/api/games", `{"variant":"fiveup","name":null}`, "", 400, "bad_request"},
		{"an unknown key is unknown even when null", "POST", "/api/games", `{"variant":"fiveup","name":"X","foo":null}`, "", 400, "bad_request"},
		{"an unknown key in a bot, null", "POST", "/api/games", `{"variant":"fiveup","name":"X","bots":[{"seat":1,"level":"easy","x":null}]}`, "", 400, "bad_request"},
		{"a right-to-left override in a name", "POST", "/api/games", `{"variant":"fiveup","name":"Ana\u202Eevil"}`, "", 400, "bad_request"},
		{"a left-to-right embedding in a name", "POST", "/api/games", `{"variant":"fiveup","name":"\u202AAna"}`, "", 400, "bad_request"},
		{"a first-strong isolate in a name", "POST", "/api/games", `{"variant":"fiveup","name":"Ana\u2068x\u2069"}`, "", 400, "bad_request"},
		{"a name of zero-width characters only", "POST", "/api/games", `{"variant":"fiveup","name":"\u200B\u200D\u2060\uFEFF"}`, "", 400, "bad_request"},
		{"a name of Hangul fillers only", "POST", "/api/games", `{"variant":"fiveup","name":"\u3164\u3164"}`, "", 400, "bad_request"},
		{"a name of combining marks only", "POST", "/api/games", `{"variant":"fiveup","name":"\u0301\u0302"}`, "", 400, "bad_request"},
		{"a joiner taking a bidi control", "POST", seats, `{"name":"Bea\u202D"}`, "", 400, "bad_request"},
		{"a lone high surrogate", "POST", "/api/games", `{"variant":"fiveup","name":"a\ud800b"}`, "", 400, "bad_request"},
		{"a lone high surrogate at the end", "POST", "/api/games", `{"variant":"fiveup","name":"a\uD800"}`, "", 400, "bad_request"},
		{"a lone low surrogate", "POST", "/api/games", `{"variant":"fiveup","name":"a\udc00"}`, "", 400, "bad_request"},
		{"two high surrogates", "POST", "/api/games", `{"variant":"fiveup","name":"\ud800\ud800\udc00"}`, "", 400, "bad_request"},
		{"a high surrogate before another escape", "POST", "/api/games", `{"variant":"fiveup","name":"\ud800\n"}`, "", 400, "bad_request"},
		{"a surrogate in a key", "POST", "/api/games", `{"variant":"fiveup","name":"X","\udfff":1}`, "", 400, "bad_request"},
		{"unknown variant", "POST", "/api/games", `{"variant":"chess","name":"A"}`, "", 400, "bad_request"},
		{"variant of the wrong type", "POST", "/api/games", `{"variant":5,"name":"A"}`, "", 400, "bad_request"},
		{"players 4.0 is not an integer", "POST", "/api/games", `{"variant":"fiveup","players":4.0,"name":"A"}`, "", 400, "bad_request"},
		{"players in exponent form", "POST", "/api/games", `{"variant":"fiveup","players":4e0,"name":"A"}`, "", 400, "bad_request"},
		{"players 5", "POST", "/api/games", `{"variant":"fiveup","players":5,"name":"A"}`, "", 400, "bad_request"},
		{"players 1", "POST", "/api/games", `{"variant":"fiveup","players":1,"name":"A"}`, "", 400, "bad_request"},
		{"players as a string", "POST", "/api/games", `{"variant":"fiveup","players":"4","name":"A"}`, "", 400, "bad_request"},
		{"players beyond int64", "POST", "/api/games", `{"variant":"fiveup","players":99999999999999999999999,"name":"A"}`, "", 400, "bad_request"},
		{"partnership with 3 players", "POST", "/api/games", `{"variant":"partnership","players":3,"name":"A"}`, "", 400, "bad_request"},
		{"pairs with 3 players", "POST", "/api/games", `{"variant":"fiveup","players":3,"pairs":true,"name":"A"}`, "", 400, "bad_request"},
		{"partnership without pairs", "POST", "/api/games", `{"variant":"partnership","pairs":false,"name":"A"}`, "", 400, "bad_request"},
		{"partnership with redeal", "POST", "/api/games", `{"variant":"partnership","redeal":true,"name":"A"}`, "", 400, "bad_request"},
		{"redeal as a string", "POST", "/api/games", `{"variant":"fiveup","redeal":"yes","name":"A"}`, "", 400, "bad_request"},
		{"target 0", "POST", "/api/games", `{"variant":"fiveup","target":0,"name":"A"}`, "", 400, "bad_request"},
		{"target 1001", "POST", "/api/games", `{"variant":"fiveup","target":1001,"name":"A"}`, "", 400, "bad_request"},
		{"empty name", "POST", "/api/games", `{"variant":"fiveup","name":""}`, "", 400, "bad_request"},
		{"name of spaces only", "POST", "/api/games", `{"variant":"fiveup","name":"   "}`, "", 400, "bad_request"},
		{"name of 25 code points", "POST", "/api/games", `{"variant":"fiveup","name":"` + strings.Repeat("é", 25) + `"}`, "", 400, "bad_request"},
		{"control character inside a name", "POST", "/api/games", `{"variant":"fiveup","name":"A\u0007na"}`, "", 400, "bad_request"},
		{"control character trimming would remove", "POST", "/api/games", `{"variant":"fiveup","name":"\tAna"}`, "", 400, "bad_request"},
		{"C1 control character in a name", "POST", "/api/games", `{"variant":"fiveup","name":"Ana\u0085"}`, "", 400, "bad_request"},
		{"invalid UTF-8", "POST", "/api/games", "{\"variant\":\"fiveup\",\"name\":\"A\xffna\"}", "", 400, "bad_request"},
		{"bot in the creator's seat", "POST", "/api/games", `{"variant":"fiveup","name":"A","bots":[{"seat":0,"level":"easy"}]}`, "", 400, "bad_request"},
		{"bot seat outside the table", "POST", "/api/games", `{"variant":"fiveup","players":2,"name":"A","bots":[{"seat":2,"level":"easy"}]}`, "", 400, "bad_request"},
		{"two bots in one seat", "POST", "/api/games", `{"variant":"fiveup","name":"A","bots":[{"seat":1,"level":"easy"},{"seat":1,"level":"easy"}]}`, "", 400, "bad_request"},
		{"unknown bot level", "POST", "/api/games", `{"variant":"fiveup","name":"A","bots":[{"seat":1,"level":"godlike"}]}`, "", 400, "bad_request"},
		{"bot entry not an object", "POST", "/api/games", `{"variant":"fiveup","name":"A","bots":[1]}`, "", 400, "bad_request"},
		{"bot entry with an unknown key", "POST", "/api/games", `{"variant":"fiveup","name":"A","bots":[{"seat":1,"level":"easy","name":"R2"}]}`, "", 400, "bad_request"},
		{"bot entry without a level", "POST", "/api/games", `{"variant":"fiveup","name":"A","bots":[{"seat":1}]}`, "", 400, "bad_request"},
		{"duplicate key inside a bot entry", "POST", "/api/games", `{"variant":"fiveup","name":"A","bots":[{"seat":1,"seat":2,"level":"easy"}]}`, "", 400, "bad_request"},
		{"bots not an array", "POST", "/api/games", `{"variant":"fiveup","name":"A","bots":{"seat":1}}`, "", 400, "bad_request"},
		{"body over 16 KiB", "POST", "/api/games", big, "", 413, "too_large"},
		// Seats.
		{"seat -1", "POST", seats, `{"name":"Cy","seat":-1}`, "", 400, "bad_request"},
		{"seat 4 is at no table", "POST", seats, `{"name":"Cy","seat":4}`, "", 400, "bad_request"},
		{"seat 3 at a three-seat table", "POST", seats, `{"name":"Cy","seat":3}`, "", 400, "bad_request"},
		{"seat as a string", "POST", seats, `{"name":"Cy","seat":"2"}`, "", 400, "bad_request"},
		{"seat 2.5", "POST", seats, `{"name":"Cy","seat":2.5}`, "", 400, "bad_request"},
		{"seat name missing", "POST", seats, `{"seat":2}`, "", 400, "bad_request"},
		{"seat key in the wrong case", "POST", seats, `{"name":"Cy","Seat":2}`, "", 400, "bad_request"},
		{"named seat is taken", "POST", seats, `{"name":"Cy","seat":1}`, "", 409, "seat_taken"},
		{"seat at a full table", "POST", "/api/games/{id}/seats", `{"name":"Cy"}`, "", 409, "game_full"},
		{"named seat at a full table", "POST", "/api/games/{id}/seats", `{"name":"Cy","seat":0}`, "", 409, "game_full"},
		{"seat in an unknown game", "POST", "/api/games/aaaaaaaaaaaaaaaa/seats", `{"name":"Cy"}`, "", 404, "not_found"},
		// Moves.
		{"version missing", "POST", move, `{` + okMove + `}`, "{actor}", 400, "bad_request"},
		{"version 0 is older than any: stale", "POST", move, `{"version":0,` + okMove + `}`, "{actor}", 409, "stale_version"},
		{"negative version", "POST", move, `{"version":-1,` + okMove + `}`, "{actor}", 400, "bad_request"},
		{"version as a string", "POST", move, `{"version":"{v}",` + okMove + `}`, "{actor}", 400, "bad_request"},
		{"version {v}.0", "POST", move, `{"version":{v}.0,` + okMove + `}`, "{actor}", 400, "bad_request"},
		{"type missing", "POST", move, `{"version":{v},"tile":{tile},"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"type draw is never sent", "POST", move, `{"version":{v},"type":"draw"}`, "{actor}", 400, "bad_request"},
		{"type pass is never sent", "POST", move, `{"version":{v},"type":"pass"}`, "{actor}", 400, "bad_request"},
		{"play without a tile", "POST", move, `{"version":{v},"type":"play","end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"pip 7", "POST", move, `{"version":{v},"type":"play","tile":[7,1],"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"negative pip", "POST", move, `{"version":{v},"type":"play","tile":[-1,2],"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"pip 1.0", "POST", move, `{"version":{v},"type":"play","tile":[1.0,2],"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"tile of one pip", "POST", move, `{"version":{v},"type":"play","tile":[1],"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"tile of three pips", "POST", move, `{"version":{v},"type":"play","tile":[1,2,3],"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"tile as a string", "POST", move, `{"version":{v},"type":"play","tile":"1-2","end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"tile with a null pip", "POST", move, `{"version":{v},"type":"play","tile":[null,2],"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"unknown end", "POST", move, `{"version":{v},"type":"play","tile":{tile},"end":"middle"}`, "{actor}", 400, "bad_request"},
		{"end as a number", "POST", move, `{"version":{v},"type":"play","tile":{tile},"end":3}`, "{actor}", 400, "bad_request"},
		{"empty moveId", "POST", move, `{"version":{v},"moveId":"","type":"play","tile":{tile},"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"moveId of 65 characters", "POST", move, `{"version":{v},"moveId":"` + strings.Repeat("m", 65) + `","type":"play","tile":{tile},"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"moveId as a number", "POST", move, `{"version":{v},"moveId":5,"type":"play","tile":{tile},"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"move key in the wrong case", "POST", move, `{"version":{v},"type":"play","Tile":{tile},"end":"{end}"}`, "{actor}", 400, "bad_request"},
		{"duplicate version", "POST", move, `{"version":{v},"version":{v},` + okMove + `}`, "{actor}", 400, "bad_request"},
		{"move body over 16 KiB", "POST", move, `{"version":{v},"moveId":"` + strings.Repeat("m", maxBody) + `"}`, "{actor}", 413, "too_large"},
		// Tokens.
		{"move without a token", "POST", move, `{"version":{v},` + okMove + `}`, "", 401, "unauthorized"},
		{"Bearer without a token", "POST", move, `{"version":{v},` + okMove + `}`, "Bearer", 401, "unauthorized"},
		{"Basic scheme", "POST", move, `{"version":{v},` + okMove + `}`, "Basic {actor}", 401, "unauthorized"},
		{"token too short", "POST", move, `{"version":{v},` + okMove + `}`, "Bearer abc", 401, "unauthorized"},
		{"token with a character outside base64url", "POST", move, `{"version":{v},` + okMove + `}`, "Bearer ++++++++++++++++++++++", 401, "unauthorized"},
		{"well-formed token of nobody", "POST", move, `{"version":{v},` + okMove + `}`, "Bearer AAAAAAAAAAAAAAAAAAAAAA", 401, "unauthorized"},
		{"token of another game", "POST", move, `{"version":{v},` + okMove + `}`, "Bearer {openToken}", 401, "unauthorized"},
		{"poll with an invalid token", "GET", "/api/games/{id}", "", "Bearer nope", 401, "unauthorized"},
		{"poll with an empty Authorization header", "GET", "/api/games/{id}", "", " ", 401, "unauthorized"},
		// Paths and methods.
		{"move in an unknown game", "POST", "/api/games/aaaaaaaaaaaaaaaa/moves", `{"version":{v},` + okMove + `}`, "{actor}", 404, "not_found"},
		{"move with a malformed game id", "POST", "/api/games/ABC!/moves", `{"version":{v},` + okMove + `}`, "{actor}", 404, "not_found"},
		{"unknown sub-path", "POST", "/api/games/{id}/move", `{}`, "", 404, "not_found"},
		{"unknown path under /api/", "GET", "/api/gamez", "", "", 404, "not_found"},
		{"trailing slash", "GET", "/api/games/{id}/", "", "", 404, "not_found"},
		{"PUT on moves", "PUT", move, `{}`, "{actor}", 405, "method_not_allowed"},
		{"DELETE on a game", "DELETE", "/api/games/{id}", "", "{actor}", 405, "method_not_allowed"},
		{"GET on the games list", "GET", "/api/games", "", "", 405, "method_not_allowed"},
		{"GET on moves", "GET", move, "", "{actor}", 405, "method_not_allowed"},
		// The order of the checks.
		{"405 comes before 413", "PUT", move, big, "{actor}", 405, "method_not_allowed"},
		{"413 comes before 400", "POST", move, big + "garbage", "{actor}", 413, "too_large"},
		{"400 comes before 404", "POST", "/api/games/aaaaaaaaaaaaaaaa/moves", `{"version":"x"}`, "{actor}", 400, "bad_request"},
		{"404 comes before 401", "POST", "/api/games/aaaaaaaaaaaaaaaa/moves", `{"version":{v},` + okMove + `}`, "Bearer nope", 404, "not_found"},
		{"401 comes before stale_version", "POST", move, `{"version":99,` + okMove + `}`, "Bearer nope", 401, "unauthorized"},
		{"newer version is stale", "POST", move, `{"version":99,` + okMove + `}`, "{actor}", 409, "stale_version"},
		{"older version is stale", "POST", move, `{"version":1,` + okMove + `}`, "{actor}", 409, "stale_version"},
		{"stale_version comes before not_your_turn", "POST", move, `{"version":1,` + okMove + `}`, "{other}", 409, "stale_version"},
		{"play by the seat whose turn it is not", "POST", move, `{"version":{v},` + okMove + `}`, "{other}", 409, "not_your_turn"},
		{"keep outside the redeal question", "POST", move, `{"version":{v},"type":"keep"}`, "{actor}", 422, "illegal_move"},
		{"move in an open game", "POST", "/api/games/{open}/moves", `{"version":2,"type":"keep"}`, "{openToken}", 409, "not_your_turn"},
		{"tile not in the hand", "POST", move, `{"version":{v},"type":"play","tile":{foreign},"end":"{end}"}`, "{actor}", 422, "illegal_move"},
		{"end that is not open", "POST", move, `{"version":{v},"type":"play","tile":{tile},"end":"down"}`, "{actor}", 422, "illegal_move"},
	}
	f := newBadFixture(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			playBefore, openBefore := f.s.stored(f.play), f.s.stored(f.open)
			creates, _, _ := f.faulty.Calls()
			var headers []string
			if tc.auth != "" {
				auth := tc.auth
				if strings.HasPrefix(auth, "{") {
					auth = "Bearer " + auth
				}
				headers = []string{"Authorization", f.expand(auth)}
			}
			r := f.s.do(tc.method, f.expand(tc.path), f.expand(tc.body), "", headers...)
			e := mustError(t, r)
			if r.status != tc.status || e.Error.Code != tc.code {
				t.Fatalf("status %d %q, want %d %q: %s", r.status, e.Error.Code, tc.status, tc.code, r.body)
			}
			if e.Error.Message == "" {
				t.Errorf("error without a message")
			}
			if r.header.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control = %q, want no-store", r.header.Get("Cache-Control"))
			}
			if tc.status == 405 && r.header.Get("Allow") == "" {
				t.Errorf("405 without an Allow header")
			}
			if tc.code == "stale_version" {
				if v := mustView(t, e.Game); v.Version != f.version {
					t.Errorf("stale_version carries version %d, want the current %d", v.Version, f.version)
				}
			}
			playAfter, openAfter := f.s.stored(f.play), f.s.stored(f.open)
			if playAfter.Version != playBefore.Version || string(playAfter.State) != string(playBefore.State) {
				t.Errorf("the game in play changed: version %d -> %d", playBefore.Version, playAfter.Version)
			}
			if openAfter.Version != openBefore.Version || string(openAfter.State) != string(openBefore.State) {
				t.Errorf("the open game changed: version %d -> %d", openBefore.Version, openAfter.Version)
			}
			if after, _, _ := f.faulty.Calls(); after != creates {
				t.Errorf("a game was created")
			}
		})
	}
	if len(tests) < 40 {
		t.Fatalf("only %d cases", len(tests))
	}
	_ = context.Background
}

// TestEscapesThatAreText: a surrogate pair, an escaped backslash before a
// "u", and other escapes are names like any other.
func TestEscapesThatAreText(t *testing.T) {
	s := newServer(t, memory.New(), 3)
	for body, want := range map[string]string{
		`{"variant":"fiveup","name":"\ud83c\udc31 Ana"}`:  "\U0001F031 Ana",
		`{"variant":"fiveup","name":"a\\ud800"}`:          `a\ud800`,
		`{"variant":"fiveup","name":"\u00e9\"x"}`:         `é"x`,
		`{"variant":"fiveup","name":"X","moveTime":null}`: "X",
	} {
		_, _, v := s.create(body)
		if got := *v.Seats[0].Name; got != want {
			t.Errorf("%s: name %q, want %q", body, got, want)
		}
	}
}

// TestNamesThatAreText: names in scripts that read right to left, with
// marks, emoji joined by zero-width joiners, and a left-to-right mark
// inside a name (a mark is not an override) are taken as they are.
func TestNamesThatAreText(t *testing.T) {
	s := newServer(t, memory.New(), 4)
	for _, name := range []string{"עדי", "سارة", "Zoë", "e\u0301mile", "👩\u200d👩\u200d👧", "Ana\u200eB", "李"} {
		body := `{"variant":"fiveup","name":` + strconv.Quote(name) + `}`
		if _, _, v := s.create(body); *v.Seats[0].Name != name {
			t.Errorf("%q stored as %q", name, *v.Seats[0].Name)
		}
	}
}
