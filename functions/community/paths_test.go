package community

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/bolt"
	"tessera/functions/store/memory"
	"tessera/functions/store/storetest"
	"tessera/internal/testenv"
)

// TestMain shares one dynalite among the tests that need it.
func TestMain(m *testing.M) { testenv.Main(m) }

// eachStore runs test on memory, bbolt and DynamoDB (dynalite).
func eachStore(t *testing.T, test func(t *testing.T, st store.Store)) {
	stores := []struct {
		name string
		open func(t *testing.T) store.Store
	}{
		{"memory", func(*testing.T) store.Store { return memory.New() }},
		{"bbolt", func(t *testing.T) store.Store {
			b, err := bolt.Open(filepath.Join(t.TempDir(), "games.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { b.Close() })
			return b
		}},
		{"dynamodb via dynalite", func(t *testing.T) store.Store { return storetest.NewDynalite(t) }},
	}
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) { test(t, s.open(t)) })
	}
}

// pathWorld is one store, one clock and the services a test makes over
// them (a crash is a service that stops; the next one carries on).
type pathWorld struct {
	t     *testing.T
	st    store.Store
	clock *testenv.Clock
	seed  uint64
}

// world is a game service and its community.
type world struct {
	*game.Service
	com *Service
}

// loadMatch reads game id and replays it.
func (w *world) loadMatch(ctx context.Context, id string) (*game.Loaded, *engine.Match, error) {
	g, err := w.Load(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	m, err := g.Replay()
	return g, m, err
}

func (w *pathWorld) service(afterEnd func(string)) *world {
	return w.serviceWith(game.Config{AfterEnd: afterEnd})
}

// serviceWith is a service over the world's store, clock and next seed,
// with cfg's other settings.
func (w *pathWorld) serviceWith(cfg game.Config) *world {
	w.seed++
	cfg.Store, cfg.Now, cfg.Rand, cfg.Logger = w.st, w.clock.Now, testenv.Seeded(w.seed), slog.New(slog.DiscardHandler)
	svc := game.New(cfg)
	return &world{svc, New(svc)}
}

var pathOp = game.Op{Host: "example.test"}

func pathKey(name string) string {
	return fmt.Sprintf("%s-path-key-%s", name, "0123456789abcdef")[:min(64, len(name)+26)]
}

func fiveUp(players int, target int) engine.Options {
	o := engine.DefaultOptions(engine.FiveUp)
	o.Players, o.Pairs, o.Target = players, false, target
	return o
}

// playOn makes the seat to act play its first legal move, through Move,
// until the match ends; tokens are by seat.
func playOn(t *testing.T, svc *world, id string, tokens map[int]string) {
	t.Helper()
	for range 2000 {
		g, m, err := svc.loadMatch(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if m.Status() == engine.StatusFinished {
			return
		}
		acts := m.ToAct()
		if len(acts) == 0 {
			t.Fatalf("nobody to act in %s (status %v)", id, m.Status())
		}
		s, mv := acts[0], engine.Move{Kind: engine.Keep} // the redeal question: keep
		if s == m.Turn() {
			mv = m.AppendLegal(s, nil)[0]
		}
		if _, err := svc.Move(t.Context(), pathOp, id, tokens[s], game.MoveRequest{Version: g.Item.Version, Move: mv}); err != nil {
			t.Fatalf("move of seat %d: %v", s, err)
		}
	}
	t.Fatalf("%s did not end in 2000 moves", id)
}

// settledOnce checks that finished game id is settled and that each of
// keys' profiles counted it exactly once, also after the sweep ran again.
func (w *pathWorld) settledOnce(svc *world, id string, keys ...string) {
	w.t.Helper()
	ctx := w.t.Context()
	for round := range 2 {
		g, m, err := svc.loadMatch(ctx, id)
		if err != nil {
			w.t.Fatal(err)
		}
		if m.Status() != engine.StatusFinished {
			w.t.Fatalf("%s: status %v, want finished", id, m.Status())
		}
		if g.State.Settle != game.SettleDone {
			w.t.Fatalf("%s (check %d): settle %d, want %d (done)", id, round, g.State.Settle, game.SettleDone)
		}
		for _, k := range keys {
			p, err := svc.com.MyProfile(ctx, game.HashToken(k))
			if err != nil || p == nil {
				w.t.Fatalf("profile of %s: %v, %v", k, p, err)
			}
			if n := count(p.Settled, id); n != 1 || p.Finished != 1 {
				w.t.Fatalf("%s's profile after %s (check %d): counted %d times, finished %d; want 1 and 1", k, id, round, n, p.Finished)
			}
		}
		w.clock.Add(2 * time.Minute)
		if _, err := svc.Sweep(ctx, "example.test"); err != nil {
			w.t.Fatal(err)
		}
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// seatTwo creates a two-person game (Ana's key in seat 0, open when open,
// with a clock of moveTime seconds) and seats Bea's key; it returns the
// game's id and the tokens by seat.
func seatTwo(t *testing.T, svc *world, open bool, moveTime int64, target int) (string, map[int]string) {
	t.Helper()
	ana, bea := pathKey("ana"), pathKey("bea")
	a, err := svc.Create(t.Context(), pathOp, game.CreateRequest{Options: fiveUp(2, target), Name: "Ana", Key: ana, Open: open, MoveTime: moveTime})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.TakeSeat(t.Context(), pathOp, a.Meta.ID, game.SeatRequest{Name: "Bea", Seat: -1, Key: bea}); err != nil {
		t.Fatal(err)
	}
	return a.Meta.ID, map[int]string{0: ana, 1: bea}
}

// TestEveryPathThatEndsAMatchSettlesItOnce lists the ways a match can end
// (docs/settling.md) and checks, on every store, that each is settled,
// and counted in each player's profile exactly once, by the change that
// ended it or, after a crash, by the sweep.
func TestEveryPathThatEndsAMatchSettlesItOnce(t *testing.T) {
	paths := []struct {
		name string
		// end ends a match and returns its id and the keys at its table.
		end func(t *testing.T, w *pathWorld) (string, []string)
	}{
		{"the computers in the create", func(t *testing.T, w *pathWorld) (string, []string) {
			// A low target: for some deals the computer leads and scores
			// it before the creator ever plays. Seeds until one does.
			// Each try has a key of its own: its profile counts one match.
			for i := range 400 {
				svc := w.service(nil)
				ana := pathKey(fmt.Sprint("ana", i))
				a, err := svc.Create(t.Context(), pathOp, game.CreateRequest{Options: fiveUp(2, 5), Name: "Ana", Key: ana,
					Bots: []game.BotSeat{{Seat: 1, Level: "easy"}}})
				if err != nil {
					t.Fatal(err)
				}
				if a.View.Status == engine.StatusFinished {
					return a.Meta.ID, []string{ana}
				}
			}
			t.Fatal("no deal of 400 ended in its create")
			return "", nil
		}},
		{"the last seat taken", func(t *testing.T, w *pathWorld) (string, []string) {
			for i := range 400 {
				svc := w.service(nil)
				ana, bea := pathKey(fmt.Sprint("ana", i)), pathKey(fmt.Sprint("bea", i))
				a, err := svc.Create(t.Context(), pathOp, game.CreateRequest{Options: fiveUp(3, 5), Name: "Ana", Key: ana,
					Bots: []game.BotSeat{{Seat: 1, Level: "easy"}}})
				if err != nil {
					t.Fatal(err)
				}
				b, err := svc.TakeSeat(t.Context(), pathOp, a.Meta.ID, game.SeatRequest{Name: "Bea", Seat: 2, Key: bea})
				if err != nil {
					t.Fatal(err)
				}
				if b.View.Status == engine.StatusFinished {
					return a.Meta.ID, []string{ana, bea}
				}
			}
			t.Fatal("no deal of 400 ended when its last seat was taken")
			return "", nil
		}},
		{"a move", func(t *testing.T, w *pathWorld) (string, []string) {
			svc := w.service(nil)
			id, tokens := seatTwo(t, svc, false, 0, 25)
			playOn(t, svc, id, tokens)
			return id, []string{tokens[0], tokens[1]}
		}},
		{"away, in an open game", func(t *testing.T, w *pathWorld) (string, []string) {
			svc := w.service(nil)
			id, tokens := seatTwo(t, svc, true, 86400, 50) // an open game has a clock
			for s := range 2 {                             // both away: the computer plays on to the end
				g, err := svc.Load(t.Context(), id)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := svc.Move(t.Context(), pathOp, id, tokens[s], game.MoveRequest{Version: g.Item.Version, Move: engine.Move{Kind: engine.Away}}); err != nil {
					t.Fatal(err)
				}
			}
			return id, []string{tokens[0], tokens[1]}
		}},
		{"a timeout in the sweep", func(t *testing.T, w *pathWorld) (string, []string) {
			svc := w.service(nil)
			id, tokens := seatTwo(t, svc, true, game.MinMoveTime, 50)
			for range 4 { // each person's time runs out; then the computer plays on
				w.clock.Add(time.Duration(game.MinMoveTime+1) * time.Second)
				if _, err := svc.Sweep(t.Context(), "example.test"); err != nil {
					t.Fatal(err)
				}
			}
			return id, []string{tokens[0], tokens[1]}
		}},
		{"a move that ends its player's vacation", func(t *testing.T, w *pathWorld) (string, []string) {
			svc := w.service(nil)
			id, tokens := seatTwo(t, svc, false, 0, 25)
			for _, k := range tokens {
				if _, err := svc.com.TakeVacation(t.Context(), game.HashToken(k), 1); err != nil {
					t.Fatal(err)
				}
			}
			playOn(t, svc, id, tokens)
			return id, []string{tokens[0], tokens[1]}
		}},
		{"a tournament game decided at its deadline, then played to its end", func(t *testing.T, w *pathWorld) (string, []string) {
			svc := w.service(nil)
			ctx := t.Context()
			keys := []string{pathKey("ana"), pathKey("bea")}
			for i, k := range keys {
				if _, err := svc.com.SetName(ctx, game.HashToken(k), []string{"Ana", "Bea"}[i]); err != nil {
					t.Fatal(err)
				}
			}
			tour := enterAll(t, svc, TournamentRequest{Name: "Coppa", Format: Swiss, Rounds: 1,
				Options: fiveUp(2, 50), MoveTime: 86400, RoundTime: 3600, Size: 2, Listed: true}, keys)
			id := tour.Played[0].Tables[0].Game
			// The round's deadline passes: the sweep decides the table by
			// the scores now; the game goes on.
			w.clock.Add(2 * time.Hour)
			if _, err := svc.Sweep(ctx, "example.test"); err != nil {
				t.Fatal(err)
			}
			decided, _, err := svc.com.LoadTournament(ctx, tour.ID)
			if err != nil || decided.Status != TourFinished || decided.Played[0].Tables[0].Points == nil {
				t.Fatalf("after the deadline: %+v, %v; want finished with the table decided", decided, err)
			}
			g, err := svc.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			tokens := map[int]string{}
			for s, a := range g.State.Seats {
				for _, k := range keys {
					if string(a.TokenHash) == string(game.HashToken(k)) {
						tokens[s] = k
					}
				}
			}
			playOn(t, svc, id, tokens)
			after, _, err := svc.com.LoadTournament(ctx, tour.ID)
			if err != nil || !slices.Equal(after.Played[0].Tables[0].Points, decided.Played[0].Tables[0].Points) {
				t.Fatalf("the table's points %v after the game's end, %v at the deadline; want them kept", after.Played[0].Tables[0].Points, decided.Played[0].Tables[0].Points)
			}
			return id, keys
		}},
		{"a crash between the save and the settling", func(t *testing.T, w *pathWorld) (string, []string) {
			crashed := ""
			svc := w.service(func(id string) { crashed = id; panic(errCrash) })
			id, tokens := seatTwo(t, svc, false, 0, 25)
			func() {
				defer func() {
					if r := recover(); r != errCrash {
						panic(r)
					}
				}()
				playOn(t, svc, id, tokens)
			}()
			if crashed != id {
				t.Fatalf("crashed in %q, want %s", crashed, id)
			}
			g, err := svc.Load(t.Context(), id)
			if err != nil || g.State.Settle != game.SettlePending {
				t.Fatalf("after the crash: %v, settle %d; want pending", err, g.State.Settle)
			}
			// The next instance's sweep settles it (settledOnce sweeps).
			return id, []string{tokens[0], tokens[1]}
		}},
	}
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			eachStore(t, func(t *testing.T, st store.Store) {
				w := &pathWorld{t: t, st: st, clock: &testenv.Clock{T: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), Tick: time.Microsecond}}
				id, keys := p.end(t, w)
				w.t = t
				svc := w.service(nil)
				if p.name == "a crash between the save and the settling" {
					w.clock.Add(time.Minute)
					if _, err := svc.Sweep(t.Context(), "example.test"); err != nil {
						t.Fatal(err)
					}
				}
				w.settledOnce(svc, id, keys...)
			})
		})
	}
}

var errCrash = errors.New("crash")
