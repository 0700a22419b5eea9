package engine

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var (
	fiveUp4         = Options{Variant: FiveUp, Players: 4, Target: 250, Redeal: true}
	fiveUp4Pairs    = Options{Variant: FiveUp, Players: 4, Pairs: true, Target: 250, Redeal: true}
	fiveUp2         = Options{Variant: FiveUp, Players: 2, Target: 250, Redeal: true}
	partnershipOpts = DefaultOptions(Partnership)
	block4          = DefaultOptions(Block)
)

func tiles(s ...string) []Tile {
	out := []Tile{}
	for _, x := range s {
		var a, b int
		fmt.Sscanf(x, "%d-%d", &a, &b)
		out = append(out, Tile{uint8(a), uint8(b)})
	}
	return out
}

// allZerosPlayed is a layout whose every open end shows 0 with every 0 tile
// on the board: nobody can play on it. seats says who made each play.
func allZerosPlayed(seats [10]int) []PlayedTile {
	steps := []struct {
		t string
		e End
	}{{"0-0", EndLead}, {"0-3", EndRight}, {"3-4", EndRight}, {"4-0", EndRight}, {"0-5", EndRight},
		{"5-6", EndRight}, {"6-0", EndRight}, {"2-0", EndLeft}, {"1-2", EndLeft}, {"0-1", EndLeft}}
	out := make([]PlayedTile, len(steps))
	for i, s := range steps {
		out[i] = PlayedTile{Seat: seats[i], Tile: tiles(s.t)[0], End: s.e}
	}
	return out
}

// blockedSim builds the all-zeros position with the given hands and lets
// the game notice that it is blocked.
func blockedSim(t *testing.T, opts Options, by [10]int, hands ...[]Tile) *Sim {
	t.Helper()
	s, err := NewSim(opts, allZerosPlayed(by), hands, nil, by[9])
	if err != nil {
		t.Fatal(err)
	}
	s.Advance()
	if !s.Over() || !s.blocked {
		t.Fatal("position is not blocked")
	}
	if len(s.ForcedActions()) != 0 {
		t.Fatalf("passes logged in a blocked hand: %v", s.ForcedActions())
	}
	return s
}

func TestHandEnd(t *testing.T) {
	rotating := [10]int{0, 1, 2, 3, 0, 1, 2, 3, 0, 1} // seat 0 led, seat 1 played last
	cases := []struct {
		name       string
		opts       Options
		by         [10]int
		hands      [][]Tile
		wantTeam   int
		wantPoints int
		wantLeader int
	}{
		{"fiveup blocked: fewest pips wins the others' pips rounded", fiveUp4, rotating,
			[][]Tile{tiles("1-1"), tiles("1-3"), tiles("1-4", "2-2"), tiles("6-6")}, 0, 25, 0},
		{"fiveup blocked: rounding 22 gives 20", fiveUp4, rotating,
			[][]Tile{tiles("1-1"), tiles("1-3"), tiles("1-4", "2-2"), tiles("4-5")}, 0, 20, 0},
		{"fiveup blocked: a tie between non-partners scores nothing, the lead passes on", fiveUp4, rotating,
			[][]Tile{tiles("1-3"), tiles("2-2"), tiles("6-6"), tiles("5-5")}, -1, 0, 1},
		{"fiveup pairs blocked: partners tied for fewest win, the first after the last player leads", fiveUp4Pairs, rotating,
			[][]Tile{tiles("1-3"), tiles("6-6"), tiles("2-2"), tiles("5-5")}, 0, 20, 2},
		{"fiveup pairs blocked: the partner's pips do not count", fiveUp4Pairs, rotating,
			[][]Tile{tiles("1-1"), tiles("2-3"), tiles("6-6"), tiles("1-3")}, 0, 10, 0},
		{"partnership blocked: the pair with fewer pips scores the other pair's total, exactly", partnershipOpts, rotating,
			[][]Tile{tiles("1-3"), tiles("6-6"), tiles("2-2"), tiles("5-5")}, 0, 22, 0},
		{"partnership blocked: on equal totals the pair that blocked loses", partnershipOpts, rotating,
			[][]Tile{tiles("1-3"), tiles("2-2"), tiles("3-3"), tiles("1-5")}, 0, 10, 0},
		{"partnership blocked: the winning pair's last player leads", partnershipOpts, [10]int{0, 1, 2, 3, 0, 1, 2, 3, 2, 3},
			[][]Tile{tiles("1-1"), tiles("6-6"), tiles("2-2"), tiles("5-5")}, 0, 22, 2},
		{"partnership blocked: a pair that never played leads from after the last player", partnershipOpts, [10]int{1, 3, 1, 3, 1, 3, 1, 3, 1, 3},
			[][]Tile{tiles("1-1"), tiles("6-6"), tiles("2-2"), tiles("5-5")}, 0, 22, 0},
		{"block blocked: the seat with fewest pips scores every other seat's pips, exactly", block4, rotating,
			[][]Tile{tiles("1-1"), tiles("1-3"), tiles("1-4", "2-2"), tiles("6-6")}, 0, 25, 0},
		{"block blocked: a tie goes to the first tied seat after the blocker (seat 1 blocked and loses)", block4, rotating,
			[][]Tile{tiles("1-3"), tiles("2-2"), tiles("6-6"), tiles("5-5")}, 0, 26, 0},
		{"block blocked: a tie goes to the first tied seat after the blocker (seat 3 before seat 1)", block4, rotating,
			[][]Tile{tiles("6-6"), tiles("1-3"), tiles("5-5"), tiles("2-2")}, 3, 26, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := blockedSim(t, c.opts, c.by, c.hands...)
			res, leader := s.Outcome()
			if res.Reason != ReasonBlocked || res.Team != c.wantTeam || res.Points != c.wantPoints || leader != c.wantLeader {
				t.Errorf("Outcome() = %v team %d points %d leader %d, want blocked team %d points %d leader %d",
					res.Reason, res.Team, res.Points, leader, c.wantTeam, c.wantPoints, c.wantLeader)
			}
			if !reflect.DeepEqual(res.Tiles, c.hands) {
				t.Errorf("revealed %v, want %v", res.Tiles, c.hands)
			}
		})
	}
}

