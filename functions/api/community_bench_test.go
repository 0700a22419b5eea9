package api

import (
	"fmt"
	"strings"
	"testing"

	"tessera/functions/store/memory"
)

// The room's reads and a match end's settling, on the memory store
// (DynamoDB's costs in read units: docs/lists.md). Each read is one store
// read or list: a profile one Load, a leaderboard one List, the lobby one
// List per rule set and rated-or-not asked for (BenchmarkLobby asks for
// all: five).

// BenchmarkLobby: GET /api/lobby with 48 open games waiting (16 keys,
// three each).
func BenchmarkLobby(b *testing.B) {
	s := newServer(b, memory.New(), 401)
	for k := range 16 {
		key := fmt.Sprintf("bench-lobby-%02d-%s", k, strings.Repeat("k", 20))
		for range 3 {
			s.create(fmt.Sprintf(`{"variant":"fiveup","players":4,"name":"P%d","key":%q,"open":true,"moveTime":86400}`, k, key))
		}
	}
	if r := s.do("GET", "/api/lobby", "", ""); r.status != 200 || strings.Count(string(r.body), `"createdAt"`) != 48 {
		b.Fatalf("lobby: %d, %d games", r.status, strings.Count(string(r.body), `"createdAt"`))
	}
	b.ReportAllocs()
	for b.Loop() {
		s.do("GET", "/api/lobby", "", "")
	}
}

// ratedPlayers makes n keys that have played ten rated matches each (in
// pairs), and returns the server and one of their player ids.
func ratedPlayers(b *testing.B, n int) (*server, string) {
	s := newServer(b, memory.New(), 402)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("bench-board-%02d-%s", i, strings.Repeat("k", 20))
	}
	for i := 0; i < n; i += 2 {
		s.eligiblePair(keys[i], keys[i+1])
		for range 10 {
			id, toks := s.openDuel(keys[i], keys[i+1], true)
			s.awayAll(id, toks)
		}
	}
	return s, s.playerOf(keys[0])
}

// BenchmarkLeaderboard: GET /api/leaderboard/fiveup-duel with 20 players.
func BenchmarkLeaderboard(b *testing.B) {
	s, _ := ratedPlayers(b, 20)
	if r := s.do("GET", "/api/leaderboard/fiveup-duel", "", ""); r.status != 200 || strings.Count(string(r.body), `"rank"`) != 20 {
		b.Fatalf("leaderboard: %d %s", r.status, r.body)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.do("GET", "/api/leaderboard/fiveup-duel", "", "")
	}
}

// BenchmarkProfile: GET /api/players/{id} of a player with 13 finished
// matches, 10 rated (a history and ten recent matches).
func BenchmarkProfile(b *testing.B) {
	s, pid := ratedPlayers(b, 2)
	b.ReportAllocs()
	for b.Loop() {
		s.do("GET", "/api/players/"+pid, "", "")
	}
}

// BenchmarkSettle: settling a rated match's end (both profiles and their
// leaderboard entries read and written, the game marked): the part of an
// ending request that comes after its save. Each iteration settles a new
// game, ended beforehand by a request stopped before its settling.
func BenchmarkSettle(b *testing.B) {
	st := memory.New()
	s := newServer(b, st, 403)
	ana, bea := "bench-settle-a-"+strings.Repeat("k", 20), "bench-settle-b-"+strings.Repeat("k", 20)
	s.eligiblePair(ana, bea)
	stopped := New(Config{Store: st, Rand: seededReader(404), Now: s.nowFunc(), AfterEnd: func(string) { panic("stop before settling") }})
	svc := s.h.(*Handler).Service()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		id, toks := s.openDuel(ana, bea, true)
		s.awayAll(id, toks[:1])
		v := s.room(id, toks[1])
		plain := s.h
		s.h = stopped
		if r := s.do("POST", "/api/games/"+id+"/moves", fmt.Sprintf(`{"version":%d,"type":"away"}`, v.Version), toks[1]); r.status != 500 {
			b.Fatalf("the stopped ending answered %d", r.status)
		}
		s.h = plain
		b.StartTimer()
		if err := svc.Settle(b.Context(), "example.com", id); err != nil {
			b.Fatal(err)
		}
	}
}
