package community

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/internal/testenv"
)

// No side doors (issue 41): every write of a game goes through the
// change path at a new store version, and every rule is decided where
// its write is, on every retry. Each test races what used to lose
// something, on memory, bbolt and DynamoDB (dynalite).

func newPathWorld(t *testing.T, st store.Store) *pathWorld {
	return &pathWorld{t: t, st: st, clock: &testenv.Clock{T: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), Tick: time.Microsecond}}
}

// toAct is the seat that must act in game id and its move (the first
// legal play, or keeping the deal), and the game's version.
func toAct(t *testing.T, svc *world, id string) (int, engine.Move, int64, bool) {
	t.Helper()
	g, m, err := svc.loadMatch(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	acts := m.ToAct()
	if m.Status() != engine.StatusPlaying || len(acts) == 0 {
		return 0, engine.Move{}, 0, false
	}
	s, mv := acts[0], engine.Move{Kind: engine.Keep}
	if s == m.Turn() {
		mv = m.AppendLegal(s, nil)[0]
	}
	return s, mv, g.Version(), true
}

// TestAHintAChatAndAMoveAtOnceLoseNothing: the seat to play asks a hint
// and moves while the other seat talks, all at once, 100 rounds on each
// store: every hint answered is marked in the game, the game's chat seq
// is the last message's, and every move is applied (a note never
// makes a move stale). With the notes written at the same version (the
// old Touch), hint marks and chat seqs were lost.
func TestAHintAChatAndAMoveAtOnceLoseNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		const rounds = 100
		w := newPathWorld(t, st)
		svc := w.service(nil)
		id, tokens := seatTwo(t, svc, false, 0, engine.MaxTarget)
		ctx := t.Context()
		hinted, sent, moved := 0, 0, 0
		answered := map[game.HintMark]bool{} // every mark a hint was answered with
		for round := range rounds {
			w.clock.Add(4 * time.Second) // within the talk's 20 a minute
			seat, mv, version, ok := toAct(t, svc, id)
			if !ok {
				t.Fatalf("round %d: the match is over", round)
			}
			var (
				wg              sync.WaitGroup
				hintErr, moveEr error
				hintMeta        game.Meta
				msg             game.ChatMessage
				chatErr         error
			)
			wg.Add(3)
			go func() {
				defer wg.Done()
				_, hintMeta, hintErr = svc.Hint(ctx, pathOp, id, tokens[seat])
			}()
			go func() {
				defer wg.Done()
				msg, _, chatErr = svc.SendChat(ctx, "example.test", id, tokens[1-seat], game.ChatRequest{Text: fmt.Sprint("round ", round)})
			}()
			go func() {
				defer wg.Done()
				_, moveEr = svc.Move(ctx, pathOp, id, tokens[seat], game.MoveRequest{Version: version, MoveID: fmt.Sprint("m", round), Move: mv})
			}()
			wg.Wait()
			if chatErr != nil {
				t.Fatalf("round %d: chat: %v", round, chatErr)
			}
			if moveEr != nil {
				t.Fatalf("round %d: the move at version %d: %v", round, version, moveEr)
			}
			sent++
			moved++
			g, err := svc.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Version() != version+1 {
				t.Fatalf("round %d: version %d after the move, want %d", round, g.Version(), version+1)
			}
			if g.State.Chat != msg.Seq || msg.Seq != sent {
				t.Fatalf("round %d: the game notes chat seq %d; the message sent was %d of %d", round, g.State.Chat, msg.Seq, sent)
			}
			switch {
			case hintErr == nil:
				// A second ask on the same decision is answered with the
				// mark it made before.
				hinted++
				answered[hintMeta.Hints[len(hintMeta.Hints)-1]] = true
			case errors.Is(hintErr, engine.ErrNotYourTurn), errors.Is(hintErr, game.ErrNotEligible):
				// The move came first (or the seat was asked about the
				// deal), or the seat had one play (a hint is for a choice):
				// no hint, no mark.
			default:
				t.Fatalf("round %d: hint: %v", round, hintErr)
			}
			for mark := range answered {
				if !slices.Contains(g.State.Hints, mark) {
					t.Fatalf("round %d: the hint answered with mark %+v is not in the game's %v", round, mark, g.State.Hints)
				}
			}
			if len(g.State.Hints) != len(answered) {
				t.Fatalf("round %d: the game marks %v, %d hints were answered", round, g.State.Hints, len(answered))
			}
		}
		if hinted == 0 {
			t.Fatalf("no hint of %d was answered: the race was never run", rounds)
		}
		t.Logf("%d rounds: %d hints answered and marked, %d messages, %d moves", rounds, hinted, sent, moved)
	})
}