func TestDomino(t *testing.T) {
	// Seat 0 led 2-6; seat 1 dominoes with 6-3 on the right.
	plays := []PlayedTile{{Seat: 0, Tile: Tile{2, 6}, End: EndLead}}
	hands := [][]Tile{tiles("5-6"), tiles("3-6"), tiles("0-3", "0-5"), tiles("4-4")}
	cases := []struct {
		name       string
		opts       Options
		wantPoints int
	}{
		{"fiveup: the domino scores every opponent's pips, rounded (27 -> 25)", fiveUp4, 25},
		{"fiveup pairs: the partner's tiles never count (19 -> 20)", fiveUp4Pairs, 20},
		{"partnership: the two opponents' pips, exactly", partnershipOpts, 19},
		{"block: every other seat's pips, exactly", block4, 27},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := NewSim(c.opts, plays, hands, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			s.Advance()
			if s.Turn() != 1 {
				t.Fatalf("turn %d, want 1", s.Turn())
			}
			if _, err := s.Play(Tile{3, 6}, EndRight); err != nil {
				t.Fatal(err)
			}
			if !s.Over() {
				t.Fatal("hand not over after the last tile")
			}
			res, leader := s.Outcome()
			if res.Reason != ReasonDomino || res.Team != 1 || res.Points != c.wantPoints || leader != 1 {
				t.Errorf("Outcome() = %v team %d points %d leader %d, want domino team 1 points %d leader 1",
					res.Reason, res.Team, res.Points, leader, c.wantPoints)
			}
		})
	}
}

