package engine

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// soak plays the property test in full: go test ./engine -soak.
var soak = flag.Bool("soak", false, "play 10,000 random matches per table configuration (default 500; -short 200)")

// propertyMatches is how many seeded random matches each configuration
// plays in the property test: 10,000 with -soak, 500 by default, 200 with
// -short.
func propertyMatches() int {
	switch {
	case *soak:
		return 10000
	case testing.Short():
		return 200
	}
	return 500
}

// TestPropertiesRandomMatches plays many seeded random matches in every
// configuration and checks the invariants after every step.
func TestPropertiesRandomMatches(t *testing.T) {
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for s := 0; s < propertyMatches(); s++ {
				checkMatch(t, c.opts, uint64(s))
				if t.Failed() {
					t.Fatalf("seed %d", s)
				}
			}
		})
	}
}

func checkMatch(t *testing.T, opts Options, s uint64) {
	m := newStarted(t, opts, Seed{s, s * 31})
	r := rand.New(rand.NewPCG(s, 99))
	logSeen := 0
	playOut(t, m, r, func(seat int, mv Move) {
		checkTiles(t, m)
		checkLogStep(t, m, logSeen)
		logSeen = len(m.log)
		if mv.Kind == Play {
			checkLegalIsMembership(t, m)
			// Every forced draw happens only when the drawer cannot play:
			// checked on a copy of the hand that plays the same move.
			h := m.hand
			if _, err := h.Play(mv.Tile, mv.End); err != nil {
				t.Fatalf("copy refused %v: %v", mv, err)
			}
			before := h
			h.Advance()
			for _, f := range h.ForcedActions() {
				if before.legalMask(f.Seat) != 0 {
					t.Fatalf("seat %d drew or passed holding a playable tile", f.Seat)
				}
			}
		}
		// The JSON of every view is checked at the start of every hand
		// (and at the end); the structure at every step.
		checkViews(t, m, len(m.log) > 0 && m.log[len(m.log)-1].Type == EventDeal)
	})
	checkTiles(t, m)
	checkLogStep(t, m, logSeen)
	checkViews(t, m, true)
	checkEnd(t, m)
	checkReplay(t, m)
}

// checkTiles: every tile is in exactly one place (a hand, the boneyard, the
// layout), and the count equals an independent recomputation.
func checkTiles(t *testing.T, m *Match) {
	h := &m.hand
	var seen uint32
	n := 0
	add := func(ti int) {
		if seen&(1<<ti) != 0 {
			t.Fatalf("tile %v twice", tileOf[ti])
		}
		seen |= 1 << ti
		n++
	}
	for seat := 0; seat < h.n; seat++ {
		for mm := h.held[seat]; mm != 0; mm &= mm - 1 {
			add(bits.TrailingZeros32(mm))
		}
	}
	for _, ti := range h.bone[h.boneTop:h.boneEnd] {
		add(int(ti))
	}
	if !m.opts.Rules().Draw {
		// The tiles not dealt are out of play, and nothing is ever drawn.
		if h.Boneyard() != 0 {
			t.Fatalf("a rule set without drawing has a boneyard of %d", h.Boneyard())
		}
		for _, ti := range h.bone[7*h.n : NumTiles] {
			add(int(ti))
		}
	}
	l := &h.layout
	board := append(l.Line(), append(l.Arm(EndUp), l.Arm(EndDown)...)...)
	for _, tl := range board {
		add(tl.index())
	}
	if n != NumTiles {
		t.Fatalf("%d tiles accounted for, want 28", n)
	}
	if m.opts.Rules().Counts {
		if got, want := l.Count(), recount(l.Line(), l.Spinner(), l.Arm(EndUp), l.Arm(EndDown)); got != want {
			t.Fatalf("Count() = %d, recomputed %d", got, want)
		}
	}
	for team, sc := range m.scores {
		if m.opts.Rules().RoundToFive && sc%5 != 0 {
			t.Fatalf("team %d score %d is not a multiple of 5", team, sc)
		}
	}
}

