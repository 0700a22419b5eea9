package engine

import (
	"fmt"
	"math/bits"
	"slices"
)

// Status is where a match stands.
type Status uint8

const (
	StatusOpen     Status = iota // waiting for seats
	StatusPlaying                // hands are being played
	StatusFinished               // a team reached the target
)

// Seat is one place at the table.
type Seat struct {
	Taken bool
	Name  string
	// Bot is the computer player's level, "" for a person. Who the person
	// is (a seat token) is the service's business, not the rules'.
	Bot string
	// Away is set while the computer plays for the person at this seat
	// (asked, or their time ran out).
	Away bool
}

// HandRecord is what a hand's replay needs: every deal (a redeal adds one)
// with the redeal answers given to it, and every play in order. Forced
// draws and passes follow from these.
type HandRecord struct {
	Deals []DealRecord
	Plays []Choice
	// Changes are the seats that went away or came back during the hand,
	// each after the At-th action of the hand (answers and plays counted
	// together, in order).
	Changes []SeatChange
}

// SeatChange is a seat going away or coming back.
type SeatChange struct {
	At   int
	Seat int
	Kind ChangeKind
}

// ChangeKind is what a SeatChange does.
type ChangeKind uint8

const (
	AwayAsked   ChangeKind = iota // the seat asked the computer to play for it
	AwayTimeout                   // its time ran out
	BackAgain                     // it plays again
)

// DealRecord is one shuffle of the set, in canonical form (each seat's
// seven tiles in set order, seat after seat, then the boneyard in drawing
// order), and the answers to the redeal question it raised.
type DealRecord struct {
	Order   [NumTiles]Tile
	Answers []Answer
}

// Answer is one seat's reply to the redeal question.
type Answer struct {
	Seat   int
	Redeal bool
}

// Choice is one play: a tile (low half first) and the end it went to. The
// seat is whoever's turn it was.
type Choice struct {
	Tile Tile
	End  End
}

// Match is a whole match: seats, scores, the hands played and the one being
// played, and the public log.
type Match struct {
	opts        Options
	seed        Seed
	seats       []Seat
	scores      []int
	status      Status
	winner      int
	firstLeader int

	handNo     int
	hand       Sim
	phase      Phase
	confirming uint8   // bit per seat asked redeal or keep
	result     *Result // the last hand's result once the match is over
	lastPlay   int     // seq of the last play event, 0 for none
	// lastLayout is the previous hand's final layout once a later hand has
	// been dealt (the view's lastHand), lastHandNo its number.
	lastLayout *Layout
	lastHandNo int

	records []HandRecord
	actions int // answers and plays made in the current hand
	log     []Event
	// A match decoded from a checkpoint (format 4) holds the records and
	// the log from the checkpoint's hand on: pastHands hands came before,
	// their records kept as past (their encoding, verbatim, for Encode),
	// and logBase events before the first in log.
	pastHands int
	past      []byte
	logBase   int
	// pastStarts is the scores at the start of each of the pastHands hands
	// (the running totals of the score sheet, View.Sheet).
	pastStarts [][4]int
	// starts is the state at the start of each hand in records (the
	// checkpoint Encode writes).
	starts []handStart
	// feed holds recorded deals during replay; new deals are shuffled from
	// the seed once it is empty.
	feed [][NumTiles]uint8
}

// handStart is what a hand's replay needs besides its record: the scores,
// who was away and the leader when it was dealt, and the events before it.
type handStart struct {
	scores [4]int
	away   uint8
	leader int
	seq    int
}

// NewMatch creates an open match. The seed must be secret and random
// (crypto/rand) in production; tests pass fixed seeds.
func NewMatch(opts Options, seed Seed) (*Match, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	m := &Match{opts: opts, seed: seed, seats: make([]Seat, opts.Players),
		scores: make([]int, opts.Teams()), winner: -1}
	m.firstLeader = seed.firstLeader(opts.Players)
	return m, nil
}

// Options returns the match's options.
func (m *Match) Options() Options { return m.opts }

// Status returns whether the match is open, playing or finished.
func (m *Match) Status() Status { return m.status }

// Winner is the winning team once the match is finished, else -1.
func (m *Match) Winner() int { return m.winner }

// Seat returns a copy of seat i.
func (m *Match) Seat(i int) Seat { return m.seats[i] }

// Scores returns the scores by team.
func (m *Match) Scores() []int { return append([]int(nil), m.scores...) }

