package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"tessera/functions/game"
	"tessera/functions/store/memory"
)

// releaseGame is one game of a release fixture, testdata/stored-<release>.json
// (see its README): the stored item as that release wrote it, the seat
// tokens, the moveIds applied ("i:id" = made by tokens[i]) and the view
// every token and a spectator (last) were served then.
type releaseGame struct {
	ID        string            `json:"id"`
	Version   int64             `json:"version"`
	UpdatedAt time.Time         `json:"updatedAt"`
	State     string            `json:"state"`
	Tokens    []string          `json:"tokens"`
	MoveIDs   []string          `json:"moveIds"`
	Views     []json.RawMessage `json:"views"`
}

// releases are the released stored formats that must still load, and what
// each view gained since (an addition to API.md's view adds its pattern
// here): the room's seats[].player, rating and ratingAfter, open and
// rated, and trophies: null, false or empty in a game stored by 0.1.0.
var releases = []struct {
	name  string
	later *regexp.Regexp // fields added to views since; nil for none
}{
	{"0.1.0", regexp.MustCompile(`,"player":null,"rating":null,"ratingAfter":null,"provisional":false,"vacation":null|,"chat":(null|0)|,"open":false,"rated":false,"trophies":(null|\[\])|,"answers":(true|false)|,"league":null,"tournament":null|,"hints":\[[^]]*\]`)},
}

// compact undoes the fixture file's indentation of a served view.
func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

var writeRelease = flag.String("write-release", "", "write testdata/stored-<release>.json from this code (go test ./functions/api -run TestStoredReleases -write-release 0.1.0)")

