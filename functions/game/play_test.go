package game

import (
	"context"
	"errors"
	"testing"
	"time"

	"tessera/engine"
	"tessera/functions/store"
	"tessera/functions/store/memory"
	"tessera/internal/testenv"
)

// The service's calls without HTTP: ids and values in, values and errors
// out (the API's tests cover the same through every store and route).
func TestServiceCalls(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	// Seeded: a deal whose first act is a play (not the redeal question).
	svc := New(Config{Store: memory.New(), Now: func() time.Time { return now }, Rand: testenv.Seeded(1)})
	var think Thinking
	op := Op{Host: "example.test", Think: &think}
	opts := engine.DefaultOptions(engine.FiveUp)
	opts.Players, opts.Pairs = 2, false
	created, err := svc.Create(ctx, op, CreateRequest{Options: opts, Name: "Ana"})
	if err != nil || !created.Created || created.Meta.Version != 1 || created.Seat != 0 || created.Token == "" {
		t.Fatalf("create: %+v, %v", created, err)
	}
	id := created.Meta.ID
	if _, err := svc.TakeSeat(ctx, op, "no-such-game", SeatRequest{Name: "Bea", Seat: -1}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a seat of an unknown game: %v, want store.ErrNotFound", err)
	}
	bea, err := svc.TakeSeat(ctx, op, id, SeatRequest{Name: "Bea", Seat: -1})
	if err != nil || bea.Seat != 1 || bea.Meta.Version != 2 || !bea.Created {
		t.Fatalf("seat: %+v, %v", bea, err)
	}
	if _, err := svc.TakeSeat(ctx, op, id, SeatRequest{Name: "Cy", Seat: -1}); !errors.Is(err, engine.ErrGameFull) {
		t.Fatalf("a third seat of two: %v, want engine.ErrGameFull", err)
	}
	if _, err := svc.Move(ctx, op, id, "", MoveRequest{Version: 2}); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("a move without a token: %v, want ErrUnauthorized", err)
	}
	if _, err := svc.Rematch(ctx, op, id, bea.Token); !errors.Is(err, ErrNotFinished) {
		t.Fatalf("a rematch of a match played: %v, want ErrNotFinished", err)
	}
	seat, token := 0, created.Token
	_, m, err := svc.loadMatch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if m.ToAct()[0] == 1 {
		seat, token = 1, bea.Token
	}
	legal := m.AppendLegal(seat, nil)
	if len(legal) == 0 {
		t.Fatal("no legal move for the seat to play")
	}
	_, err = svc.Move(ctx, op, id, token, MoveRequest{Version: 1, MoveID: "m1", Move: legal[0]})
	var stale *StaleError
	if !errors.As(err, &stale) || !errors.Is(err, ErrStale) || stale.Now.Meta.Version != 2 || stale.Now.Seat != seat {
		t.Fatalf("a move on version 1 of 2: %v, want a StaleError at version 2 for seat %d", err, seat)
	}
	moved, err := svc.Move(ctx, op, id, token, MoveRequest{Version: 2, MoveID: "m1", Move: legal[0]})
	if err != nil || moved.Meta.Version != 3 || !moved.Created {
		t.Fatalf("move: %+v, %v", moved, err)
	}
	again, err := svc.Move(ctx, op, id, token, MoveRequest{Version: 2, MoveID: "m1", Move: legal[0]})
	if err != nil || again.Meta.Version != 3 || again.Created {
		t.Fatalf("the move retried: %+v, %v; want the same answer at version 3, not made again", again, err)
	}
}

// The room's rules are the service's: Create refuses what they forbid
// before it writes anything, whatever transport asked.
func TestCreateChecksTheRoomsRules(t *testing.T) {
	key := "ana-key-0123456789abcdefghij"
	two := engine.DefaultOptions(engine.FiveUp)
	two.Players, two.Pairs = 2, false
	block := engine.DefaultOptions(engine.Block)
	cases := []struct {
		name string
		req  CreateRequest
		ok   bool
	}{
		{"a friendly game", CreateRequest{Options: two, Name: "Ana"}, true},
		{"an open game with a key and a clock", CreateRequest{Options: two, Name: "Ana", Key: key, Open: true, MoveTime: 3600}, true},
		{"a league game needs a key", CreateRequest{Options: two, Name: "Ana", League: "abcdefghijklmnop"}, false},
		{"an open game needs a key", CreateRequest{Options: two, Name: "Ana", Open: true, MoveTime: 3600}, false},
		{"an open game needs a clock", CreateRequest{Options: two, Name: "Ana", Key: key, Open: true}, false},
		{"a rated game is open", CreateRequest{Options: two, Name: "Ana", Key: key, Rated: true, MoveTime: 3600}, false},
		{"a rated game has no computers", CreateRequest{Options: two, Name: "Ana", Key: key, Open: true, Rated: true, MoveTime: 3600,
			Bots: []BotSeat{{Seat: 1, Level: "easy"}}}, false},
		{"a rule set without a pool is not rated", CreateRequest{Options: block, Name: "Ana", Key: key, Open: true, Rated: true, MoveTime: 3600}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := memory.New()
			svc := New(Config{Store: st, Rand: testenv.Seeded(3)})
			_, err := svc.Create(t.Context(), Op{}, c.req)
			if c.ok != (err == nil) || err != nil && !errors.Is(err, engine.ErrBadInput) {
				t.Fatalf("Create: %v; want ok %v or engine.ErrBadInput", err, c.ok)
			}
			if !c.ok {
				if ids, err := st.Due(t.Context(), time.Now().Add(time.Hour), 10); err != nil || len(ids) != 0 {
					t.Fatalf("a refused create wrote %v (%v)", ids, err)
				}
				if rec, v, _ := svc.LoadPlayer(t.Context(), HashToken(key)); v != 0 || len(rec.Games) != 0 {
					t.Fatalf("a refused create wrote the key's record: version %d, %d games", v, len(rec.Games))
				}
			}
		})
	}
}
