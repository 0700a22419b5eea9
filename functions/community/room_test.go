package community

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

// The room's services below HTTP (issue 42), on a fake clock: what a
// player sees of leagues, tournaments, vacation, forgetting, mutes,
// reports, hints and rematches, asked of the services themselves. The
// API's tests keep what is the transport's.

// named gives each key a profile with its name, and returns their ids.
func named(t *testing.T, svc *world, names map[string]string) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for k, n := range names {
		p, err := svc.com.SetName(t.Context(), game.HashToken(k), n)
		if err != nil {
			t.Fatal(err)
		}
		ids[k] = p.ID
	}
	return ids
}

// leagueOf makes a league of admin's key (hints as asked) that every key
// of members joins, and returns its id.
func leagueOf(t *testing.T, svc *world, hints bool, admin string, members ...string) string {
	t.Helper()
	l, invite, err := svc.com.CreateLeague(t.Context(), game.HashToken(admin), "Lega", "fiveup", hints)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range members {
		if _, _, err := svc.com.JoinLeague(t.Context(), game.HashToken(k), l.ID, invite); err != nil {
			t.Fatal(err)
		}
	}
	return l.ID
}

// leagueGame makes a Five Up game of league l to target, set up by
// keys[0], every other key seated in turn; it returns the game's id.
func leagueGame(t *testing.T, svc *world, l string, target int, keys ...string) string {
	t.Helper()
	a, err := svc.Create(t.Context(), pathOp, game.CreateRequest{Options: fiveUp(len(keys), target), Name: keys[0][:3], Key: keys[0], League: l})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys[1:] {
		if _, err := svc.TakeSeat(t.Context(), pathOp, a.Meta.ID, game.SeatRequest{Name: k[:3], Seat: -1, Key: k}); err != nil {
			t.Fatal(err)
		}
	}
	return a.Meta.ID
}

// TestALeagueGameCountsInTheSeasonTable: a league's game, set up by one
// member and joined by another, counts in the season's table for both
// once it ends, and is listed among the season's games; a key that is
// not a member neither sees the league nor takes the game's seat.
func TestALeagueGameCountsInTheSeasonTable(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		ana, bea, cy := pathKey("ana"), pathKey("bea"), pathKey("cy")
		ids := named(t, svc, map[string]string{ana: "Ana", bea: "Bea", cy: "Cy"})
		l := leagueOf(t, svc, false, ana, bea)
		a, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 5), Name: "Ana", Key: ana, League: l})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.TakeSeat(ctx, pathOp, a.Meta.ID, game.SeatRequest{Name: "Cy", Seat: -1, Key: cy}); !errors.Is(err, game.ErrNotEligible) {
			t.Fatalf("a stranger at a league's game: %v, want game.ErrNotEligible", err)
		}
		if _, err := svc.com.ViewLeague(ctx, game.HashToken(cy), l, ""); err == nil {
			t.Fatal("a stranger sees the league")
		}
		if _, err := svc.TakeSeat(ctx, pathOp, a.Meta.ID, game.SeatRequest{Name: "Bea", Seat: -1, Key: bea}); err != nil {
			t.Fatal(err)
		}
		playOn(t, svc, a.Meta.ID, map[int]string{0: ana, 1: bea})
		v, err := svc.com.ViewLeague(ctx, game.HashToken(bea), l, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Table) != 2 {
			t.Fatalf("the season's table: %+v, want Ana and Bea", v.Table)
		}
		won := 0
		for _, row := range v.Table {
			if row.Played != 1 || row.Won+row.Lost != 1 || row.Player != ids[ana] && row.Player != ids[bea] {
				t.Errorf("a line of the table: %+v", row)
			}
			won += row.Won
		}
		if won != 1 || len(v.Games) != 1 || v.Games[0].ID != a.Meta.ID || v.Games[0].Status != "finished" {
			t.Errorf("the season: %d won, games %+v", won, v.Games)
		}
	})
}

