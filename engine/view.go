package engine

import (
	"math/bits"
)

// View is a match as one seat (or a spectator) may see it: the rules' part
// of API.md's view (the service adds the game's id, version, clock,
// rematch links, series and the events' times; package api writes the
// JSON). It is built only by Match.View, the one place that decides what a
// seat may know.
type View struct {
	Variant Variant
	Options ViewOptions
	Status  Status
	Seats   []ViewSeat
	Scores  []int
	Hand    *ViewHand
	// LastHand is the previous hand's final layout, once a later hand has
	// been dealt (an addition to API.md's view: the page shows how a hand
	// ended after the next deal replaced it); null before.
	LastHand *ViewLastHand
	// Sheet is the score sheet: each team's running total after every hand
	// that has ended, oldest first, [] before the first ends (an addition
	// to API.md's view: the log holds only the last two hands).
	Sheet  [][]int
	You    *ViewYou
	Log    []Event
	Winner *int
}

// ViewOptions are the rule options (the service adds the clock).
type ViewOptions struct {
	Players int
	Pairs   bool
	Target  int
	Redeal  bool
}

// ViewSeat is the public side of a seat.
type ViewSeat struct {
	Seat  int
	Name  *string
	Team  int
	Bot   *string
	Taken bool
	Tiles int
	Away  bool
}

// ViewHand is the current hand.
type ViewHand struct {
	Number     int
	Phase      Phase
	Leader     int
	Turn       *int
	Boneyard   int
	Board      ViewBoard
	Confirming []int
	Result     *Result
}

// ViewLastHand is a hand that ended: its number and final layout.
type ViewLastHand struct {
	Number int
	Board  ViewBoard
}

// ViewBoard is the layout.
type ViewBoard struct {
	Line []Tile
	// Lead is the index in Line of the hand's first tile, nil on an empty
	// layout (an addition to API.md's board).
	Lead    *int
	Spinner *int
	Up      []Tile
	Down    []Tile
	Ends    []ViewEnd
	Count   *int
	// CountTerms are the end values that make Count (Five Up; null in the
	// partnership game), so the page can show "6 + 2 + 1 + 0 + 6 = 15" (an
	// addition to API.md's board).
	CountTerms []int
}

// ViewEnd is an open end.
type ViewEnd struct {
	End  End
	Pips int
}

// ViewYou is what only the viewing seat sees.
type ViewYou struct {
	Seat    int
	Team    int
	Tiles   []Tile
	Legal   []ViewMove
	Confirm bool
	// Answers (an addition to API.md's view) is true while the seat
	// before yours is to play and, whatever tile it plays, you will hold
	// a tile that fits after it (so your turn comes, and its push): see
	// answers.
	Answers bool
}

// ViewMove is a legal play.
type ViewMove struct {
	Tile Tile
	End  End
}

// Spectator is the seat number of a viewer without a seat.
const Spectator = -1

func intPtr(i int) *int { return &i }

// View builds the view for seat (or Spectator). It holds no other seat's
// tiles, no boneyard tile or order, no seed and no token hash.
func (m *Match) View(seat int) *View {
	o := m.opts
	v := &View{
		Variant: o.Variant,
		Options: ViewOptions{Players: o.Players, Pairs: o.Pairs, Target: o.Target, Redeal: o.Redeal},
		Status:  m.status,
		Seats:   make([]ViewSeat, len(m.seats)),
		Scores:  append([]int{}, m.scores...),
		Log:     m.recentLog(),
	}
	for i, s := range m.seats {
		vs := ViewSeat{Seat: i, Team: o.TeamOf(i), Taken: s.Taken, Away: s.Away}
		if s.Taken {
			vs.Name = &m.seats[i].Name
			if s.Bot != "" {
				vs.Bot = &m.seats[i].Bot
			}
			if m.handNo > 0 {
				vs.Tiles = m.hand.HeldCount(i)
			}
		}
		v.Seats[i] = vs
	}
	if m.winner >= 0 {
		v.Winner = intPtr(m.winner)
	}
	v.Sheet = m.Sheet()
	if m.lastLayout != nil {
		v.LastHand = &ViewLastHand{Number: m.lastHandNo, Board: viewBoard(m.lastLayout, m.opts.Rules().Counts)}
	}
	if m.handNo > 0 {
		v.Hand = m.viewHand()
	}
	if seat >= 0 && seat < len(m.seats) {
		v.You = m.viewYou(seat)
	}
	return v
}