func TestLegalMoves(t *testing.T) {
	t.Run("a position holding a tile twice is refused", func(t *testing.T) {
		_, err := NewSim(fiveUp2, []PlayedTile{{0, Tile{3, 5}, EndLead}}, [][]Tile{tiles("1-2"), tiles("3-5", "0-0")}, nil, 1)
		if err == nil {
			t.Fatal("3-5 used twice was accepted")
		}
		_, err = NewSim(fiveUp2, []PlayedTile{{0, Tile{3, 4}, EndLead}}, nil, nil, 0)
		if err == nil {
			t.Fatal("wrong number of hands accepted")
		}
	})
	t.Run("a tile that fits two ends gives two moves", func(t *testing.T) {
		s, err := NewSim(fiveUp2, []PlayedTile{{0, Tile{3, 4}, EndLead}, {1, Tile{4, 5}, EndRight}},
			[][]Tile{tiles("3-5", "0-0"), tiles("1-1")}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := s.AppendLegal(nil)
		want := []Move{{Play, Tile{3, 5}, EndLeft}, {Play, Tile{3, 5}, EndRight}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("AppendLegal = %v, want %v", got, want)
		}
	})
	t.Run("the lead may be any tile", func(t *testing.T) {
		s, _ := NewSim(fiveUp2, nil, [][]Tile{tiles("3-5", "0-0"), tiles("1-1")}, nil, 0)
		if got := s.AppendLegal(nil); len(got) != 2 || got[0].End != EndLead {
			t.Fatalf("AppendLegal = %v", got)
		}
	})
	t.Run("illegal plays say why", func(t *testing.T) {
		s, _ := NewSim(fiveUp2, []PlayedTile{{0, Tile{5, 5}, EndLead}}, [][]Tile{tiles("1-1"), tiles("2-4", "5-1")}, nil, 1)
		for _, c := range []struct {
			t    Tile
			e    End
			want string
		}{
			{Tile{2, 4}, EndRight, "tile 2-4 does not match the right end (5)"},
			{Tile{6, 6}, EndRight, "you do not hold tile 6-6"},
			{Tile{1, 5}, EndUp, "the up end is not open"},
			{Tile{1, 5}, EndLead, "the lead has been played"},
		} {
			_, err := s.Play(c.t, c.e)
			if !errors.Is(err, ErrIllegalMove) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Play(%v, %v) = %v, want %q", c.t, c.e, err, c.want)
			}
		}
	})
	t.Run("a tile or end that does not exist is bad input, not a panic", func(t *testing.T) {
		s, _ := NewSim(fiveUp2, []PlayedTile{{0, Tile{5, 5}, EndLead}}, [][]Tile{tiles("1-1"), tiles("2-4", "5-1")}, nil, 1)
		for _, c := range []struct {
			t Tile
			e End
		}{{Tile{7, 1}, EndRight}, {Tile{1, 9}, EndRight}, {Tile{1, 5}, numEnds}, {Tile{1, 5}, 200}} {
			if _, err := s.Play(c.t, c.e); !errors.Is(err, ErrBadInput) {
				t.Errorf("Play(%v, %v) = %v, want ErrBadInput", c.t, c.e, err)
			}
		}
		if s.HeldCount(1) != 2 || len(s.Layout().Line()) != 1 {
			t.Fatal("a refused play changed the hand")
		}
	})
}

func TestForcedDrawsAndPasses(t *testing.T) {
	t.Run("a seat that cannot play draws until it can", func(t *testing.T) {
		s, err := NewSim(fiveUp2, []PlayedTile{{0, Tile{6, 6}, EndLead}},
			[][]Tile{tiles("1-1", "0-0"), tiles("2-2")}, tiles("2-3", "3-4", "4-6", "0-1"), 0)
		if err != nil {
			t.Fatal(err)
		}
		s.Advance()
		if got := s.ForcedActions(); !reflect.DeepEqual(got, []Forced{{Seat: 1, Drawn: 3}}) {
			t.Fatalf("forced %v, want seat 1 drew 3", got)
		}
		if s.Turn() != 1 || s.Boneyard() != 1 {
			t.Fatalf("turn %d boneyard %d, want 1 and 1", s.Turn(), s.Boneyard())
		}
	})
	t.Run("a seat that cannot play or draw passes", func(t *testing.T) {
		s, err := NewSim(fiveUp2, []PlayedTile{{0, Tile{6, 6}, EndLead}},
			[][]Tile{tiles("1-6", "0-0"), tiles("2-2")}, tiles("2-3"), 0)
		if err != nil {
			t.Fatal(err)
		}
		s.Advance()
		want := []Forced{{Seat: 1, Drawn: 1, Pass: true}}
		if got := s.ForcedActions(); !reflect.DeepEqual(got, want) || s.Turn() != 0 {
			t.Fatalf("forced %v turn %d, want %v and turn 0", got, s.Turn(), want)
		}
	})
}

// seedWhere finds a seed whose first deal satisfies ok.
func seedWhere(t *testing.T, opts Options, ok func(m *Match) bool) *Match {
	t.Helper()
	for s := uint64(0); s < 100000; s++ {
		m := newStarted(t, opts, Seed{s, 1})
		if ok(m) {
			return m
		}
	}
	t.Fatal("no seed found")
	return nil
}