// Log returns the public log (shared; do not modify): every event of a
// match played in this process, and of a decoded one the events from the
// start of the hand before the one it was decoded in (at least the current
// and the previous hand's, what a view shows). Seq numbers run over the
// whole match either way (see Seq).
func (m *Match) Log() []Event { return m.log }

// Seq is the number of events logged since the match began: the Seq of
// the last one, 0 for none.
func (m *Match) Seq() int { return m.logBase + len(m.log) }

// Records returns the hands' records (shared; do not modify): every hand's
// for a match played in this process; for a decoded one, those from the
// checkpoint's hand on (DecodeFull has them all).
func (m *Match) Records() []HandRecord { return m.records }

// HandNumber is the current hand's number (1-based), 0 before the first deal.
func (m *Match) HandNumber() int { return m.handNo }

// Phase is the current hand's phase.
func (m *Match) Phase() Phase { return m.phase }

// FreeSeat returns the lowest free seat, or -1 when every seat is taken.
func (m *Match) FreeSeat() int {
	for i, s := range m.seats {
		if !s.Taken {
			return i
		}
	}
	return -1
}

// TakeSeat gives seat i to a person (s.Bot empty) or a computer player
// (s.Bot set). When the last seat is taken the first hand is dealt.
func (m *Match) TakeSeat(i int, s Seat) error {
	if i < 0 || i >= len(m.seats) {
		return fmt.Errorf("%w: seat %d is not at this table", ErrBadInput, i)
	}
	if m.FreeSeat() < 0 {
		return fmt.Errorf("%w: every seat is taken", ErrGameFull)
	}
	if m.seats[i].Taken {
		return fmt.Errorf("%w: seat %d is taken", ErrSeatTaken, i)
	}
	s.Taken = true
	m.seats[i] = s
	if m.FreeSeat() < 0 {
		m.status = StatusPlaying
		m.startHand(m.firstLeader)
	}
	return nil
}

// ToAct lists the seats that must act now: the seat to play, or every seat
// asked redeal or keep. Empty when the match is open or finished.
func (m *Match) ToAct() []int {
	if m.status != StatusPlaying {
		return nil
	}
	if m.phase == PhaseConfirm {
		var out []int
		for c := m.confirming; c != 0; c &= c - 1 {
			out = append(out, bits.TrailingZeros8(c))
		}
		return out
	}
	return []int{m.hand.turn}
}

// Turn is the seat to play, or -1 when nobody is (confirm phase, over).
func (m *Match) Turn() int {
	if m.status != StatusPlaying || m.phase != PhasePlay {
		return -1
	}
	return m.hand.turn
}

// Confirming reports whether seat is asked redeal or keep.
func (m *Match) Confirming(seat int) bool {
	return m.status == StatusPlaying && m.phase == PhaseConfirm && m.confirming&(1<<seat) != 0
}

// Holds reports whether seat holds tile t in the current hand (false for
// a tile that does not exist, a seat outside the table, or before the
// first deal).
func (m *Match) Holds(seat int, t Tile) bool {
	if seat < 0 || seat >= len(m.seats) || m.handNo == 0 || t[0] > 6 || t[1] > 6 {
		return false
	}
	return m.hand.held[seat]&(1<<t.index()) != 0
}

// BotSeed is the seed a computer player at seat uses for its next decision.
func (m *Match) BotSeed(seat int) uint64 { return m.seed.botSeed(m.Seq(), seat) }

// AppendLegal appends the seat's legal plays to dst; nothing when it is not
// that seat's turn to play.
func (m *Match) AppendLegal(seat int, dst []Move) []Move {
	if m.Turn() != seat {
		return dst
	}
	return m.hand.AppendLegal(dst)
}

func (m *Match) emit(e Event) {
	e.Seq = m.Seq() + 1
	e.Hand = m.handNo
	m.log = append(m.log, e)
}

// handStartScores is the scores at the start of hand h (1-based, dealt).
func (m *Match) handStartScores(h int) [4]int {
	if h <= m.pastHands {
		return m.pastStarts[h-1]
	}
	return m.starts[h-m.pastHands-1].scores
}

// Sheet is the score sheet: each team's running total after each hand
// that has ended, oldest first (a hand ends, and the next starts, with
// the same scores).
func (m *Match) Sheet() [][]int {
	teams := m.opts.Teams()
	dealt := m.pastHands + len(m.starts)
	out := make([][]int, 0, dealt)
	for h := 2; h <= dealt; h++ {
		sc := m.handStartScores(h)
		out = append(out, append([]int(nil), sc[:teams]...))
	}
	if m.status == StatusFinished && dealt > 0 {
		out = append(out, append([]int(nil), m.scores...))
	}
	return out
}

