package api

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

// want500 checks that a poll of id answers 500 internal (not 503, which a
// page retries forever) and that one log line names the game and why.
func want500(t *testing.T, s *server, id, token, why string) {
	t.Helper()
	for _, etag := range []string{"", `"1.0"`} {
		r := s.do("GET", "/api/games/"+id, "", token, "If-None-Match", etag)
		if r.status != 500 || mustError(t, r).Error.Code != "internal" {
			t.Fatalf("poll (If-None-Match %q): %d %s, want 500 internal", etag, r.status, r.body)
		}
	}
	var lines int
	for _, line := range strings.Split(s.logs.String(), "\n") {
		if strings.Contains(line, `"gameId":"`+id+`"`) && strings.Contains(line, `"status":500`) && strings.Contains(line, why) {
			lines++
		}
	}
	if lines == 0 {
		t.Fatalf("no log line names game %s with %q:\n%s", id, why, s.logs)
	}
}

func TestStoredChecksumCatchesDamage(t *testing.T) {
	mem := memory.New()
	s := newServer(t, mem, 21)
	a, tokensA := s.fullGame(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	b, _ := s.fullGame(`{"variant":"fiveup","players":2,"name":"Bea"}`)
	c, tokensC := s.fullGame(`{"variant":"fiveup","players":2,"name":"Cid"}`)
	ctx := context.Background()

	// A flipped byte in the seats (outside the engine's own CRC).
	item := s.stored(a)
	state := append([]byte(nil), item.State...)
	state[len(state)-10] ^= 0x01
	if err := mem.Save(ctx, a, state, item.Version, fixedNow, time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	want500(t, s, a, tokensA[0], "checksum")

	// Game B's value under C's id: never served as C.
	itemB, itemC := s.stored(b), s.stored(c)
	if itemB.Version != itemC.Version {
		t.Fatalf("versions %d and %d: the test wants equal ones", itemB.Version, itemC.Version)
	}
	if err := mem.Save(ctx, c, itemB.State, itemC.Version, fixedNow, time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	want500(t, s, c, tokensC[0], "checksum")
}

func TestStoredChecksumCoversTheVersion(t *testing.T) {
	mem := memory.New()
	s := newServer(t, mem, 22)
	id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	// The same state, saved behind the API's back: the version moves on
	// and the state still says the old one.
	item := s.stored(id)
	if err := mem.Save(context.Background(), id, item.State, item.Version, fixedNow, time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	want500(t, s, id, tokens[0], "checksum")
}

func TestOpenStoredRefusesVersionsOutOfRange(t *testing.T) {
	st := &game.Stored{Seats: make([]game.SeatAuth, 2), Version: 1}
	for _, v := range []int64{0, -1, game.MaxStoredVersion + 1, 1<<63 - 1} {
		if _, err := game.OpenStored("abcdefghij", store.Item{Version: v, State: game.SealStored("abcdefghij", v, st)}); err == nil {
			t.Errorf("version %d opened", v)
		}
	}
	if _, err := game.OpenStored("abcdefghij", store.Item{Version: 7, State: game.SealStored("abcdefghij", 7, st)}); err != nil {
		t.Errorf("version 7: %v", err)
	}
	// The game's version counts changes, the store's every write (notes
	// too): a game's version above the store's, or none, is corrupt.
	for _, v := range []int64{0, 8} {
		st.Version = v
		if _, err := game.OpenStored("abcdefghij", store.Item{Version: 7, State: game.SealStored("abcdefghij", 7, st)}); err == nil {
			t.Errorf("game version %d at the store's 7 opened", v)
		}
	}
}

// corruptStore answers every Load as a damaged value.
type corruptStore struct{ store.Store }

func (corruptStore) Load(_ context.Context, id string) (store.Item, error) {
	return store.Item{}, fmt.Errorf("load %q: %w: bbolt value: checksum 00000000, want 12345678", id, store.ErrCorrupt)
}

func TestAStoreThatReportsCorruptionIs500(t *testing.T) {
	mem := memory.New()
	s := newServer(t, mem, 23)
	id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	s2 := newServer(t, corruptStore{mem}, 23)
	want500(t, s2, id, tokens[0], "checksum 00000000")
	r := s2.do("POST", "/api/games/"+id+"/moves", `{"version":3,"type":"play","tile":[0,0],"end":"left"}`, tokens[0])
	if r.status != 500 {
		t.Errorf("move on a corrupt game: %d %s, want 500", r.status, r.body)
	}
}