// TestAMatchEndedBesideAChatIsSettledOnce: the move that ends a match and
// a chat message race; the match is counted once, and still once after
// the player has finished a hundred other matches and the sweep has run
// (the profile's list of the last 64 games counted is not the
// guarantee: a settled game is never pending again, and a profile
// forgets a game only once it is settled and game.SettleGrace has
// passed).
func TestAMatchEndedBesideAChatIsSettledOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		const others = 100
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		id, tokens := seatTwo(t, svc, false, 0, 5)
		// Play on until the next move ends the match.
		var last struct {
			seat    int
			mv      engine.Move
			version int64
		}
		for {
			seat, mv, version, ok := toAct(t, svc, id)
			if !ok {
				t.Fatal("the match ended before the race")
			}
			g, err := svc.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			probe, err := g.Replay() // a copy to try the move on
			if err != nil {
				t.Fatal(err)
			}
			if err := probe.Apply(seat, mv); err != nil {
				t.Fatal(err)
			}
			if probe.Status() == engine.StatusFinished {
				last.seat, last.mv, last.version = seat, mv, version
				break
			}
			if _, err := svc.Move(ctx, pathOp, id, tokens[seat], game.MoveRequest{Version: version, Move: mv}); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		var moveErr, chatErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, moveErr = svc.Move(ctx, pathOp, id, tokens[last.seat], game.MoveRequest{Version: last.version, Move: last.mv})
		}()
		go func() {
			defer wg.Done()
			_, _, chatErr = svc.SendChat(ctx, "example.test", id, tokens[1-last.seat], game.ChatRequest{Reaction: "good-game"})
		}()
		wg.Wait()
		if moveErr != nil || chatErr != nil {
			t.Fatalf("the last move: %v; the chat: %v", moveErr, chatErr)
		}
		w.clock.Add(time.Minute)
		if _, err := svc.Sweep(ctx, "example.test"); err != nil {
			t.Fatal(err)
		}
		g, err := svc.Load(ctx, id)
		if err != nil || g.State.Settle != game.SettleDone || g.State.Chat != 1 {
			t.Fatalf("after the race: %v, settle %d, chat %d; want settled, chat 1", err, g.State.Settle, g.State.Chat)
		}
		// Ana finishes a hundred more against the computer; the clock
		// passes SettleGrace now and then, so the profile may forget.
		ana := tokens[0]
		for i := range others {
			a, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 5), Name: "Ana", Key: ana,
				Bots: []game.BotSeat{{Seat: 1, Level: "easy"}}})
			if err != nil {
				t.Fatal(err)
			}
			playOn(t, svc, a.Meta.ID, map[int]string{0: ana})
			if i%20 == 19 {
				w.clock.Add(game.SettleGrace + time.Minute)
			}
		}
		for range 3 {
			w.clock.Add(2 * time.Minute)
			if _, err := svc.Sweep(ctx, "example.test"); err != nil {
				t.Fatal(err)
			}
		}
		for k, want := range map[string]int{tokens[0]: others + 1, tokens[1]: 1} {
			p, err := svc.com.MyProfile(ctx, game.HashToken(k))
			if err != nil || p == nil || p.Finished != want {
				t.Fatalf("profile: %+v, %v; want %d finished", p, err, want)
			}
		}
		if g, err := svc.Load(ctx, id); err != nil || g.State.Settle != game.SettleDone {
			t.Fatalf("the raced game: %v, settle %d", err, g.State.Settle)
		}
	})
}

// TestABlockedPairNeverSitsTogether: Ana blocked Bea; both take a seat at
// Cy's open table at the same moment, 12 times on each store: never both
// (the block is decided on the game as each attempt read it, again after
// a lost race).
func TestABlockedPairNeverSitsTogether(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		ana, bea, cy := pathKey("ana"), pathKey("bea"), pathKey("cy")
		for _, k := range []string{ana, bea, cy} {
			if _, err := svc.com.SetName(ctx, game.HashToken(k), k[:3]); err != nil {
				t.Fatal(err)
			}
		}
		beaP, err := svc.com.MyProfile(ctx, game.HashToken(bea))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.com.SetListed(ctx, game.HashToken(ana), ListBlocked, beaP.ID, true); err != nil {
			t.Fatal(err)
		}
		together, refused := 0, 0
		for try := range 12 {
			// Cy's own table (at most MaxWaiting wait at once: one at a
			// time here, and each fills).
			tbl, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(4, 250), Name: "Cy", Key: cy, Open: true, MoveTime: 3600})
			if err != nil {
				t.Fatalf("try %d: %v", try, err)
			}
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, k := range []string{ana, bea} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = svc.TakeSeat(ctx, pathOp, tbl.Meta.ID, game.SeatRequest{Name: k[:3], Seat: -1, Key: k})
				}()
			}
			wg.Wait()
			switch {
			case errs[0] == nil && errs[1] == nil:
				together++
			case errs[0] == nil && errors.Is(errs[1], game.ErrNotEligible), errs[1] == nil && errors.Is(errs[0], game.ErrNotEligible):
				refused++
			default:
				t.Fatalf("try %d: Ana %v, Bea %v", try, errs[0], errs[1])
			}
			// Fill the table so it no longer waits in the room.
			if _, err := svc.TakeSeat(ctx, pathOp, tbl.Meta.ID, game.SeatRequest{Name: "Dee", Seat: -1, Key: pathKey(fmt.Sprint("dee", try))}); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.TakeSeat(ctx, pathOp, tbl.Meta.ID, game.SeatRequest{Name: "Eve", Seat: -1, Key: pathKey(fmt.Sprint("eve", try))}); err != nil && !errors.Is(err, engine.ErrGameFull) {
				t.Fatal(err)
			}
		}
		if together != 0 || refused != 12 {
			t.Fatalf("of 12 races: %d sat together, %d refused", together, refused)
		}
	})
}

