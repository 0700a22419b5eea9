package community

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"tessera/engine/rating"
	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

// The clocks, the room's tables and its trophies, below HTTP on a fake
// clock (issue 42).

// TestADeadlineHandsTheSeatToTheComputer: a seat whose time runs out is
// away, marked timed out, and the computer plays for it; the game's
// version moves with that one change, and its player's profile counts the
// timeout when the match ends.
func TestADeadlineHandsTheSeatToTheComputer(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		id, tokens := seatTwo(t, svc, false, 3600, 25)
		seat, _, version, ok := toAct(t, svc, id)
		if !ok {
			t.Fatal("nobody to act")
		}
		w.clock.Add(time.Hour + time.Minute)
		if n, err := svc.Sweep(ctx, "example.test"); err != nil || n != 1 {
			t.Fatalf("the sweep past the deadline: %d, %v", n, err)
		}
		g, m, err := svc.loadMatch(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Seat(seat).Away || !g.State.Seats[seat].TimedOut || g.Version() != version+1 {
			t.Fatalf("after the deadline: away %v, timed out %v, version %d (was %d)", m.Seat(seat).Away, g.State.Seats[seat].TimedOut, g.Version(), version)
		}
		playOn(t, svc, id, map[int]string{1 - seat: tokens[1-seat]})
		p, err := svc.com.MyProfile(ctx, game.HashToken(tokens[seat]))
		if err != nil || p.Finished != 1 || p.Timeouts != 1 || p.Reliability() != 0 {
			t.Fatalf("the timed-out player's profile: %+v, %v", p, err)
		}
	})
}

// TestAReminderIsNotedOnce: with a quarter of the seat's time left the
// sweep reminds it once (a note: the game's version and view stay), and
// a second sweep reminds nobody.
func TestAReminderIsNotedOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		id, _ := seatTwo(t, svc, false, 3600, 250)
		seat, _, _, _ := toAct(t, svc, id)
		before, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		w.clock.Add(45*time.Minute + time.Second)
		if n, err := svc.Sweep(ctx, "example.test"); err != nil || n != 1 {
			t.Fatalf("the reminder's sweep: %d, %v", n, err)
		}
		g, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.State.Seats[seat].Reminded != 1 || g.Version() != before.Version() || g.Item.Version != before.Item.Version+1 ||
			!g.Item.UpdatedAt.Equal(before.Item.UpdatedAt) {
			t.Fatalf("after the reminder: reminded %d, version %d (was %d), store's %d (was %d)",
				g.State.Seats[seat].Reminded, g.Version(), before.Version(), g.Item.Version, before.Item.Version)
		}
		if n, err := svc.Sweep(ctx, "example.test"); err != nil || n != 0 {
			t.Fatalf("a second sweep: %d, %v; want nothing", n, err)
		}
	})
}

// TestAStaleMoveIsRefusedAndARetryAnswered: a move decided on an older
// version is refused with the game as it now is; a retried moveId is
// answered as it was, applied once.
func TestAStaleMoveIsRefusedAndARetryAnswered(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	id, tokens := seatTwo(t, svc, false, 0, 250)
	seat, mv, version, _ := toAct(t, svc, id)
	moved, err := svc.Move(ctx, pathOp, id, tokens[seat], game.MoveRequest{Version: version, MoveID: "once", Move: mv})
	if err != nil || moved.Meta.Version != version+1 || !moved.Created {
		t.Fatalf("the move: %+v, %v", moved.Meta, err)
	}
	again, err := svc.Move(ctx, pathOp, id, tokens[seat], game.MoveRequest{Version: version, MoveID: "once", Move: mv})
	if err != nil || again.Created || again.Meta.Version != version+1 {
		t.Fatalf("the retried moveId: %+v, %v; want the game at %d, nothing applied", again.Meta, err, version+1)
	}
	s2, mv2, _, _ := toAct(t, svc, id)
	var stale *game.StaleError
	if _, err := svc.Move(ctx, pathOp, id, tokens[s2], game.MoveRequest{Version: version, Move: mv2}); !errors.As(err, &stale) || stale.Now.Meta.Version != version+1 || stale.Now.Seat != s2 {
		t.Fatalf("a move on version %d: %v; want a StaleError holding the game at %d for seat %d", version, err, version+1, s2)
	}
}