// recount computes the count from the drawn layout alone, the way a player
// at the table would.
func recount(line []Tile, spinner int, up, down []Tile) int {
	if len(line) == 0 {
		return 0
	}
	if len(line) == 1 {
		return int(line[0][0] + line[0][1])
	}
	half := func(t Tile, outer uint8) int {
		if t[0] == t[1] {
			return int(t[0]) * 2
		}
		return int(outer)
	}
	c := half(line[0], line[0][0]) + half(line[len(line)-1], line[len(line)-1][1])
	for _, arm := range [][]Tile{up, down} {
		if len(arm) > 0 {
			c += half(arm[len(arm)-1], arm[len(arm)-1][1])
		}
	}
	_ = spinner
	return c
}

// checkLogStep checks the events since the last step: seq increases by one;
// turns pass in seat order; only the seat whose turn it was plays.
func checkLogStep(t *testing.T, m *Match, from int) {
	for i := from; i < len(m.log); i++ {
		e := m.log[i]
		if e.Seq != i+1 {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
	// Turn order within each hand: plays and passes go seat after seat.
	prev, hand := -1, 0
	for _, e := range m.log {
		switch e.Type {
		case EventDeal:
			prev, hand = e.Leader-1, e.Hand
			if prev < 0 {
				prev += m.opts.Players
			}
		case EventPlay, EventPass, EventDraw:
			if e.Hand != hand {
				t.Fatalf("event of hand %d in hand %d", e.Hand, hand)
			}
			if want := (prev + 1) % m.opts.Players; e.Seat != want {
				t.Fatalf("seq %d: seat %d acted, want %d", e.Seq, e.Seat, want)
			}
			if e.Type != EventDraw {
				prev = e.Seat
			} else {
				prev = e.Seat - 1 // the same seat plays or passes next
				if prev < 0 {
					prev += m.opts.Players
				}
			}
		}
	}
}

// checkViews: no view holds a tile of another seat's hand or of the
// boneyard, nor any secret.
func checkViews(t *testing.T, m *Match, withJSON bool) {
	for seat := Spectator; seat < m.opts.Players; seat++ {
		v := m.View(seat)
		hidden := uint32(0)
		for other := 0; other < m.opts.Players; other++ {
			if other != seat {
				hidden |= m.hand.held[other]
			}
		}
		for _, ti := range m.hand.bone[m.hand.boneTop:m.hand.boneEnd] {
			hidden |= 1 << ti
		}
		if m.status == StatusFinished {
			hidden = 0 // the last hand's tiles are revealed at the end
		}
		if v.You != nil {
			for _, tl := range v.You.Tiles {
				if hidden&(1<<tl.index()) != 0 {
					t.Fatalf("seat %d sees hidden tile %v", seat, tl)
				}
			}
			for _, lm := range v.You.Legal {
				if hidden&(1<<lm.Tile.index()) != 0 {
					t.Fatalf("seat %d is offered hidden tile %v", seat, lm.Tile)
				}
			}
		}
		// Tiles of the current hand appear in a view only on the board, in
		// the seat's own hand, or in the previous hand's reveal.
		if withJSON {
			js, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(js, []byte("AA")) || strings.Contains(string(js), "seed") || strings.Contains(string(js), "oken") {
				t.Fatalf("view carries a secret: %s", js)
			}
		}
		if v.Hand != nil {
			for _, tl := range v.Hand.Board.Line {
				if hidden&(1<<tl.index()) != 0 {
					t.Fatalf("board shows hidden tile %v", tl)
				}
			}
		}
		for _, e := range v.Log {
			if e.Hand == m.handNo && e.Type == EventPlay && hidden&(1<<e.Tile.index()) != 0 {
				t.Fatalf("log shows hidden tile %v", e.Tile)
			}
			if e.Hand == m.handNo && e.Type == EventHandEnd && m.status == StatusPlaying {
				t.Fatalf("hand-end of the current hand while it is played")
			}
		}
	}
}

// checkEnd: the match ended exactly when a team reached the target.
func checkEnd(t *testing.T, m *Match) {
	reached := -1
	for team, sc := range m.scores {
		if sc >= m.opts.Target {
			if reached >= 0 {
				t.Fatalf("two teams past the target: %v", m.scores)
			}
			reached = team
		}
	}
	if reached < 0 || m.winner != reached {
		t.Fatalf("winner %d, scores %v, target %d", m.winner, m.scores, m.opts.Target)
	}
	// Before the last hand-end or play, nobody had reached it: replay the
	// score from the log.
	run := make([]int, len(m.scores))
	for i, e := range m.log {
		for team, sc := range run {
			if sc >= m.opts.Target && i < len(m.log)-2 {
				t.Fatalf("team %d reached %d before the match ended (seq %d)", team, sc, e.Seq)
			}
		}
		switch {
		case e.Type == EventPlay:
			run[m.opts.TeamOf(e.Seat)] += e.Points
		case e.Type == EventHandEnd && e.Result.Team >= 0:
			run[e.Result.Team] += e.Result.Points
		}
	}
	if !reflect.DeepEqual(run, m.scores) {
		t.Fatalf("log adds up to %v, scores are %v", run, m.scores)
	}
	if last := m.log[len(m.log)-1]; last.Type != EventMatchEnd || last.Team != m.winner {
		t.Fatalf("last event %+v", last)
	}
}

// checkReplay: replaying the records gives an identical match, and the
// encoding round-trips.
func checkReplay(t *testing.T, m *Match) {
	r, err := Replay(m.opts, m.seats, m.seed, m.firstLeader, m.records)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if !reflect.DeepEqual(r, m) {
		t.Fatalf("replayed match differs")
	}
	full, err := DecodeFull(Encode(m))
	if err != nil {
		t.Fatalf("full decode: %v", err)
	}
	if !reflect.DeepEqual(full, m) {
		t.Fatalf("fully decoded match differs")
	}
	d, err := Decode(Encode(m))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	checkResumed(t, m, d)
}

// checkResumed: d, decoded from m's checkpoint, is m as far as anyone can
// tell: the same encoding, the same view for every seat and for a
// spectator, the same seeds for the computer players, and a log that is
// the end of m's.
func checkResumed(t *testing.T, m, d *Match) {
	t.Helper()
	if !bytes.Equal(Encode(d), Encode(m)) {
		t.Fatalf("re-encoding differs")
	}
	if d.Seq() != m.Seq() || !slices.Equal(d.ToAct(), m.ToAct()) || d.Status() != m.Status() || !slices.Equal(d.scores, m.scores) {
		t.Fatalf("resumed match differs: seq %d/%d, to act %v/%v, status %v/%v, scores %v/%v",
			d.Seq(), m.Seq(), d.ToAct(), m.ToAct(), d.Status(), m.Status(), d.scores, m.scores)
	}
	if !reflect.DeepEqual(d.Sheet(), m.Sheet()) {
		t.Fatalf("resumed score sheet %v, the match's %v", d.Sheet(), m.Sheet())
	}
	if len(d.log) > len(m.log) || !reflect.DeepEqual(d.log, m.log[len(m.log)-len(d.log):]) {
		t.Fatalf("resumed log is not the end of the match's")
	}
	for seat := -1; seat < m.opts.Players; seat++ {
		a, _ := json.Marshal(m.View(seat))
		b, _ := json.Marshal(d.View(seat))
		if !bytes.Equal(a, b) {
			t.Fatalf("seat %d's view differs:\n%s\n%s", seat, a, b)
		}
		if seat >= 0 && m.BotSeed(seat) != d.BotSeed(seat) {
			t.Fatalf("seat %d's bot seed differs", seat)
		}
	}
}

// checkLegalIsMembership: the check a play goes through (legalIndex)
// accepts exactly the moves of the legal list, either way round.
func checkLegalIsMembership(t *testing.T, m *Match) {
	legal := m.hand.AppendLegal(nil)
	for ti := 0; ti < NumTiles; ti++ {
		for e := EndLead; e < numEnds; e++ {
			in := false
			for _, mv := range legal {
				in = in || mv.Tile == tileOf[ti] && mv.End == e
			}
			for _, tl := range []Tile{tileOf[ti], tileOf[ti].Flip()} {
				if got := m.hand.legalIndex(tl[0], tl[1], e) >= 0; got != in {
					t.Fatalf("legalIndex(%v, %v) says %v, the legal list %v", tl, e, got, in)
				}
			}
		}
	}
}
