package community

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

// At the table, below HTTP on a fake clock (issue 42): watch leases, away
// and back, the table talk's rules, vacation's budget, a tournament's
// trophy, a league member removed, and what an export holds.

// TestAWatchLeaseLastsTwoHoursAndEnds: a seat's page watching its game
// holds a lease for WatchLease, renewed by watching again, ended by
// Unwatch; a token holding no seat watches nothing.
func TestAWatchLeaseLastsTwoHoursAndEnds(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		id, tokens := seatTwo(t, svc, false, 0, 250)
		const device = "https://push.example/device-1"
		until, err := svc.Watch(ctx, id, tokens[0], device)
		if err != nil || !until.Equal(w.clock.Now().UTC().Truncate(time.Second).Add(game.WatchLease)) {
			t.Fatalf("a watch: until %v, %v", until, err)
		}
		if _, err := svc.Watch(ctx, id, "no-seat-token-here-at-all", device); !errors.Is(err, game.ErrUnauthorized) {
			t.Errorf("a watch without a seat: %v, want game.ErrUnauthorized", err)
		}
		lease := func() (int, time.Time) {
			item, err := st.Load(ctx, game.WatchItemID(id))
			if errors.Is(err, store.ErrNotFound) {
				return 0, time.Time{}
			}
			if err != nil {
				t.Fatal(err)
			}
			var wi struct { // game's watchItem, as stored
				Leases []struct {
					Until int64 `json:"u"`
				} `json:"w"`
			}
			if err := json.Unmarshal(item.State, &wi); err != nil {
				t.Fatal(err)
			}
			if len(wi.Leases) == 0 {
				return 0, item.Expires
			}
			return len(wi.Leases), time.Unix(wi.Leases[0].Until, 0)
		}
		if n, u := lease(); n != 1 || !u.Equal(until) {
			t.Fatalf("the lease stored: %d until %v", n, u)
		}
		w.clock.Add(time.Hour)
		renewed, err := svc.Watch(ctx, id, tokens[0], device)
		if err != nil || !renewed.After(until) {
			t.Fatalf("a renewal: %v, %v", renewed, err)
		}
		if n, u := lease(); n != 1 || !u.Equal(renewed) {
			t.Fatalf("after the renewal: %d leases until %v; want one, renewed", n, u)
		}
		if err := svc.Unwatch(ctx, id, device); err != nil {
			t.Fatal(err)
		}
		if n, _ := lease(); n != 0 {
			t.Fatalf("after Unwatch: %d leases", n)
		}
	})
}

// TestAwayAndBack: a seat that goes away is played by the computer until
// it comes back; away and back are changes of the game (its version).
func TestAwayAndBack(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	// Three people: one away still leaves two here, so the match goes on.
	ana, bea, cy := pathKey("ana"), pathKey("bea"), pathKey("cy")
	a, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(3, 250), Name: "Ana", Key: ana})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{bea, cy} {
		if _, err := svc.TakeSeat(ctx, pathOp, a.Meta.ID, game.SeatRequest{Name: k[:3], Seat: -1, Key: k}); err != nil {
			t.Fatal(err)
		}
	}
	id := a.Meta.ID
	g, _ := svc.Load(ctx, id)
	away, err := svc.Move(ctx, pathOp, id, cy, game.MoveRequest{Version: g.Version(), Move: engine.Move{Kind: engine.Away}})
	if err != nil || away.Meta.Version != g.Version()+1 {
		t.Fatalf("away: %+v, %v", away.Meta, err)
	}
	_, m, _ := svc.loadMatch(ctx, id)
	if !m.Seat(2).Away {
		t.Fatal("Cy is not away")
	}
	// Ana and Bea play a while: Cy's turns are the computer's.
	for range 12 {
		s, mv, version, ok := toAct(t, svc, id)
		if !ok {
			break
		}
		if s == 2 {
			t.Fatal("the away seat is asked to act")
		}
		if _, err := svc.Move(ctx, pathOp, id, map[int]string{0: ana, 1: bea}[s], game.MoveRequest{Version: version, Move: mv}); err != nil {
			t.Fatal(err)
		}
	}
	g, _ = svc.Load(ctx, id)
	if _, err := svc.Move(ctx, pathOp, id, cy, game.MoveRequest{Version: g.Version(), Move: engine.Move{Kind: engine.Back}}); err != nil {
		t.Fatal(err)
	}
	if _, m, _ = svc.loadMatch(ctx, id); m.Seat(2).Away {
		t.Fatal("Cy is still away after coming back")
	}
}