// startHand deals hand m.handNo+1 led by leader.
func (m *Match) startHand(leader int) {
	st := handStart{leader: leader, seq: m.Seq()}
	copy(st.scores[:], m.scores)
	for i, s := range m.seats {
		if s.Away {
			st.away |= 1 << i
		}
	}
	m.starts = append(m.starts, st)
	m.handNo++
	m.records = append(m.records, HandRecord{Plays: make([]Choice, 0, NumTiles)})
	m.actions = 0
	m.deal(leader)
}

// deal shuffles (or takes the next recorded deal) and sets up the hand.
func (m *Match) deal(leader int) {
	rec := &m.records[len(m.records)-1]
	var order [NumTiles]uint8
	if len(m.feed) > 0 {
		order, m.feed = m.feed[0], m.feed[1:]
		if len(m.feed) == 0 {
			m.feed = nil
		}
	} else {
		order = m.seed.shuffle(m.handNo, len(rec.Deals))
	}
	canonical(&order, m.opts.Players)
	var d DealRecord
	for i, ti := range order {
		d.Order[i] = tileOf[ti]
	}
	rec.Deals = append(rec.Deals, d)
	mustLead := noTile
	if m.handNo == 1 {
		leader, mustLead = m.opts.Rules().firstLead(m.opts, &order, leader)
	}
	m.hand.deal(m.opts, &order, leader)
	m.hand.mustLead = mustLead
	m.emit(Event{Type: EventDeal, Leader: leader})
	m.phase, m.confirming = PhasePlay, 0
	if m.opts.Redeal {
		for seat := 0; seat < m.opts.Players; seat++ {
			if bits.OnesCount32(m.hand.held[seat]&doubleMask) >= 4 {
				m.confirming |= 1 << seat
			}
		}
		if m.confirming != 0 {
			m.phase = PhaseConfirm
		}
	}
}

// Apply makes seat's move, then every forced draw and pass that follows. It
// changes nothing when it returns an error.
func (m *Match) Apply(seat int, mv Move) error {
	if seat < 0 || seat >= len(m.seats) {
		return fmt.Errorf("%w: seat %d is not at this table", ErrBadInput, seat)
	}
	switch m.status {
	case StatusOpen:
		return fmt.Errorf("%w: the match has not started", ErrNotYourTurn)
	case StatusFinished:
		return fmt.Errorf("%w: the match is over", ErrNotYourTurn)
	}
	switch mv.Kind {
	case Redeal, Keep:
		return m.answer(seat, mv.Kind == Redeal)
	case Play:
		return m.play(seat, mv.Tile, mv.End)
	case Away, Back:
		if m.askedChanges(seat) >= MaxAskedChanges {
			return fmt.Errorf("%w: a seat may go away or come back %d times a hand", ErrLimit, MaxAskedChanges)
		}
		if mv.Kind == Away {
			return m.change(seat, AwayAsked)
		}
		return m.change(seat, BackAgain)
	}
	return fmt.Errorf("%w: unknown move kind %d", ErrBadInput, mv.Kind)
}

func (m *Match) answer(seat int, redeal bool) error {
	if m.phase != PhaseConfirm {
		return fmt.Errorf("%w: nobody is asked about a redeal now", ErrIllegalMove)
	}
	if m.confirming&(1<<seat) == 0 {
		return fmt.Errorf("%w: seat %d is not asked about a redeal", ErrNotYourTurn, seat)
	}
	deals := m.records[len(m.records)-1].Deals
	d := &deals[len(deals)-1]
	d.Answers = append(d.Answers, Answer{Seat: seat, Redeal: redeal})
	m.actions++
	if redeal {
		m.emit(Event{Type: EventRedeal, Seat: seat})
		m.deal(m.hand.leader)
		return nil
	}
	m.emit(Event{Type: EventKeep, Seat: seat})
	m.confirming &^= 1 << seat
	if m.confirming == 0 {
		m.phase = PhasePlay
	}
	return nil
}

