package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"tessera/functions/game"
	"tessera/functions/store/memory"
)

// BenchmarkMe is GET /api/me for a key with 100 games (its record, one
// LoadMany, a replay of each to say whose turn it is).
func BenchmarkMe(b *testing.B) {
	s := newServer(b, memory.New(), 401)
	for i := 0; i < game.MaxPlayerGames; i++ {
		if r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Ana","key":"`+keyAna+`","bots":[{"seat":1,"level":"easy"}]}`, ""); r.status != 201 {
			b.Fatal(r.status)
		}
	}
	if n := len(s.me(keyAna).Games); n != game.MaxPlayerGames {
		b.Fatalf("%d games", n)
	}
	req := httptest.NewRequest("GET", "/api/me", nil)
	req.Header.Set("Authorization", "Bearer "+keyAna)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec := httptest.NewRecorder()
		s.h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkMoveWithTwoDevices is a move in a two-player game whose players
// have two push devices each (a loopback push service answering 201): the
// move, then the other player's record read and two messages encrypted,
// signed and posted. Compare with BenchmarkMove for the added cost.
func BenchmarkMoveWithTwoDevices(b *testing.B) {
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(201) }))
	defer svc.Close()
	s := newServer(b, memory.New(), 402)
	s.h = New(Config{Store: s.store, Rand: seededReader(402), Push: &PushConfig{Insecure: true, Subject: "mailto:b@tessera.invalid"}})
	keys := []string{keyAna, keyBea}
	for _, k := range keys {
		for d := 0; d < 2; d++ {
			if r := s.do("PUT", "/api/me/push", sub(svc.URL+"/"+k[:3]+itoa(int64(d))), k); r.status != 204 {
				b.Fatalf("PUT: %d %s", r.status, r.body)
			}
		}
	}
	timeMoves(b, s, func() (string, []string) {
		r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Ana","key":"`+keyAna+`"}`, "")
		var a seatAnswerJSON
		json.Unmarshal(r.body, &a)
		id := mustView(b, a.Game).ID
		s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, "")
		return id, keys
	})
}