// TestAMovePastItsDeadlineWritesTheTimeoutAlone: a move sent after the
// mover's deadline passed (no sweep in between) times the seat out in
// one change, the computer plays for it, and the move is refused as
// stale with the game as written; sent again with the same moveId it is
// still not applied, and the version moved once.
func TestAMovePastItsDeadlineWritesTheTimeoutAlone(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		id, tokens := seatTwo(t, svc, false, 3600, 250)
		seat, mv, version, ok := toAct(t, svc, id)
		if !ok {
			t.Fatal("nobody to act")
		}
		w.clock.Add(time.Hour + time.Second)
		req := game.MoveRequest{Version: version, MoveID: "late", Move: mv}
		var stale *game.StaleError
		_, err := svc.Move(ctx, pathOp, id, tokens[seat], req)
		if !errors.As(err, &stale) || stale.Now.Meta.Version != version+1 || stale.Now.Seat != seat {
			t.Fatalf("a move past its deadline: %v; want a StaleError holding the game at %d", err, version+1)
		}
		g, m, err := svc.loadMatch(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Version() != version+1 || !m.Seat(seat).Away || !g.State.Seats[seat].TimedOut || g.State.Applied(seat, "late") {
			t.Fatalf("after the late move: version %d (was %d), away %v, timed out %v, applied %v",
				g.Version(), version, m.Seat(seat).Away, g.State.Seats[seat].TimedOut, g.State.Applied(seat, "late"))
		}
		if _, err := svc.Move(ctx, pathOp, id, tokens[seat], req); !errors.As(err, &stale) || stale.Now.Meta.Version != version+1 {
			t.Fatalf("the late move again: %v; want stale at %d", err, version+1)
		}
		// A token that holds no seat is refused and writes nothing, deadlines passed or not.
		w.clock.Add(2 * time.Hour)
		before, _ := svc.Load(ctx, id)
		if _, err := svc.Move(ctx, pathOp, id, "no-such-token", req); !errors.Is(err, game.ErrUnauthorized) {
			t.Fatalf("a token without a seat: %v", err)
		}
		if after, _ := svc.Load(ctx, id); after.Item.Version != before.Item.Version {
			t.Fatalf("a refused token wrote the game: %d -> %d", before.Item.Version, after.Item.Version)
		}
	})
}

// eligible gives each key a profile that may sit at rated tables.
func eligible(t *testing.T, svc *world, names map[string]string) map[string]string {
	t.Helper()
	ids := named(t, svc, names)
	for _, pid := range ids {
		if _, _, err := svc.com.UpdateProfile(t.Context(), pid, func(p *Profile) bool { p.Finished = MinFinished; return true }); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// TestRatedMatchesMakeTheLeaderboard: two players with nine rated
// matches each (a leaderboard lists ten or more) play a rated table's
// match: both are on their pool's leaderboard with ten games, one win
// between them, the winner first, their ratings moved apart.
func TestRatedMatchesMakeTheLeaderboard(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		ana, bea := pathKey("ana"), pathKey("bea")
		ids := eligible(t, svc, map[string]string{ana: "Ana", bea: "Bea"})
		start := rating.Tessera.New()
		for _, pid := range ids {
			if _, _, err := svc.com.UpdateProfile(ctx, pid, func(p *Profile) bool {
				p.Pools = map[string]*PoolStats{"fiveup-duel": {Mu: start.Mu, Sigma: start.Sigma, Games: Provisional - 1}}
				return true
			}); err != nil {
				t.Fatal(err)
			}
		}
		a, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 5), Name: "Ana", Key: ana, Open: true, Rated: true, MoveTime: 3600})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.TakeSeat(ctx, pathOp, a.Meta.ID, game.SeatRequest{Name: "Bea", Seat: -1, Key: bea}); err != nil {
			t.Fatal(err)
		}
		playOn(t, svc, a.Meta.ID, map[int]string{0: ana, 1: bea})
		var rows []BoardRow
		for range 50 { // DynamoDB's index may lag a moment
			if rows, err = svc.com.Leaderboard(ctx, "fiveup-duel"); err != nil || len(rows) == 2 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil || len(rows) != 2 {
			t.Fatalf("the leaderboard: %+v, %v", rows, err)
		}
		wins := 0
		for _, r := range rows {
			if r.Games != Provisional || r.Rating == rating.Shown(start) || r.Player != ids[ana] && r.Player != ids[bea] {
				t.Errorf("a row: %+v", r)
			}
			wins += r.Wins
		}
		if wins != 1 || rows[0].Rating <= rows[1].Rating {
			t.Errorf("the rows %+v: %d wins, want 1 and the winner first", rows, wins)
		}
	})
}