// enterAll makes a tournament of req by keys[0] with every key entered,
// and starts it.
func enterAll(t *testing.T, svc *world, req TournamentRequest, keys []string) *Tournament {
	t.Helper()
	ctx := t.Context()
	tour, _, err := svc.com.CreateTournament(ctx, game.HashToken(keys[0]), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if _, _, err := svc.com.Enter(ctx, game.HashToken(k), tour.ID); err != nil {
			t.Fatal(err)
		}
	}
	if tour, err = svc.com.Start(ctx, "example.test", game.HashToken(keys[0]), tour.ID); err != nil {
		t.Fatal(err)
	}
	return tour
}

// TestASwissTournamentWithAByeAndDeadlines: three entrants, two rounds of
// tables of two: each round has one table and a bye worth a point; a
// round's deadline decides its table by the scores as they stand, the
// next round begins, and after the last the tournament is finished with
// a winner, everyone having sat out at most once.
func TestASwissTournamentWithAByeAndDeadlines(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	keys := []string{pathKey("ana"), pathKey("bea"), pathKey("cy")}
	named(t, svc, map[string]string{keys[0]: "Ana", keys[1]: "Bea", keys[2]: "Cy"})
	tour := enterAll(t, svc, TournamentRequest{Name: "Coppa", Format: Swiss, Rounds: 2, Options: fiveUp(2, 150),
		MoveTime: 86400, RoundTime: 3600, Size: 8, Listed: true}, keys)
	sat := map[string]int{}
	for round := 1; round <= 2; round++ {
		r := tour.Played[round-1]
		games, byes := 0, 0
		for _, tb := range r.Tables {
			switch {
			case tb.Game != "":
				games++
				if tb.Points != nil {
					t.Fatalf("round %d: a table decided before its game: %+v", round, tb)
				}
				if _, err := svc.Load(ctx, tb.Game); err != nil {
					t.Fatalf("round %d: its game: %v", round, err)
				}
			case len(tb.Players) == 1 && slices.Equal(tb.Points, []int{1}):
				byes++
				sat[tb.Players[0]]++
			default:
				t.Fatalf("round %d: a table %+v", round, tb)
			}
		}
		if games != 1 || byes != 1 {
			t.Fatalf("round %d: %d tables and %d byes, want 1 and 1", round, games, byes)
		}
		w.clock.Add(time.Hour + time.Minute) // the round's deadline
		if _, err := svc.Sweep(ctx, "example.test"); err != nil {
			t.Fatal(err)
		}
		var err error
		if tour, _, err = svc.com.LoadTournament(ctx, tour.ID); err != nil {
			t.Fatal(err)
		}
		for _, tb := range tour.Played[round-1].Tables {
			if tb.Points == nil {
				t.Fatalf("round %d after its deadline: table %+v undecided", round, tb)
			}
		}
	}
	if tour.Status != TourFinished || tour.Winner == "" || len(tour.Played) != 2 {
		t.Fatalf("after two rounds: status %s, winner %q, %d rounds", tour.Status, tour.Winner, len(tour.Played))
	}
	for p, n := range sat {
		if n > 1 {
			t.Errorf("%s sat out %d times", p, n)
		}
	}
}

// TestARoundRobinMeetsEveryPairOnce: four entrants meet every other
// exactly once, in one round of six games, without a bye.
func TestARoundRobinMeetsEveryPairOnce(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	keys := []string{pathKey("ana"), pathKey("bea"), pathKey("cy"), pathKey("dee")}
	ids := named(t, svc, map[string]string{keys[0]: "Ana", keys[1]: "Bea", keys[2]: "Cy", keys[3]: "Dee"})
	tour := enterAll(t, svc, TournamentRequest{Name: "Girone", Format: RoundRobin, Options: fiveUp(2, 150),
		MoveTime: 86400, RoundTime: 86400, Size: 8, Listed: true}, keys)
	if tour.Rounds != 1 || len(tour.Played) != 1 {
		t.Fatalf("a round robin of %d rounds, %d played", tour.Rounds, len(tour.Played))
	}
	met := map[[2]string]int{}
	for _, tb := range tour.Played[0].Tables {
		if tb.Game == "" || len(tb.Players) != 2 {
			t.Fatalf("a table %+v", tb)
		}
		a, b := tb.Players[0], tb.Players[1]
		if a > b {
			a, b = b, a
		}
		met[[2]string{a, b}]++
	}
	for i, k := range keys {
		for _, k2 := range keys[i+1:] {
			a, b := ids[k], ids[k2]
			if a > b {
				a, b = b, a
			}
			if met[[2]string{a, b}] != 1 {
				t.Errorf("%s and %s met %d times", a, b, met[[2]string{a, b}])
			}
		}
	}
	if len(met) != 6 {
		t.Errorf("%d pairs met, want 6", len(met))
	}
}