func (m *Match) play(seat int, t Tile, e End) error {
	if m.phase == PhaseConfirm {
		return fmt.Errorf("%w: waiting for the redeal answer", ErrNotYourTurn)
	}
	if seat != m.hand.turn {
		return fmt.Errorf("%w: it is seat %d's turn", ErrNotYourTurn, m.hand.turn)
	}
	if t[0] > 6 || t[1] > 6 || e >= numEnds {
		return fmt.Errorf("%w: no such tile or end", ErrBadInput)
	}
	points, err := m.hand.Play(t, e)
	if err != nil {
		return err
	}
	rec := &m.records[len(m.records)-1]
	rec.Plays = append(rec.Plays, Choice{Tile: t.Normal(), End: e})
	m.actions++
	m.emit(Event{Type: EventPlay, Seat: seat, Tile: m.hand.layout.lastLies, End: e, Points: points, Arms: m.hand.layout.armsOpen()})
	m.lastPlay = m.Seq()
	team := m.opts.TeamOf(seat)
	m.scores[team] += points
	if m.scores[team] >= m.opts.Target {
		m.endHand(Result{Reason: ReasonTarget, Team: -1, Tiles: m.hand.revealed()}, team, -1)
		return nil
	}
	if !m.hand.Over() {
		m.hand.Advance()
		for _, f := range m.hand.ForcedActions() {
			if f.Drawn > 0 {
				m.emit(Event{Type: EventDraw, Seat: f.Seat, Count: f.Drawn})
			}
			if f.Pass {
				m.emit(Event{Type: EventPass, Seat: f.Seat})
			}
		}
	}
	if m.hand.Over() {
		res, next := m.hand.Outcome()
		if res.Team >= 0 {
			m.scores[res.Team] += res.Points
		}
		winner := -1
		if res.Team >= 0 && m.scores[res.Team] >= m.opts.Target {
			winner = res.Team
		}
		m.endHand(res, winner, next)
	}
	return nil
}

// endHand logs the hand's result, then ends the match (winner >= 0) or
// deals the next hand led by next.
func (m *Match) endHand(res Result, winner, next int) {
	m.emit(Event{Type: EventHandEnd, Result: &res})
	if winner < 0 {
		final := m.hand.layout
		m.lastLayout, m.lastHandNo = &final, m.handNo
		m.startHand(next)
		return
	}
	m.status, m.winner, m.phase, m.result = StatusFinished, winner, PhaseOver, &res
	m.confirming = 0
	m.emit(Event{Type: EventMatchEnd, Team: winner})
}

// MaxAskedChanges bounds a seat's away and back moves in one hand, so that
// no seat can grow the log (and every view) without end by toggling
// (attack kit D2: 6,000 toggles made a view of 489 KB). A timeout is never
// refused.
const MaxAskedChanges = 6

// askedChanges counts seat's away and back moves in the current hand.
func (m *Match) askedChanges(seat int) int {
	n := 0
	if len(m.records) == 0 {
		return 0
	}
	for _, c := range m.records[len(m.records)-1].Changes {
		if c.Seat == seat && c.Kind != AwayTimeout {
			n++
		}
	}
	return n
}

// Timeout is a person whose time to act ran out (the service keeps the
// clock; the rules only say who may time out): the seat must be one that
// has to act now, a person's, and not away already. It becomes away.
func (m *Match) Timeout(seat int) error {
	if seat < 0 || seat >= len(m.seats) {
		return fmt.Errorf("%w: seat %d is not at this table", ErrBadInput, seat)
	}
	if m.status != StatusPlaying || !slices.Contains(m.ToAct(), seat) {
		return fmt.Errorf("%w: seat %d does not have to act", ErrNotYourTurn, seat)
	}
	return m.change(seat, AwayTimeout)
}

// change makes a person's seat away or back, and records it.
func (m *Match) change(seat int, k ChangeKind) error {
	s := &m.seats[seat]
	switch {
	case s.Bot != "":
		return fmt.Errorf("%w: a computer plays this seat", ErrIllegalMove)
	case k == BackAgain && !s.Away:
		return fmt.Errorf("%w: you are not away", ErrIllegalMove)
	case k != BackAgain && s.Away:
		return fmt.Errorf("%w: you are away already", ErrIllegalMove)
	}
	s.Away = k != BackAgain
	rec := &m.records[len(m.records)-1]
	rec.Changes = append(rec.Changes, SeatChange{At: m.actions, Seat: seat, Kind: k})
	switch k {
	case AwayAsked:
		m.emit(Event{Type: EventAway, Seat: seat, Timeout: false})
	case AwayTimeout:
		m.emit(Event{Type: EventAway, Seat: seat, Timeout: true})
	default:
		m.emit(Event{Type: EventBack, Seat: seat})
	}
	return nil
}

// AllAway reports whether the match has people and every one of them is
// away: then nothing is played for anybody until one comes back.
func (m *Match) AllAway() bool {
	people := 0
	for _, s := range m.seats {
		if s.Bot == "" {
			if !s.Away {
				return false
			}
			people++
		}
	}
	return people > 0
}