// TestASuspendedPlayerIsKeptOutOfTheRoom: once suspended, Bea opens no
// table in the room and sits at none, and her table opened before waits
// for nobody.
func TestASuspendedPlayerIsKeptOutOfTheRoom(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	ana, bea := pathKey("ana"), pathKey("bea")
	ids := named(t, svc, map[string]string{ana: "Ana", bea: "Bea"})
	old, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 150), Name: "Bea", Key: bea, Open: true, MoveTime: 3600})
	if err != nil {
		t.Fatal(err)
	}
	anas, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 150), Name: "Ana", Key: ana, Open: true, MoveTime: 3600})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	if _, err := svc.com.Moderate(ctx, ids[bea], Moderation{Suspended: &yes}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 150), Name: "Bea", Key: bea, Open: true, MoveTime: 3600}); !errors.Is(err, game.ErrNotEligible) {
		t.Errorf("a suspended player's new open table: %v, want game.ErrNotEligible", err)
	}
	if _, err := svc.TakeSeat(ctx, pathOp, anas.Meta.ID, game.SeatRequest{Name: "Bea", Seat: -1, Key: bea}); !errors.Is(err, game.ErrNotEligible) {
		t.Errorf("a suspended player at Ana's table: %v, want game.ErrNotEligible", err)
	}
	if _, err := svc.TakeSeat(ctx, pathOp, old.Meta.ID, game.SeatRequest{Name: "Ana", Seat: -1, Key: ana}); !errors.Is(err, game.ErrNotEligible) {
		t.Errorf("Ana at the suspended player's table: %v, want game.ErrNotEligible", err)
	}
	// Her table waiting from before is in nobody's lobby (it stayed listed
	// for its 7 days), and back once she is no longer suspended.
	listed := func() bool {
		cards, err := svc.com.Lobby(ctx, "", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cards {
			var g struct{ ID string }
			if err := json.Unmarshal(c, &g); err != nil {
				t.Fatal(err)
			}
			if g.ID == old.Meta.ID {
				return true
			}
		}
		return false
	}
	if listed() {
		t.Error("a suspended player's table is still in the lobby")
	}
	for range 2 { // once, whatever retries happen
		no := false
		if _, err := svc.com.Moderate(ctx, ids[bea], Moderation{Suspended: &no}); err != nil {
			t.Fatal(err)
		}
	}
	if !listed() {
		t.Error("the table is not back in the lobby once its player is no longer suspended")
	}
}