func TestLeads(t *testing.T) {
	t.Run("partnership: the 6-6 holder leads the first hand with the 6-6", func(t *testing.T) {
		for s := uint64(0); s < 50; s++ {
			m := newStarted(t, partnershipOpts, Seed{s, 5})
			holder := -1
			for seat := 0; seat < 4; seat++ {
				if m.hand.held[seat]&(1<<Tile{6, 6}.index()) != 0 {
					holder = seat
				}
			}
			if m.Turn() != holder {
				t.Fatalf("seed %d: turn %d, 6-6 held by %d", s, m.Turn(), holder)
			}
			if got := m.AppendLegal(holder, nil); len(got) != 1 || got[0].Tile != (Tile{6, 6}) {
				t.Fatalf("legal %v, want only the 6-6", got)
			}
			var other Tile
			for _, tl := range m.hand.Held(holder) {
				if tl != (Tile{6, 6}) {
					other = tl
				}
			}
			if err := m.Apply(holder, Move{Kind: Play, Tile: other, End: EndLead}); !errors.Is(err, ErrIllegalMove) {
				t.Fatalf("leading %v: %v, want illegal", other, err)
			}
		}
	})
	t.Run("fiveup: the first leader is drawn at random", func(t *testing.T) {
		seen := map[int]bool{}
		for s := uint64(0); s < 100; s++ {
			seen[newStarted(t, fiveUp4, Seed{s, 9}).hand.leader] = true
		}
		if len(seen) != 4 {
			t.Fatalf("first leaders %v, want all four seats", seen)
		}
	})
	t.Run("later hands are led by the previous hand's winner", func(t *testing.T) {
		for _, c := range configs {
			m := newStarted(t, c.opts, Seed{3, 3})
			var buf [32]Move
			r := newRand(3)
			for m.Status() == StatusPlaying && m.handNo < 4 {
				before := m.handNo
				seat, mv := randomMove(m, r, buf[:])
				if err := m.Apply(seat, mv); err != nil {
					t.Fatal(err)
				}
				if m.handNo != before && m.status == StatusPlaying {
					// The hand-end event precedes the deal; the leader is
					// the one the outcome named.
					var end, deal Event
					for _, e := range m.log {
						if e.Type == EventHandEnd && e.Hand == before {
							end = e
						}
						if e.Type == EventDeal && e.Hand == m.handNo {
							deal = e
						}
					}
					if end.Result.Reason == ReasonDomino && deal.Leader != lastPlayerOf(m, before) {
						t.Fatalf("%s: domino by %d, next leader %d", c.name, lastPlayerOf(m, before), deal.Leader)
					}
				}
			}
		}
	})
}

func lastPlayerOf(m *Match, hand int) int {
	seat := -1
	for _, e := range m.log {
		if e.Hand == hand && e.Type == EventPlay {
			seat = e.Seat
		}
	}
	return seat
}