// TestTheTableTalksRules: an open table talks with reactions only; a seat
// sends at most ChatPerMinute a minute; a retried messageId is answered
// as sent and counts toward no limit.
func TestTheTableTalksRules(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	open, otokens := seatTwo(t, svc, true, 3600, 250)
	if _, _, err := svc.SendChat(ctx, "example.test", open, otokens[0], game.ChatRequest{Text: "ciao"}); !errors.Is(err, game.ErrNotEligible) {
		t.Errorf("text at an open table: %v, want game.ErrNotEligible", err)
	}
	if _, sent, err := svc.SendChat(ctx, "example.test", open, otokens[0], game.ChatRequest{Reaction: "thanks"}); err != nil || !sent {
		t.Errorf("a reaction at an open table: %v, %v", sent, err)
	}
	id, tokens := seatTwo(t, svc, false, 0, 250) // a friends' table: text too
	first, sent, err := svc.SendChat(ctx, "example.test", id, tokens[0], game.ChatRequest{Text: "uno", MessageID: "m-1"})
	if err != nil || !sent {
		t.Fatal(err)
	}
	for i := 1; i < game.ChatPerMinute; i++ {
		if _, _, err := svc.SendChat(ctx, "example.test", id, tokens[0], game.ChatRequest{Text: fmt.Sprint(i)}); err != nil {
			t.Fatalf("message %d of the minute: %v", i+1, err)
		}
	}
	again, sent, err := svc.SendChat(ctx, "example.test", id, tokens[0], game.ChatRequest{Text: "uno", MessageID: "m-1"})
	if err != nil || sent || again.Seq != first.Seq {
		t.Fatalf("the retried messageId past the limit: %+v, sent %v, %v; want the first, not sent again", again, sent, err)
	}
	if _, _, err := svc.SendChat(ctx, "example.test", id, tokens[0], game.ChatRequest{Text: "troppo"}); !errors.Is(err, game.ErrLimitReached) {
		t.Errorf("message %d in a minute: %v, want game.ErrLimitReached", game.ChatPerMinute+1, err)
	}
	w.clock.Add(time.Minute)
	if _, _, err := svc.SendChat(ctx, "example.test", id, tokens[0], game.ChatRequest{Text: "di nuovo"}); err != nil {
		t.Errorf("a message a minute later: %v", err)
	}
	if _, err := svc.ReadChat(ctx, id, "", 0); !errors.Is(err, game.ErrUnauthorized) {
		t.Errorf("the talk read without a seat: %v, want game.ErrUnauthorized", err)
	}
}

// TestAVacationSpendsItsBudget: a key has a budget of days; a vacation
// longer than what is left is refused, and ending one early gives back
// the days not used.
func TestAVacationSpendsItsBudget(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	ana := pathKey("ana")
	named(t, svc, map[string]string{ana: "Ana"})
	p, err := svc.com.TakeVacation(ctx, game.HashToken(ana), 1)
	if err != nil {
		t.Fatal(err)
	}
	budget := p.Vacation.BudgetDays
	if _, err := svc.com.TakeVacation(ctx, game.HashToken(ana), budget+100); err == nil {
		t.Fatalf("a vacation of %d days with %d left was taken", budget+100, budget)
	}
	w.clock.Add(2 * time.Hour)
	st, err := svc.EndVacation(ctx, game.HashToken(ana))
	if err != nil || !st.Until.IsZero() {
		t.Fatalf("ending the vacation: %+v, %v", st, err)
	}
	if st.BudgetDays < budget {
		t.Errorf("after a vacation of two hours ended early: %d days left, %d before; want none spent of what was left", st.BudgetDays, budget)
	}
}