// TestAVacationStopsTheClockAndAMoveEndsIt: Bea on vacation has no
// deadline in her game (the sweep never times her out, a day later
// either); her move ends the vacation there and in her record.
func TestAVacationStopsTheClockAndAMoveEndsIt(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		id, tokens := seatTwo(t, svc, false, 3600, 250)
		bea := tokens[1]
		if _, err := svc.com.TakeVacation(ctx, game.HashToken(bea), 3); err != nil {
			t.Fatal(err)
		}
		// Ana moves until it is Bea's turn.
		for {
			seat, mv, version, ok := toAct(t, svc, id)
			if !ok {
				t.Fatal("the match ended")
			}
			if seat == 1 {
				break
			}
			if _, err := svc.Move(ctx, pathOp, id, tokens[seat], game.MoveRequest{Version: version, Move: mv}); err != nil {
				t.Fatal(err)
			}
		}
		g, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !g.State.ClockStopped(1) || !g.State.DeadlineOf(1).IsZero() || g.Meta(id).Seats[1].Vacation.IsZero() {
			t.Fatalf("Bea on vacation: clock stopped %v, deadline %v, view's vacation %v", g.State.ClockStopped(1), g.State.DeadlineOf(1), g.Meta(id).Seats[1].Vacation)
		}
		w.clock.Add(25 * time.Hour)
		if _, err := svc.Sweep(ctx, "example.test"); err != nil {
			t.Fatal(err)
		}
		seat, mv, version, ok := toAct(t, svc, id)
		if !ok || seat != 1 {
			t.Fatalf("a day later: seat %d to act (%v); want Bea, never timed out", seat, ok)
		}
		if _, err := svc.Move(ctx, pathOp, id, bea, game.MoveRequest{Version: version, Move: mv}); err != nil {
			t.Fatal(err)
		}
		rec, _, err := svc.LoadPlayer(ctx, game.HashToken(bea))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Vac.Active(w.clock.Now()) {
			t.Errorf("Bea's vacation after her move: %+v, want ended", rec.Vac)
		}
		if g, _ := svc.Load(ctx, id); g.State.Seats[1].Vacation != 0 {
			t.Errorf("the game still shows Bea on vacation")
		}
	})
}

// TestForgettingLeavesTheOthersGameWhole: Ana forgets herself in the
// middle of a match; her seat is "—", held by nobody, played by the
// computer, and Bea plays on to the end.
func TestForgettingLeavesTheOthersGameWhole(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		id, tokens := seatTwo(t, svc, false, 0, 50)
		if err := svc.com.Forget(ctx, pathOp, game.HashToken(tokens[0])); err != nil {
			t.Fatal(err)
		}
		g, m, err := svc.loadMatch(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		a := g.State.Seats[0]
		if m.Seat(0).Name != ForgottenName || a.Player != "" || string(a.TokenHash) == string(game.HashToken(tokens[0])) || !m.Seat(0).Away {
			t.Fatalf("Ana's seat after forgetting: name %q, player %q, away %v", m.Seat(0).Name, a.Player, m.Seat(0).Away)
		}
		if _, err := svc.Move(ctx, pathOp, id, tokens[0], game.MoveRequest{Version: g.Version()}); !errors.Is(err, game.ErrUnauthorized) {
			t.Fatalf("Ana's old key at the table: %v, want game.ErrUnauthorized", err)
		}
		playOn(t, svc, id, map[int]string{1: tokens[1]})
		if p, err := svc.com.MyProfile(ctx, game.HashToken(tokens[1])); err != nil || p.Finished != 1 {
			t.Fatalf("Bea's profile after the match: %+v, %v", p, err)
		}
	})
}