func TestRedealPhase(t *testing.T) {
	m := seedWhere(t, Options{Variant: FiveUp, Players: 2, Target: 250, Redeal: true}, func(m *Match) bool {
		return m.Phase() == PhaseConfirm
	})
	asked := m.ToAct()
	if len(asked) == 0 || m.Turn() != -1 {
		t.Fatalf("confirm phase: asked %v turn %d", asked, m.Turn())
	}
	seat := asked[0]
	if n := len(m.hand.Held(seat)); n != 7 {
		t.Fatalf("held %d", n)
	}
	other := 1 - seat
	if !m.Confirming(seat) || (m.Confirming(other) && len(asked) == 1) {
		t.Fatal("Confirming disagrees with ToAct")
	}
	leader := m.hand.leader
	if err := m.Apply(leader, Move{Kind: Play, Tile: m.hand.Held(leader)[0], End: EndLead}); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("play during confirm: %v, want not your turn", err)
	}
	if len(asked) == 1 {
		if err := m.Apply(other, Move{Kind: Keep}); !errors.Is(err, ErrNotYourTurn) {
			t.Fatalf("keep by a seat not asked: %v", err)
		}
	}
	before := Encode(m)
	if err := m.Apply(seat, Move{Kind: Redeal}); err != nil {
		t.Fatal(err)
	}
	if m.handNo != 1 || m.hand.leader != leader || len(m.records[0].Deals) != 2 {
		t.Fatalf("redeal: hand %d leader %d deals %d", m.handNo, m.hand.leader, len(m.records[0].Deals))
	}
	last := m.log[len(m.log)-2:]
	if last[0].Type != EventRedeal || last[0].Seat != seat || last[1].Type != EventDeal || last[1].Leader != leader || last[1].Hand != 1 {
		t.Fatalf("log after redeal: %+v", last)
	}
	if string(before) == string(Encode(m)) {
		t.Fatal("redeal changed nothing")
	}
	// Answer keep for everyone asked until play starts.
	for m.Phase() == PhaseConfirm {
		if err := m.Apply(m.ToAct()[0], Move{Kind: Keep}); err != nil {
			t.Fatal(err)
		}
	}
	if m.Turn() != leader {
		t.Fatalf("after keep, turn %d, want leader %d", m.Turn(), leader)
	}
	if err := m.Apply(leader, Move{Kind: Keep}); !errors.Is(err, ErrIllegalMove) {
		t.Fatalf("keep outside confirm: %v, want illegal", err)
	}
	t.Run("no confirm phase without the redeal option", func(t *testing.T) {
		opts := Options{Variant: FiveUp, Players: 2, Target: 250}
		for s := uint64(0); s < 2000; s++ {
			if m := newStarted(t, opts, Seed{s, 1}); m.Phase() != PhasePlay {
				t.Fatalf("seed %d: phase %v", s, m.Phase())
			}
		}
	})
}