// TestATournamentOfFourCrownsItsWinner: four entrants, one round of two
// tables decided at the deadline: the tournament is finished and its
// winner has the tournament-winner trophy, once.
func TestATournamentOfFourCrownsItsWinner(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	keys := []string{pathKey("ana"), pathKey("bea"), pathKey("cy"), pathKey("dee")}
	ids := named(t, svc, map[string]string{keys[0]: "Ana", keys[1]: "Bea", keys[2]: "Cy", keys[3]: "Dee"})
	tour := enterAll(t, svc, TournamentRequest{Name: "Coppa", Format: Swiss, Rounds: 1, Options: fiveUp(2, 150),
		MoveTime: 86400, RoundTime: 3600, Size: 8, Listed: true}, keys)
	w.clock.Add(time.Hour + time.Minute)
	for range 2 {
		if _, err := svc.Sweep(ctx, "example.test"); err != nil {
			t.Fatal(err)
		}
	}
	tour, _, err := svc.com.LoadTournament(ctx, tour.ID)
	if err != nil || tour.Status != TourFinished || tour.Winner == "" {
		t.Fatalf("after the deadline: %+v, %v", tour, err)
	}
	for k, pid := range ids {
		p, err := svc.com.MyProfile(ctx, game.HashToken(k))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, tr := range p.Trophies {
			if tr.ID == "tournament-winner" {
				n++
			}
		}
		if want := map[bool]int{true: 1, false: 0}[pid == tour.Winner]; n != want {
			t.Errorf("%s has tournament-winner %d times, want %d", p.Name, n, want)
		}
	}
}

// TestARemovedMemberLeavesTheLeague: a member the admin removes no longer
// sees the league nor takes its games' seats; the league leaves their
// list.
func TestARemovedMemberLeavesTheLeague(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	ana, bea := pathKey("ana"), pathKey("bea")
	ids := named(t, svc, map[string]string{ana: "Ana", bea: "Bea"})
	l := leagueOf(t, svc, false, ana, bea)
	if err := svc.com.RemoveMember(ctx, game.HashToken(ana), l, ids[bea]); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.com.ViewLeague(ctx, game.HashToken(bea), l, ""); err == nil {
		t.Error("a removed member still sees the league")
	}
	a, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 150), Name: "Ana", Key: ana, League: l})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.TakeSeat(ctx, pathOp, a.Meta.ID, game.SeatRequest{Name: "Bea", Seat: -1, Key: bea}); !errors.Is(err, game.ErrNotEligible) {
		t.Errorf("a removed member at a league game: %v, want game.ErrNotEligible", err)
	}
	p, err := svc.com.MyProfile(ctx, game.HashToken(bea))
	if err != nil || len(p.Leagues) != 0 {
		t.Errorf("the removed member's leagues: %+v, %v", p.Leagues, err)
	}
}