// TestAMuteHidesTalkFromTheMuterAlone: Ana muted Bea: Bea's message is
// not in what Ana reads, and Cy, at the same table, reads it.
func TestAMuteHidesTalkFromTheMuterAlone(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	ana, bea, cy := pathKey("ana"), pathKey("bea"), pathKey("cy")
	ids := named(t, svc, map[string]string{ana: "Ana", bea: "Bea", cy: "Cy"})
	a, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(3, 250), Name: "Ana", Key: ana})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{bea, cy} {
		if _, err := svc.TakeSeat(ctx, pathOp, a.Meta.ID, game.SeatRequest{Name: k[:3], Seat: -1, Key: k}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.com.SetListed(ctx, game.HashToken(ana), ListMuted, ids[bea], true); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{bea, cy} {
		if _, _, err := svc.SendChat(ctx, "example.test", a.Meta.ID, k, game.ChatRequest{Text: "ciao da " + k[:3]}); err != nil {
			t.Fatal(err)
		}
	}
	read := func(k string) []string {
		msgs, err := svc.ReadChat(ctx, a.Meta.ID, k, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range msgs {
			out = append(out, *m.Text)
		}
		return out
	}
	if got := fmt.Sprint(read(ana)); got != "[ciao da cy-]" {
		t.Errorf("Ana (who muted Bea) reads %s", got)
	}
	if got := fmt.Sprint(read(cy)); got != "[ciao da bea ciao da cy-]" {
		t.Errorf("Cy reads %s", got)
	}
	if g, _ := svc.Load(ctx, a.Meta.ID); g.State.Chat != 2 {
		t.Errorf("the game notes chat %d, want 2 (the mute is the reader's alone)", g.State.Chat)
	}
}

// TestAReportReachesTheQueueOnceAndCloses: the same report twice is one
// report; the operator's queue lists it until it is closed; yourself and
// a player nobody is are refused.
func TestAReportReachesTheQueueOnceAndCloses(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		ana, bea := pathKey("ana"), pathKey("bea")
		ids := named(t, svc, map[string]string{ana: "Ana", bea: "Bea"})
		req := ReportRequest{Player: ids[bea], What: ReportName, Note: "rude"}
		r, made, err := svc.com.File(ctx, game.HashToken(ana), "", req)
		if err != nil || !made {
			t.Fatalf("a report: %+v, %v, %v", r, made, err)
		}
		again, made, err := svc.com.File(ctx, game.HashToken(ana), "", req)
		if err != nil || made || again.ID != r.ID {
			t.Fatalf("the same report again: %+v, made %v, %v; want the first, not made", again, made, err)
		}
		if _, _, err := svc.com.File(ctx, game.HashToken(ana), "", ReportRequest{Player: ids[ana], What: ReportName}); !errors.Is(err, engine.ErrBadInput) {
			t.Errorf("reporting yourself: %v, want engine.ErrBadInput", err)
		}
		if _, _, err := svc.com.File(ctx, game.HashToken(ana), "", ReportRequest{Player: "nobodyatall12345", What: ReportName}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("reporting nobody: %v, want store.ErrNotFound", err)
		}
		var q []*Report
		for range 50 { // the queue is a list: DynamoDB's index may lag a moment
			if q, _, err = svc.com.Queue(ctx, ""); err != nil || len(q) == 1 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil || len(q) != 1 || q[0].ID != r.ID || q[0].Player != ids[bea] {
			t.Fatalf("the queue: %+v, %v; want the one report", q, err)
		}
		if err := svc.com.Close(ctx, r.ID); err != nil {
			t.Fatal(err)
		}
		for range 50 {
			if q, _, err = svc.com.Queue(ctx, ""); err != nil || len(q) == 0 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil || len(q) != 0 {
			t.Fatalf("the queue after closing: %+v, %v", q, err)
		}
	})
}

// TestAHintIsPublicAndOnlyWhereHintsAreOn: a hint asked in a friendly
// game is marked for every reader; a second ask on the same decision
// marks nothing more; a hint is refused off one's turn and in a league
// that does not allow them.
func TestAHintIsPublicAndOnlyWhereHintsAreOn(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	id, tokens := seatTwo(t, svc, false, 0, 250)
	// playTo plays first legal moves until the seat to play has plays
	// that want says yes to; it answers that seat.
	playTo := func(want func(plays int) bool) int {
		for {
			s, mv, version, ok := toAct(t, svc, id)
			if !ok {
				t.Fatal("the match ended")
			}
			_, m, err := svc.loadMatch(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if mv.Kind == engine.Play && want(len(m.AppendLegal(s, nil))) {
				return s
			}
			if _, err := svc.Move(ctx, pathOp, id, tokens[s], game.MoveRequest{Version: version, Move: mv}); err != nil {
				t.Fatal(err)
			}
		}
	}
	seat := playTo(func(n int) bool { return n > 1 })
	if _, _, err := svc.Hint(ctx, pathOp, id, tokens[1-seat]); !errors.Is(err, engine.ErrNotYourTurn) {
		t.Errorf("a hint off one's turn: %v, want engine.ErrNotYourTurn", err)
	}
	before, _ := svc.Load(ctx, id)
	advice, meta, err := svc.Hint(ctx, pathOp, id, tokens[seat])
	if err != nil || len(advice.Plays) == 0 {
		t.Fatalf("a hint: %+v, %v", advice, err)
	}
	for range 2 {
		if _, _, err := svc.Hint(ctx, pathOp, id, tokens[seat]); err != nil {
			t.Fatal(err)
		}
	}
	g, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.State.Hints) != 1 || g.State.Hints[0].Seat != seat || len(meta.Hints) != 1 {
		t.Fatalf("hints marked %v (answered with %v), want one by seat %d", g.State.Hints, meta.Hints, seat)
	}
	if g.Version() != before.Version() {
		t.Errorf("a hint changed the game's version: %d to %d", before.Version(), g.Version())
	}
	// One play only: nothing to choose, so no hint and no public mark
	// (issue 44: a hint was offered and marked when only one play was
	// possible).
	one := playTo(func(n int) bool { return n == 1 })
	if _, _, err := svc.Hint(ctx, pathOp, id, tokens[one]); !errors.Is(err, game.ErrNotEligible) {
		t.Errorf("a hint with one play possible: %v, want game.ErrNotEligible", err)
	}
	if g, _ := svc.Load(ctx, id); len(g.State.Hints) != 1 {
		t.Errorf("a refused hint marked the game: %v", g.State.Hints)
	}
	// A league without hints.
	ana, bea := pathKey("ana2"), pathKey("bea2")
	named(t, svc, map[string]string{ana: "Ana", bea: "Bea"})
	lg := leagueGame(t, svc, leagueOf(t, svc, false, ana, bea), 250, ana, bea)
	s, _, _, _ := toAct(t, svc, lg)
	k := map[int]string{0: ana, 1: bea}[s]
	if _, _, err := svc.Hint(ctx, pathOp, lg, k); !errors.Is(err, game.ErrNotEligible) {
		t.Errorf("a hint in a league without hints: %v, want game.ErrNotEligible", err)
	}
}

// TestARematchCarriesTheSeries: a finished match's rematch is made once,
// whoever asks and however often, with the series' count and the
// winner's win, and the finished game names it.
func TestARematchCarriesTheSeries(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		id, tokens := seatTwo(t, svc, false, 0, 5)
		playOn(t, svc, id, tokens)
		_, m, err := svc.loadMatch(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		first, err := svc.Rematch(ctx, pathOp, id, tokens[1])
		if err != nil || !first.Created {
			t.Fatalf("the rematch: %+v, %v", first, err)
		}
		second, err := svc.Rematch(ctx, pathOp, id, tokens[0])
		if err != nil || second.Created || second.Meta.ID != first.Meta.ID || second.Seat != 0 {
			t.Fatalf("Ana's rematch after Bea's: %+v, %v; want Bea's game, seat 0, not made", second.Meta, err)
		}
		next, err := svc.Load(ctx, first.Meta.ID)
		if err != nil {
			t.Fatal(err)
		}
		wins := make([]int, 2)
		wins[m.Winner()]++
		if next.State.SeriesMatches != 1 || !slices.Equal(next.State.SeriesWins, wins) || next.State.Previous != id {
			t.Errorf("the rematch's series: %d matches, wins %v, previous %q; want 1, %v, %s", next.State.SeriesMatches, next.State.SeriesWins, next.State.Previous, wins, id)
		}
		if old, _ := svc.Load(ctx, id); old.State.Next != first.Meta.ID {
			t.Errorf("the finished game's next: %q", old.State.Next)
		}
		if _, err := svc.Rematch(ctx, pathOp, first.Meta.ID, tokens[0]); !errors.Is(err, game.ErrNotFinished) {
			t.Errorf("a rematch of a match in play: %v, want game.ErrNotFinished", err)
		}
	})
}

// TestNotesAndTheLookBack: the table notes are there while a hand is in
// play; the look back answers only for a hand that has ended.
func TestNotesAndTheLookBack(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	id, tokens := seatTwo(t, svc, false, 0, 250)
	if _, err := svc.Notes(ctx, pathOp, id, tokens[0]); err != nil {
		t.Errorf("notes while a hand is played: %v", err)
	}
	if _, _, err := svc.Review(ctx, pathOp, id, tokens[0], 0); !errors.Is(err, game.ErrNotFinished) {
		t.Errorf("a look back before any hand ended: %v, want game.ErrNotFinished", err)
	}
	// Play the first hand out.
	_, m, _ := svc.loadMatch(ctx, id)
	for hand := m.HandNumber(); ; {
		s, mv, version, ok := toAct(t, svc, id)
		if !ok {
			break
		}
		if _, err := svc.Move(ctx, pathOp, id, tokens[s], game.MoveRequest{Version: version, Move: mv}); err != nil {
			t.Fatal(err)
		}
		if _, m, _ = svc.loadMatch(ctx, id); m.HandNumber() != hand {
			break
		}
	}
	got, plays, err := svc.Review(ctx, pathOp, id, tokens[0], 0)
	if err != nil || got != 1 {
		t.Fatalf("the look back at the last hand: hand %d, %v", got, err)
	}
	// Each line comes with the board it was played on: the tiles the log
	// says were played in the hand before it, and one of its open ends
	// takes the played tile.
	_, m, _ = svc.loadMatch(ctx, id)
	log := m.View(0).Log
	for _, p := range plays {
		if p.Seq <= 0 || p.Best.Move.Kind != engine.Play {
			t.Errorf("a reviewed play: %+v", p)
		}
		on := map[engine.Tile]bool{}
		for _, tl := range slices.Concat(p.Board.Line, p.Board.Up, p.Board.Down) {
			on[tl.Normal()] = true
		}
		before := 0
		for _, e := range log {
			if e.Hand == got && e.Type == engine.EventPlay && e.Seq < p.Seq {
				before++
				if !on[e.Tile.Normal()] {
					t.Errorf("play %d's board lacks %v, played at %d before it", p.Seq, e.Tile, e.Seq)
				}
			}
		}
		fits := len(p.Board.Ends) == 0 && before == 0
		for _, end := range p.Board.Ends {
			fits = fits || int(p.Played.Move.Tile[0]) == end.Pips || int(p.Played.Move.Tile[1]) == end.Pips
		}
		if len(on) != before || !fits {
			t.Errorf("play %d (%v) on a board of %d tiles with ends %+v; %d played before it", p.Seq, p.Played.Move.Tile, len(on), p.Board.Ends, before)
		}
	}
	if _, _, err := svc.Review(ctx, pathOp, id, tokens[0], 5); !errors.Is(err, game.ErrNotFinished) {
		t.Errorf("a look back at a hand to come: %v, want game.ErrNotFinished", err)
	}
	if _, _, err := svc.Review(ctx, pathOp, id, "not-a-seat-token-at-all", 0); !errors.Is(err, game.ErrUnauthorized) {
		t.Errorf("a look back without a seat: %v, want game.ErrUnauthorized", err)
	}
}