// TestALeagueSeasonCrownsItsChampion: when a season with three players or
// more has ended, the sweep gives its first the league-champion trophy,
// once.
func TestALeagueSeasonCrownsItsChampion(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		keys := []string{pathKey("ana"), pathKey("bea"), pathKey("cy")}
		named(t, svc, map[string]string{keys[0]: "Ana", keys[1]: "Bea", keys[2]: "Cy"})
		id := leagueGame(t, svc, leagueOf(t, svc, false, keys[0], keys[1:]...), 5, keys...)
		playOn(t, svc, id, map[int]string{0: keys[0], 1: keys[1], 2: keys[2]})
		_, m, err := svc.loadMatch(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		champion := keys[m.Winner()] // seats are teams alone
		w.clock.Add(31 * 24 * time.Hour)
		for range 2 {
			if _, err := svc.Sweep(ctx, "example.test"); err != nil {
				t.Fatal(err)
			}
		}
		for _, k := range keys {
			p, err := svc.com.MyProfile(ctx, game.HashToken(k))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, tr := range p.Trophies {
				if tr.ID == "league-champion" {
					n++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[k == champion]; n != want {
				t.Errorf("%s has the league-champion trophy %d times, want %d", k[:3], n, want)
			}
		}
	})
}

// TestTheLobbyListsOpenTablesButNotTheBlocked: Bea's open table is in the
// lobby for Cy and out of it for Ana, who blocked her; it leaves the lobby
// once full.
func TestTheLobbyListsOpenTablesButNotTheBlocked(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	ana, bea, cy := pathKey("ana"), pathKey("bea"), pathKey("cy")
	ids := named(t, svc, map[string]string{ana: "Ana", bea: "Bea", cy: "Cy"})
	tbl, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 150), Name: "Bea", Key: bea, Open: true, MoveTime: 3600})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.com.SetListed(ctx, game.HashToken(ana), ListBlocked, ids[bea], true); err != nil {
		t.Fatal(err)
	}
	lobby := func(k string) []string {
		cards, err := svc.com.Lobby(ctx, "fiveup", nil, game.HashToken(k))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cards {
			var g struct{ ID string }
			if err := json.Unmarshal(c, &g); err != nil {
				t.Fatal(err)
			}
			out = append(out, g.ID)
		}
		return out
	}
	if got := lobby(cy); !slices.Contains(got, tbl.Meta.ID) {
		t.Errorf("Cy's lobby %v lacks Bea's table", got)
	}
	if got := lobby(ana); slices.Contains(got, tbl.Meta.ID) {
		t.Errorf("Ana's lobby %v shows the table of Bea, whom she blocked", got)
	}
	if _, err := svc.TakeSeat(ctx, pathOp, tbl.Meta.ID, game.SeatRequest{Name: "Cy", Seat: -1, Key: cy}); err != nil {
		t.Fatal(err)
	}
	if got := lobby(cy); slices.Contains(got, tbl.Meta.ID) {
		t.Errorf("a full table is still in the lobby: %v", got)
	}
}

// TestOneSweepTakesEveryDueGame: a sweep is no longer capped at one batch
// of due items (issue 45): 130 games past their deadline (more than
// sweepBatch) are all timed out by one sweep, each once, while another
// game not yet due is left alone; a second sweep finds nothing.
func TestOneSweepTakesEveryDueGame(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		const due = 130
		type was struct {
			seat    int
			version int64
		}
		games := map[string]was{}
		for range due {
			id, _ := seatTwo(t, svc, false, 3600, 250)
			seat, _, version, ok := toAct(t, svc, id)
			if !ok {
				t.Fatal("nobody to act")
			}
			games[id] = was{seat, version}
		}
		w.clock.Add(time.Hour + time.Minute)
		later, _ := seatTwo(t, svc, false, 3600, 250)
		if n, err := svc.Sweep(ctx, "example.test"); err != nil || n != due {
			t.Fatalf("one sweep past %d deadlines: %d, %v", due, n, err)
		}
		for id, g0 := range games {
			g, m, err := svc.loadMatch(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Seat(g0.seat).Away || !g.State.Seats[g0.seat].TimedOut || g.Version() != g0.version+1 {
				t.Fatalf("game %s: away %v, timed out %v, version %d (was %d)", id, m.Seat(g0.seat).Away, g.State.Seats[g0.seat].TimedOut, g.Version(), g0.version)
			}
		}
		g, err := svc.Load(ctx, later)
		if err != nil || g.State.Seats[0].TimedOut || g.State.Seats[1].TimedOut {
			t.Fatalf("the game not yet due: %+v, %v", g.State.Seats, err)
		}
		if n, err := svc.Sweep(ctx, "example.test"); err != nil || n != 0 {
			t.Fatalf("a second sweep: %d, %v; want nothing", n, err)
		}
	})
}