// recentLog is the events of the current hand and the hand before it. The
// view shares them with the match (events are never changed once logged);
// the capacity is cut so that nothing can append into the match's log.
func (m *Match) recentLog() []Event {
	i := len(m.log)
	for i > 0 && m.log[i-1].Hand >= m.handNo-1 {
		i--
	}
	if i == len(m.log) {
		return []Event{}
	}
	return m.log[i:len(m.log):len(m.log)]
}

func (m *Match) viewHand() *ViewHand {
	h := &ViewHand{
		Number: m.handNo, Phase: m.phase, Leader: m.hand.leader,
		Boneyard: m.hand.Boneyard(), Confirming: []int{}, Result: m.result,
		Board: viewBoard(&m.hand.layout, m.opts.Rules().Counts),
	}
	if t := m.Turn(); t >= 0 {
		h.Turn = intPtr(t)
	}
	for c := m.confirming; c != 0; c &= c - 1 {
		h.Confirming = append(h.Confirming, bits.TrailingZeros8(c))
	}
	return h
}

// viewBoard is a layout as the view shows it; the count only where the
// rule set counts.
func viewBoard(l *Layout, count bool) ViewBoard {
	b := ViewBoard{Line: l.Line(), Up: l.Arm(EndUp), Down: l.Arm(EndDown), Ends: []ViewEnd{}}
	if ld := l.Lead(); ld >= 0 {
		b.Lead = intPtr(ld)
	}
	if sp := l.Spinner(); sp >= 0 {
		b.Spinner = intPtr(sp)
	}
	for e := EndLeft; e <= EndDown; e++ {
		if l.Open(e) {
			b.Ends = append(b.Ends, ViewEnd{End: e, Pips: l.Pips(e)})
		}
	}
	if count {
		b.Count = intPtr(l.Count())
		b.CountTerms = l.CountTerms()
		if b.CountTerms == nil {
			b.CountTerms = []int{}
		}
	}
	return b
}

func (m *Match) viewYou(seat int) *ViewYou {
	y := &ViewYou{Seat: seat, Team: m.opts.TeamOf(seat), Tiles: []Tile{}, Legal: []ViewMove{},
		Confirm: m.Confirming(seat)}
	if m.handNo == 0 {
		return y
	}
	y.Tiles = m.hand.Held(seat)
	y.Answers = m.answers(seat)
	var buf [32]Move
	for _, mv := range m.AppendLegal(seat, buf[:0]) {
		y.Legal = append(y.Legal, ViewMove{Tile: mv.Tile, End: mv.End})
	}
	return y
}

// answers reports whether, with the seat before seat to play, seat will
// hold a tile that fits whatever tile that seat plays, wherever it fits:
// every tile seat cannot see (neither on the table nor its own) is tried
// at every open end it fits. It reads only the table and seat's own
// tiles, so it tells seat nothing it could not work out itself. False
// when the seat before may go out (one tile left), when seat is away (the
// computer plays for it), before the lead, and outside the play.
func (m *Match) answers(seat int) bool {
	if m.status != StatusPlaying || m.phase != PhasePlay || m.seats[seat].Away {
		return false
	}
	t := m.Turn()
	n := len(m.seats)
	if t < 0 || (t+1)%n != seat || m.hand.HeldCount(t) <= 1 {
		return false
	}
	l := &m.hand.layout
	if l.Empty() {
		return false
	}
	own := m.hand.held[seat]
	seen := own
	for _, tiles := range [][]Tile{l.Line(), l.Arm(EndUp), l.Arm(EndDown)} {
		for _, x := range tiles {
			seen |= 1 << x.index()
		}
	}
	for i := range NumTiles {
		if seen&(1<<i) != 0 {
			continue
		}
		for e := EndLeft; e <= EndDown; e++ {
			if !l.fits(tileOf[i], e) {
				continue
			}
			after := *l
			after.place(i, e)
			if own&after.openMask() == 0 {
				return false
			}
		}
	}
	return true
}