// TestAReportRacingForgetMeRevivesNothing: Bea reports Ana while Ana
// forgets herself, 20 times on each store: afterwards Ana has no
// profile, and no report or profile holds her name (a report used to
// make her profile again, name and all, for two years).
func TestAReportRacingForgetMeRevivesNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		tries := 20
		if _, ok := st.(store.Eventual); ok {
			tries = 10
		}
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		bea := pathKey("bea")
		if _, err := svc.com.SetName(ctx, game.HashToken(bea), "Bea"); err != nil {
			t.Fatal(err)
		}
		filed := 0
		for try := range tries {
			w.clock.Add(13 * time.Second) // within 5 reports a minute
			ana := pathKey(fmt.Sprint("ana", try))
			name := fmt.Sprintf("Anastasia%d", try)
			p, err := svc.com.SetName(ctx, game.HashToken(ana), name)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			var reportErr, forgetErr error
			wg.Add(2)
			go func() {
				defer wg.Done()
				_, _, reportErr = svc.com.File(ctx, game.HashToken(bea), "", ReportRequest{Player: p.ID, What: "name", Note: "rude"})
			}()
			go func() {
				defer wg.Done()
				forgetErr = svc.com.Forget(ctx, pathOp, game.HashToken(ana))
			}()
			wg.Wait()
			if forgetErr != nil {
				t.Fatalf("try %d: forget: %v", try, forgetErr)
			}
			if reportErr == nil {
				filed++
			} else if !errors.Is(reportErr, store.ErrNotFound) {
				t.Fatalf("try %d: the report: %v", try, reportErr)
			}
			if got, _, err := svc.com.LoadProfile(ctx, p.ID); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("try %d: Ana's profile after forgetting: %+v, %v", try, got, err)
			}
			q, _, err := svc.com.Queue(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range q {
				if r.Name == name || r.Player == p.ID && r.Name != ForgottenName && r.Name != "" {
					t.Fatalf("try %d: a report still names her: %+v", try, r)
				}
			}
		}
		t.Logf("%d tries: %d reports filed before the forgetting", tries, filed)
	})
}

// TestEveryWayToMakeAGameAdmitsAndRatesItsSeats: a rematch and a
// tournament's table are made by the same path as a create (game's
// Make): a rematch of an open table admits its seats like any seat taken
// (a block made since the match refuses it, and nothing is made), and a
// rated tournament's table marks its new players' ratings provisional,
// as a rated table does.
func TestEveryWayToMakeAGameAdmitsAndRatesItsSeats(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		id, tokens := seatTwo(t, svc, true, 3600, 5)
		playOn(t, svc, id, tokens)
		bea, err := svc.com.MyProfile(ctx, game.HashToken(tokens[1]))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.com.SetListed(ctx, game.HashToken(tokens[0]), ListBlocked, bea.ID, true); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Rematch(ctx, pathOp, id, tokens[1]); !errors.Is(err, game.ErrNotEligible) {
			t.Fatalf("Bea's rematch with Ana, who blocked her: %v, want game.ErrNotEligible", err)
		}
		if _, err := svc.Load(ctx, game.RematchID(id)); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the refused rematch: %v, want none made", err)
		}
		if _, err := svc.com.SetListed(ctx, game.HashToken(tokens[0]), ListBlocked, bea.ID, false); err != nil {
			t.Fatal(err)
		}
		next, err := svc.Rematch(ctx, pathOp, id, tokens[1])
		if err != nil || !next.Created {
			t.Fatalf("the rematch once unblocked: %+v, %v", next, err)
		}

		// A rated Swiss tournament of two new (but eligible) players.
		keys := []string{pathKey("cy"), pathKey("dee")}
		eligible(t, svc, map[string]string{keys[0]: "Cy", keys[1]: "Dee"})
		tour := enterAll(t, svc, TournamentRequest{Name: "Coppa", Format: Swiss, Rounds: 1,
			Options: fiveUp(2, 50), MoveTime: 86400, RoundTime: 3600, Size: 2, Listed: true, Rated: true}, keys)
		g, err := svc.Load(ctx, tour.Played[0].Tables[0].Game)
		if err != nil {
			t.Fatal(err)
		}
		meta := g.Meta(g.Item.Entry.List)
		for s, a := range meta.Seats {
			if a.Rating < 0 || !a.Provisional {
				t.Errorf("the rated tournament's seat %d: rating %d, provisional %v; want a rating marked provisional", s, a.Rating, a.Provisional)
			}
		}
	})
}