// Games stored by every release still load: each view is the one served
// then (less what views gained since), a remembered moveId is still
// remembered, reading changes nothing, and the next change writes the
// current format, which goes on serving.
func TestStoredReleases(t *testing.T) {
	if *writeRelease != "" {
		writeReleaseFixture(t, *writeRelease)
	}
	for _, rel := range releases {
		raw, err := os.ReadFile("testdata/stored-" + rel.name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var games []releaseGame
		if err := json.Unmarshal(raw, &games); err != nil {
			t.Fatal(err)
		}
		if len(games) < 5 {
			t.Fatalf("%d games in the %s fixture, want 5", len(games), rel.name)
		}
		for _, g := range games {
			t.Run(rel.name+"/"+g.ID, func(t *testing.T) { checkReleaseGame(t, g, rel.later) })
		}
	}
}

func checkReleaseGame(t *testing.T, g releaseGame, later *regexp.Regexp) {
	mem := memory.New()
	state, err := base64.StdEncoding.DecodeString(g.State)
	if err != nil {
		t.Fatal(err)
	}
	if err := mem.Create(context.Background(), g.ID, state, g.UpdatedAt, time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	for v := int64(1); v < g.Version; v++ {
		if err := mem.Save(context.Background(), g.ID, state, v, g.UpdatedAt, time.Time{}, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	s := newServer(t, mem, 99)
	for i, tok := range append(append([]string{}, g.Tokens...), "") {
		r := s.do("GET", "/api/games/"+g.ID, "", tok)
		if r.status != 200 {
			t.Fatalf("poll as token %d: %d %s", i, r.status, r.body)
		}
		got := bytes.TrimSuffix(r.body, []byte("\n"))
		if later != nil {
			got = later.ReplaceAll(got, nil)
		}
		if want := compact(t, g.Views[i]); !bytes.Equal(got, want) {
			t.Errorf("view for token %d differs from the one served before:\n got %s\nwant %s", i, got, want)
		}
	}
	if r := s.do("GET", "/api/games/"+g.ID, "", "AAAAAAAAAAAAAAAAAAAAAA"); r.status != 401 {
		t.Errorf("a token of no seat: %d, want 401", r.status)
	}
	for _, mid := range g.MoveIDs {
		who, id, _ := strings.Cut(mid, ":")
		tok := g.Tokens[who[0]-'0']
		body := `{"version":1,"moveId":"` + id + `","type":"play","tile":[0,0],"end":"left"}`
		if r := s.do("POST", "/api/games/"+g.ID+"/moves", body, tok); r.status != 200 {
			t.Errorf("retried moveId %s: %d %s, want 200", mid, r.status, r.body)
		}
	}
	if got := s.stored(g.ID); got.Version != g.Version || !bytes.Equal(got.State, state) {
		t.Fatal("reading and retrying changed the stored game")
	}
	// A change writes the current format, which goes on serving.
	v := s.poll(g.ID, g.Tokens[0])
	var r response
	switch {
	case v.Status == "open":
		r = s.do("POST", "/api/games/"+g.ID+"/seats", `{"name":"Zed"}`, "")
	case v.You != nil && len(v.You.Legal) > 0:
		lm := v.You.Legal[0]
		r = s.do("POST", "/api/games/"+g.ID+"/moves", `{"version":`+itoa(v.Version)+`,"type":"play","tile":[`+
			itoa(int64(lm.Tile[0]))+`,`+itoa(int64(lm.Tile[1]))+`],"end":"`+lm.End+`"}`, g.Tokens[0])
	default:
		return // finished, or not the first token's turn: nothing to change
	}
	if r.status != 200 && r.status != 201 {
		t.Fatalf("change: %d %s", r.status, r.body)
	}
	if st := s.stored(g.ID); st.State[0] != game.StoredFormat || st.Version != g.Version+1 {
		t.Fatalf("after a change: format %d version %d, want %d and %d", st.State[0], st.Version, game.StoredFormat, g.Version+1)
	}
	for i, tok := range g.Tokens {
		if tok == "" {
			continue // a computer's seat
		}
		if got := s.poll(g.ID, tok); got.You == nil || got.Version != g.Version+1 {
			t.Errorf("token %d after the change: %+v", i, got.You)
		}
	}
}

// writeReleaseFixture plays the fixture's games through this code's API
// (seeded, on the tests' fixed clock) and writes what was stored and
// served: an open Five Up table; Five Up of two people (one with a key)
// and two computers with three moves made, on a clock; a finished
// Partnership game against three computers and its rematch; and Block
// for three with a computer.
func writeReleaseFixture(t *testing.T, release string) {
	mem := memory.New()
	s := newServer(t, mem, 2026)
	var out []releaseGame
	record := func(id string, tokens, moveIDs []string) {
		item := s.stored(id)
		g := releaseGame{ID: id, Version: item.Version, UpdatedAt: item.UpdatedAt,
			State: base64.StdEncoding.EncodeToString(item.State), Tokens: tokens, MoveIDs: moveIDs}
		for _, tok := range append(append([]string{}, tokens...), "") {
			r := s.do("GET", "/api/games/"+id, "", tok)
			if r.status != 200 {
				t.Fatalf("poll: %d %s", r.status, r.body)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, bytes.TrimSuffix(r.body, []byte("\n")), "", " "); err != nil {
				t.Fatal(err)
			}
			g.Views = append(g.Views, pretty.Bytes())
		}
		out = append(out, g)
	}
	playTo := func(id string, tokens []string, moves int, prefix string) []string {
		var ids []string
		for n := 0; n < moves; n++ {
			v := s.poll(id, "")
			if v.Status != "playing" || v.Hand.Turn == nil || tokens[*v.Hand.Turn] == "" {
				break
			}
			mid := prefix + itoa(int64(n))
			_, actor, body := s.firstPlay(id, tokens, mid)
			if r := s.do("POST", "/api/games/"+id+"/moves", body, tokens[actor]); r.status != 200 {
				t.Fatalf("move: %d %s", r.status, r.body)
			}
			ids = append(ids, itoa(int64(actor))+":"+mid)
		}
		return ids
	}
	open, tok, _ := s.create(`{"variant":"fiveup","players":3,"name":"Ana"}`)
	record(open, []string{tok}, nil)

	id, tokA, _ := s.create(`{"variant":"fiveup","players":4,"name":"Ana","key":"` + keyAna + `","moveTime":86400,"bots":[{"seat":1,"level":"easy"},{"seat":3,"level":"medium"}]}`)
	_, tokB, _ := s.join(id, `{"name":"Bea"}`)
	tokens := []string{tokA, "", tokB, ""}
	record(id, tokens, playTo(id, tokens, 3, "m"))

	part, tokP, _ := s.create(`{"variant":"partnership","target":15,"name":"Ana","bots":[{"seat":1,"level":"easy"},{"seat":2,"level":"easy"},{"seat":3,"level":"easy"}]}`)
	ptokens := []string{tokP, "", "", ""}
	playTo(part, ptokens, 500, "p")
	if r := s.do("POST", "/api/games/"+part+"/rematch", `{}`, tokP); r.status != 201 {
		t.Fatalf("rematch: %d %s", r.status, r.body)
	}
	next := *s.poll(part, "").Next
	record(part, ptokens, nil)
	record(next, ptokens, nil)

	blk, tokC, _ := s.create(`{"variant":"block","players":3,"name":"Carlo","bots":[{"seat":2,"level":"medium"}]}`)
	_, tokD, _ := s.join(blk, `{"name":"Dora"}`)
	btokens := []string{tokC, tokD, ""}
	record(blk, btokens, playTo(blk, btokens, 4, "b"))

	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("testdata/stored-"+release+".json", append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