func TestMatchEnd(t *testing.T) {
	t.Run("a count reaching the target ends the hand and the match at once", func(t *testing.T) {
		opts := Options{Variant: FiveUp, Players: 3, Target: 5}
		m := seedWhere(t, opts, func(m *Match) bool {
			for _, tl := range m.hand.Held(m.Turn()) {
				if tl.Pips()%5 == 0 && tl.Pips() > 0 {
					return true
				}
			}
			return false
		})
		leader := m.Turn()
		var lead Tile
		for _, tl := range m.hand.Held(leader) {
			if tl.Pips()%5 == 0 && tl.Pips() > 0 {
				lead = tl
			}
		}
		if err := m.Apply(leader, Move{Kind: Play, Tile: lead, End: EndLead}); err != nil {
			t.Fatal(err)
		}
		if m.Status() != StatusFinished || m.Winner() != leader || m.Phase() != PhaseOver {
			t.Fatalf("status %v winner %d phase %v", m.Status(), m.Winner(), m.Phase())
		}
		if m.result.Reason != ReasonTarget || m.result.Team != -1 || m.result.Points != 0 || len(m.result.Tiles[leader]) != 6 {
			t.Fatalf("result %+v", m.result)
		}
		if m.scores[leader] != lead.Pips() {
			t.Fatalf("scores %v", m.scores)
		}
		if err := m.Apply(m.hand.turn, Move{Kind: Play}); !errors.Is(err, ErrNotYourTurn) {
			t.Fatalf("move after the end: %v", err)
		}
	})
	t.Run("a domino whose count reaches the target wins by the count alone", func(t *testing.T) {
		m := newStarted(t, Options{Variant: FiveUp, Players: 2, Target: 20}, Seed{1, 1})
		s, err := NewSim(m.opts, []PlayedTile{{0, Tile{5, 5}, EndLead}}, [][]Tile{tiles("0-1"), tiles("5-0", "6-6")}, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		m.hand = *s
		m.phase = PhasePlay
		m.scores = []int{0, 15}
		// Seat 1 plays 5-0: count 10 + 0 = 10, scores 10 -> 25 >= 20.
		if err := m.Apply(1, Move{Kind: Play, Tile: Tile{0, 5}, End: EndRight}); err != nil {
			t.Fatal(err)
		}
		if m.Winner() != 1 || m.scores[1] != 25 || m.result.Reason != ReasonTarget {
			t.Fatalf("winner %d scores %v result %+v", m.Winner(), m.scores, m.result)
		}
	})
	t.Run("hand-end points reaching the target end the match", func(t *testing.T) {
		m := newStarted(t, Options{Variant: FiveUp, Players: 2, Target: 20}, Seed{1, 1})
		s, _ := NewSim(m.opts, []PlayedTile{{0, Tile{1, 2}, EndLead}}, [][]Tile{tiles("6-6", "5-5"), tiles("2-3")}, nil, 1)
		m.hand, m.phase, m.scores = *s, PhasePlay, []int{0, 0}
		if err := m.Apply(1, Move{Kind: Play, Tile: Tile{2, 3}, End: EndRight}); err != nil {
			t.Fatal(err)
		}
		// count 1 + 3 = 4 scores nothing; domino scores 22 -> 20.
		if m.Winner() != 1 || m.scores[1] != 20 || m.result.Reason != ReasonDomino || m.result.Points != 20 {
			t.Fatalf("winner %d scores %v result %+v", m.Winner(), m.scores, m.result)
		}
	})
}

func TestBlock(t *testing.T) {
	block2 := block4
	block2.Players = 2
	t.Run("the tiles not dealt stay out of play: a seat that cannot play passes", func(t *testing.T) {
		m := newStarted(t, block2, Seed{5, 5})
		if b := m.View(0).Hand.Boneyard; b != 0 {
			t.Fatalf("boneyard %d, want 0 (14 tiles out of play)", b)
		}
		s, err := NewSim(block2, []PlayedTile{{0, Tile{6, 6}, EndLead}}, [][]Tile{tiles("6-5", "0-0"), tiles("1-2")},
			tiles("6-1", "6-2"), 0)
		if err != nil {
			t.Fatal(err)
		}
		s.Advance()
		if f := s.ForcedActions(); len(f) != 1 || f[0] != (Forced{Seat: 1, Pass: true}) || s.Turn() != 0 || s.HeldCount(1) != 1 {
			t.Fatalf("forced %v, turn %d, seat 1 holds %d; want seat 1 to pass without drawing", f, s.Turn(), s.HeldCount(1))
		}
	})
	t.Run("the first leader is drawn at random and leads any tile", func(t *testing.T) {
		seen := map[int]bool{}
		for s := uint64(0); s < 64; s++ {
			m := newStarted(t, block4, Seed{s, 1})
			seen[m.Turn()] = true
			if n := len(m.AppendLegal(m.Turn(), nil)); n != 7 {
				t.Fatalf("the leader may play %d tiles, want all 7", n)
			}
		}
		if len(seen) != 4 {
			t.Fatalf("first leaders %v, want all four seats", seen)
		}
	})
	t.Run("options: 2-4 players alone, no redeal, to 100", func(t *testing.T) {
		if d := DefaultOptions(Block); d != (Options{Variant: Block, Players: 4, Target: 100}) {
			t.Fatalf("defaults %+v", d)
		}
		for _, o := range []Options{{Variant: Block, Players: 4, Pairs: true, Target: 100},
			{Variant: Block, Players: 3, Redeal: true, Target: 100}, {Variant: Block, Players: 5, Target: 100},
			{Variant: Block, Players: 1, Target: 100}} {
			if err := o.Validate(); err == nil {
				t.Errorf("%+v accepted", o)
			}
		}
	})
	t.Run("no count: the board has none and plays score nothing", func(t *testing.T) {
		m := newStarted(t, block4, Seed{2, 2})
		if err := m.Apply(m.Turn(), m.AppendLegal(m.Turn(), nil)[0]); err != nil {
			t.Fatal(err)
		}
		v := m.View(Spectator)
		if v.Hand.Board.Count != nil || v.Hand.Board.Spinner != nil || slices.Max(v.Scores) != 0 {
			t.Fatalf("count %v spinner %v scores %v", v.Hand.Board.Count, v.Hand.Board.Spinner, v.Scores)
		}
	})
}

func TestHolds(t *testing.T) {
	m := newStarted(t, fiveUp4, Seed{8, 8})
	for seat := 0; seat < 4; seat++ {
		held := m.View(seat).You.Tiles
		for _, tl := range held {
			if !m.Holds(seat, tl) || !m.Holds(seat, Tile{tl[1], tl[0]}) {
				t.Fatalf("seat %d holds %v but Holds says no", seat, tl)
			}
			if m.Holds((seat+1)%4, tl) {
				t.Fatalf("seat %d does not hold %v but Holds says yes", (seat+1)%4, tl)
			}
		}
	}
	if m.Holds(0, Tile{7, 1}) || m.Holds(9, Tile{1, 1}) || m.Holds(-1, Tile{1, 1}) {
		t.Fatal("Holds is true for a tile or seat that does not exist")
	}
}
