package api

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store/memory"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name byte for byte, or rewrites it
// with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update if the change is meant):\n got %s\nwant %s", name, got, want)
	}
}

// API.md's view, byte for byte: a seeded three-player Five Up game with a
// computer player, a few plays in, as the seat to play and a spectator see
// it. Any change to the view's JSON shows here first.
func TestViewGolden(t *testing.T) {
	s := newServer(t, memory.New(), 2026)
	id, ana, _ := s.create(`{"variant":"fiveup","players":3,"name":"Ana","bots":[{"seat":2,"level":"medium"}]}`)
	_, bea, _ := s.join(id, `{"name":"Bea"}`)
	tokens := []string{ana, bea, ""}
	for i := 0; i < 3; i++ {
		_, actor, body := s.firstPlay(id, tokens, "g"+itoa(int64(i)))
		if r := s.do("POST", "/api/games/"+id+"/moves", body, tokens[actor]); r.status != 200 {
			t.Fatalf("move: %d %s", r.status, r.body)
		}
	}
	v := s.poll(id, ana)
	seat := *v.Hand.Turn
	for _, c := range []struct{ name, token string }{
		{"view-seat.golden.json", tokens[seat]},
		{"view-spectator.golden.json", ""},
	} {
		r := s.do("GET", "/api/games/"+id, "", c.token)
		if r.status != 200 || !json.Valid(r.body) {
			t.Fatalf("poll: %d %s", r.status, r.body)
		}
		golden(t, c.name, r.body)
	}
}

// TestSeatAnswerJSON: a seat's answer is written as json.Marshal writes it.
func TestSeatAnswerJSON(t *testing.T) {
	m, err := engine.NewMatch(engine.DefaultOptions(engine.FiveUp), engine.Seed{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.TakeSeat(0, engine.Seat{Name: "<Ana> & \"co\""}); err != nil {
		t.Fatal(err)
	}
	for _, a := range []seatAnswer{
		{Game: answer(m, 0, game.Meta{ID: "abcdefghijklmnop", Version: 1}), Seat: 0, Token: "tok-en_123"},
		{Game: nil, Seat: 2, Token: ""},
	} {
		want, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.appendJSON(nil)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%v\n got %s\nwant %s", err, got, want)
		}
	}
}