// TestAnExportHoldsOnlyItsOwner: a player's export holds their name,
// words and seats and none of the other player's words or key.
func TestAnExportHoldsOnlyItsOwner(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	id, tokens := seatTwo(t, svc, false, 0, 250)
	for i, text := range []string{"le mie parole", "le parole di Bea"} {
		if _, _, err := svc.SendChat(ctx, "example.test", id, tokens[i], game.ChatRequest{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	ex, err := svc.com.Export(ctx, game.HashToken(tokens[0]))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ex)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"le mie parole", id, `"Ana"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the export lacks %q", want)
		}
	}
	for _, leak := range []string{"le parole di Bea", tokens[1], fmt.Sprintf("%x", game.HashToken(tokens[1]))} {
		if strings.Contains(s, leak) {
			t.Errorf("the export holds %q", leak)
		}
	}
}

// TestForgettingTakesItsReportsAlong: the reports a forgotten player
// filed are gone from the queue; those about a forgotten player stay for
// the moderators without the name, the note or the words.
func TestForgettingTakesItsReportsAlong(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	ana, bea, cy := pathKey("ana"), pathKey("bea"), pathKey("cy")
	ids := named(t, svc, map[string]string{ana: "Ana", bea: "Beatrice", cy: "Cy"})
	byAna, _, err := svc.com.File(ctx, game.HashToken(ana), "", ReportRequest{Player: ids[cy], What: ReportName, Note: "di Ana"})
	if err != nil {
		t.Fatal(err)
	}
	aboutBea, _, err := svc.com.File(ctx, game.HashToken(cy), "", ReportRequest{Player: ids[bea], What: ReportName, Note: "su Beatrice"})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{ana, bea} {
		if err := svc.com.Forget(ctx, pathOp, game.HashToken(k)); err != nil {
			t.Fatal(err)
		}
	}
	q, _, err := svc.com.Queue(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(q) != 1 || q[0].ID != aboutBea.ID || q[0].ID == byAna.ID {
		t.Fatalf("the queue after forgetting: %+v; want only the report about Beatrice", q)
	}
	if r := q[0]; r.Name != ForgottenName || r.Note != "" || r.Player != ids[bea] {
		t.Errorf("the report about a forgotten player: name %q, note %q", r.Name, r.Note)
	}
}

// TestAKeyKeepsThreeTablesWaitingAtMost: a key may have MaxWaiting open
// tables waiting in the room; one more is refused until one fills.
func TestAKeyKeepsThreeTablesWaitingAtMost(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	ana, bea := pathKey("ana"), pathKey("bea")
	named(t, svc, map[string]string{ana: "Ana", bea: "Bea"})
	req := game.CreateRequest{Options: fiveUp(2, 150), Name: "Ana", Key: ana, Open: true, MoveTime: 3600}
	var first string
	for i := range MaxWaiting {
		a, err := svc.Create(ctx, pathOp, req)
		if err != nil {
			t.Fatalf("open table %d: %v", i+1, err)
		}
		if first == "" {
			first = a.Meta.ID
		}
	}
	if _, err := svc.Create(ctx, pathOp, req); !errors.Is(err, game.ErrLimitReached) {
		t.Fatalf("open table %d: %v, want game.ErrLimitReached", MaxWaiting+1, err)
	}
	if _, err := svc.TakeSeat(ctx, pathOp, first, game.SeatRequest{Name: "Bea", Seat: -1, Key: bea}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, pathOp, req); err != nil {
		t.Fatalf("a table once one filled: %v", err)
	}
}

// TestASeatCannotEvictTheOthersWatches: one seat watching from 20
// devices keeps its own 4 newest leases, and the other seat's lease
// stays (one seat used to evict every other's with 16 made-up
// endpoints, leaving their pages believing they were watched).
func TestASeatCannotEvictTheOthersWatches(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	id, tokens := seatTwo(t, svc, false, 0, 250)
	if _, err := svc.Watch(ctx, id, tokens[1], "https://push.example/bea"); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		w.clock.Add(time.Second)
		if _, err := svc.Watch(ctx, id, tokens[0], fmt.Sprintf("https://push.example/ana-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	item, err := w.st.Load(ctx, game.WatchItemID(id))
	if err != nil {
		t.Fatal(err)
	}
	var wi struct {
		Leases []struct {
			Seat int `json:"s"`
		} `json:"w"`
	}
	if err := json.Unmarshal(item.State, &wi); err != nil {
		t.Fatal(err)
	}
	bySeat := map[int]int{}
	for _, l := range wi.Leases {
		bySeat[l.Seat]++
	}
	if bySeat[0] != 4 || bySeat[1] != 1 {
		t.Fatalf("leases by seat after 20 of Ana's devices: %v; want 4 of hers and Bea's one", bySeat)
	}
}

// TestAReportedPlayerCannotTellWhoReported: nothing the reported player
// reads holds the report's id (made from the reporter's id: with it they
// could try the ids of the players they met) or the reporter; the
// reporter's export holds the report without the other player's name or
// words.
func TestAReportedPlayerCannotTellWhoReported(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	id, tokens := seatTwo(t, svc, false, 0, 250)
	msg, _, err := svc.SendChat(ctx, "example.test", id, tokens[1], game.ChatRequest{Text: "parole di Bea"})
	if err != nil {
		t.Fatal(err)
	}
	ana, err := svc.com.MyProfile(ctx, game.HashToken(tokens[0]))
	if err != nil {
		t.Fatal(err)
	}
	bea, err := svc.com.MyProfile(ctx, game.HashToken(tokens[1]))
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := svc.com.File(ctx, game.HashToken(tokens[0]), "", ReportRequest{Player: bea.ID, What: ReportMessage, Game: id, Seq: msg.Seq})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := svc.com.Export(ctx, game.HashToken(tokens[1]))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(theirs)
	for what, leak := range map[string]string{"the report's id": r.ID, "the reporter's id": ana.ID} {
		if strings.Contains(string(b), leak) {
			t.Errorf("the reported player's export holds %s", what)
		}
	}
	if strings.Contains(string(b), `"reportedIn"`) {
		t.Errorf("the reported player's export lists the reports about them: %s", b)
	}
	mine, err := svc.com.Export(ctx, game.HashToken(tokens[0]))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(mine)
	if len(mine.Reports) != 1 || mine.Reports[0].ID != r.ID || strings.Contains(string(b), "parole di Bea") || strings.Contains(string(b), `"name":"Bea"`) {
		t.Errorf("the reporter's export: %s; want the report without Bea's name or words", b)
	}
}

// TestAForgottenPlayerLeavesNothingForOthers: after Ana forgets herself,
// her table that waited in the room is in no lobby, her seat at Bea's
// open table shows no reliability or vacation, Bea's mute and block
// lists leave her out, and the league's table names her "—", never "".
func TestAForgottenPlayerLeavesNothingForOthers(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	ana, bea := pathKey("ana"), pathKey("bea")
	ids := named(t, svc, map[string]string{ana: "Ana", bea: "Bea"})
	waiting, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 150), Name: "Ana", Key: ana, Open: true, MoveTime: 3600})
	if err != nil {
		t.Fatal(err)
	}
	// A league game they finish (a line in the table each), then an open
	// table of Bea's where Ana sits, on vacation.
	l := leagueOf(t, svc, false, bea, ana)
	playOn(t, svc, leagueGame(t, svc, l, 5, bea, ana), map[int]string{0: bea, 1: ana})
	if _, err := svc.com.TakeVacation(ctx, game.HashToken(ana), 2); err != nil {
		t.Fatal(err)
	}
	beas, err := svc.Create(ctx, pathOp, game.CreateRequest{Options: fiveUp(2, 150), Name: "Bea", Key: bea, Open: true, MoveTime: 3600})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.TakeSeat(ctx, pathOp, beas.Meta.ID, game.SeatRequest{Name: "Ana", Seat: -1, Key: ana}); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{ListMuted, ListBlocked} {
		if _, err := svc.com.SetListed(ctx, game.HashToken(bea), kind, ids[ana], true); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.com.Forget(ctx, pathOp, game.HashToken(ana)); err != nil {
		t.Fatal(err)
	}
	cards, err := svc.com.Lobby(ctx, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cards {
		if strings.Contains(string(c), waiting.Meta.ID) {
			t.Errorf("the forgotten player's waiting table is in the lobby: %s", c)
		}
	}
	g, err := svc.Load(ctx, beas.Meta.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a := g.Meta(beas.Meta.ID).Seats[1]; a.Player != "" || !a.Vacation.IsZero() || g.State.Seats[1].Reliability != -1 {
		t.Errorf("the forgotten seat still shows: %+v, reliability %d", a, g.State.Seats[1].Reliability)
	}
	p, err := svc.com.MyProfile(ctx, game.HashToken(bea))
	if err != nil {
		t.Fatal(err)
	}
	priv, err := svc.com.PrivateOf(ctx, p, game.Vacation{})
	if err != nil {
		t.Fatal(err)
	}
	if len(priv.Mutes) != 0 || len(priv.Blocks) != 0 {
		t.Errorf("Bea's lists name the forgotten: mutes %+v, blocks %+v", priv.Mutes, priv.Blocks)
	}
	v, err := svc.com.ViewLeague(ctx, game.HashToken(bea), l, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range v.Table {
		if row.Name == "" || row.Player == ids[ana] && row.Name != ForgottenName {
			t.Errorf("a league line: %+v; want the forgotten named %q", row, ForgottenName)
		}
	}
}
