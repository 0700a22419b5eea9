package engine

import (
	"math/bits"
	"time"
)

// View is a match as one seat (or a spectator) may see it: API.md's view,
// field for field. It is built only by Match.View, the one place that
// decides what a seat may know.
type View struct {
	ID      string      `json:"id"`
	Version int64       `json:"version"`
	Variant Variant     `json:"variant"`
	Options ViewOptions `json:"options"`
	Status  Status      `json:"status"`
	Seats   []ViewSeat  `json:"seats"`
	Scores  []int       `json:"scores"`
	Hand    *ViewHand   `json:"hand"`
	// LastHand is the previous hand's final layout, once a later hand has
	// been dealt (an addition to API.md's view: the page shows how a hand
	// ended after the next deal replaced it); null before.
	LastHand *ViewLastHand `json:"lastHand"`
	// Sheet is the score sheet: each team's running total after every hand
	// that has ended, oldest first, [] before the first ends (an addition
	// to API.md's view: the log holds only the last two hands).
	Sheet     [][]int    `json:"sheet"`
	You       *ViewYou   `json:"you"`
	Log       []Event    `json:"log"`
	Winner    *int       `json:"winner"`
	Next      *string    `json:"next"`
	Previous  *string    `json:"previous"`
	Series    ViewSeries `json:"series"`
	UpdatedAt string     `json:"updatedAt"`
}

// ViewOptions always carries all five options.
type ViewOptions struct {
	Players  int  `json:"players"`
	Pairs    bool `json:"pairs"`
	Target   int  `json:"target"`
	Redeal   bool `json:"redeal"`
	MoveTime *int `json:"moveTime"` // seconds, nil without a clock
}

// ViewSeries counts the finished matches of a chain of rematches up to and
// including this one, and each team's wins.
type ViewSeries struct {
	Matches int   `json:"matches"`
	Wins    []int `json:"wins"`
}

// ViewSeat is the public side of a seat.
type ViewSeat struct {
	Seat  int     `json:"seat"`
	Name  *string `json:"name"`
	Team  int     `json:"team"`
	Bot   *string `json:"bot"`
	Taken bool    `json:"taken"`
	Tiles int     `json:"tiles"`
	Away  bool    `json:"away"`
}

// ViewHand is the current hand.
type ViewHand struct {
	Number     int       `json:"number"`
	Phase      Phase     `json:"phase"`
	Leader     int       `json:"leader"`
	Turn       *int      `json:"turn"`
	Boneyard   int       `json:"boneyard"`
	Board      ViewBoard `json:"board"`
	Confirming []int     `json:"confirming"`
	Result     *Result   `json:"result"`
	Deadline   *string   `json:"deadline"`
}

// ViewLastHand is a hand that ended: its number and final layout.
type ViewLastHand struct {
	Number int       `json:"number"`
	Board  ViewBoard `json:"board"`
}

// ViewBoard is the layout.
type ViewBoard struct {
	Line []Tile `json:"line"`
	// Lead is the index in Line of the hand's first tile, nil on an empty
	// layout (an addition to API.md's board).
	Lead    *int      `json:"lead"`
	Spinner *int      `json:"spinner"`
	Up      []Tile    `json:"up"`
	Down    []Tile    `json:"down"`
	Ends    []ViewEnd `json:"ends"`
	Count   *int      `json:"count"`
	// CountTerms are the end values that make Count (Five Up; null in the
	// partnership game), so the page can show "6 + 2 + 1 + 0 + 6 = 15" (an
	// addition to API.md's board).
	CountTerms []int `json:"countTerms"`
}

// ViewEnd is an open end.
type ViewEnd struct {
	End  End `json:"end"`
	Pips int `json:"pips"`
}

// ViewYou is what only the viewing seat sees.
type ViewYou struct {
	Seat    int        `json:"seat"`
	Team    int        `json:"team"`
	Tiles   []Tile     `json:"tiles"`
	Legal   []ViewMove `json:"legal"`
	Confirm bool       `json:"confirm"`
}

// ViewMove is a legal play.
type ViewMove struct {
	Tile Tile `json:"tile"`
	End  End  `json:"end"`
}

// ViewMeta is what the service adds to a view: the game's id, version and
// time of the last change, and what the service keeps beside the rules:
// the clock, the rematches, and when each event happened.
type ViewMeta struct {
	ID        string
	Version   int64
	UpdatedAt time.Time
	MoveTime  int       // seconds a seat has to act; 0: no clock
	Deadline  time.Time // when the seat that must act must have; zero: none
	Next      string    // the rematch's id, "" for none
	Previous  string    // the id of the game this one is the rematch of
	// SeriesMatches and SeriesWins count the finished matches before this
	// one in its chain of rematches (this one is added when finished).
	SeriesMatches int
	SeriesWins    []int
	// EventTimes give events their times: an event with seq s happened at
	// the At of the first entry whose UpTo >= s (oldest first; the service
	// keeps the entries that cover the events a view shows). Events past
	// the last entry have no time.
	EventTimes []EventTime
}

// EventTime is when the request that caused events up to seq UpTo was made.
type EventTime struct {
	UpTo int
	At   time.Time
}

// Spectator is the seat number of a viewer without a seat.
const Spectator = -1

func intPtr(i int) *int { return &i }

// View builds the view for seat (or Spectator). It holds no other seat's
// tiles, no boneyard tile or order, no seed and no token hash.
func (m *Match) View(seat int, meta ViewMeta) *View {
	o := m.opts
	v := &View{
		ID: meta.ID, Version: meta.Version, Variant: o.Variant,
		Options:   ViewOptions{Players: o.Players, Pairs: o.Pairs, Target: o.Target, Redeal: o.Redeal},
		Status:    m.status,
		Seats:     make([]ViewSeat, len(m.seats)),
		Scores:    append([]int{}, m.scores...),
		Log:       timed(m.recentLog(), meta.EventTimes),
		UpdatedAt: meta.UpdatedAt.UTC().Format(time.RFC3339),
		Series:    m.series(meta),
	}
	if meta.MoveTime > 0 {
		v.Options.MoveTime = intPtr(meta.MoveTime)
	}
	if meta.Next != "" {
		v.Next = &meta.Next
	}
	if meta.Previous != "" {
		v.Previous = &meta.Previous
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
		if !meta.Deadline.IsZero() && m.status == StatusPlaying {
			d := meta.Deadline.UTC().Format(time.RFC3339)
			v.Hand.Deadline = &d
		}
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
	var buf [32]Move
	for _, mv := range m.AppendLegal(seat, buf[:0]) {
		y.Legal = append(y.Legal, ViewMove{Tile: mv.Tile, End: mv.End})
	}
	return y
}

// timed gives the events their times (a copy: the match's log has none).
func timed(events []Event, times []EventTime) []Event {
	if len(times) == 0 || len(events) == 0 {
		return events
	}
	out := make([]Event, len(events))
	k := 0
	for i, e := range events {
		for k < len(times) && times[k].UpTo < e.Seq {
			k++
		}
		if k < len(times) {
			e.At = times[k].At
		}
		out[i] = e
	}
	return out
}

// series counts this chain's finished matches, this one included once it
// is finished.
func (m *Match) series(meta ViewMeta) ViewSeries {
	s := ViewSeries{Matches: meta.SeriesMatches, Wins: make([]int, m.opts.Teams())}
	copy(s.Wins, meta.SeriesWins)
	if m.status == StatusFinished && m.winner >= 0 {
		s.Matches++
		s.Wins[m.winner]++
	}
	return s
}
