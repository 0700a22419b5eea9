package engine

import (
	"fmt"
	"math/bits"
)

// MoveKind is what a move does.
type MoveKind uint8

const (
	Play   MoveKind = iota // attach a tile at an end
	Redeal                 // ask for a redeal (phase confirm)
	Keep                   // keep the deal (phase confirm)
	Away                   // let the computer play for me (any time while playing)
	Back                   // I play again
)

// Move is a seat's choice. Tile and End matter only for Play.
type Move struct {
	Kind MoveKind
	Tile Tile
	End  End
}

// Phase is the state of a hand.
type Phase uint8

const (
	PhaseConfirm Phase = iota // seats holding 4+ doubles are asked redeal or keep
	PhasePlay
	PhaseOver // the match has ended
)

// Forced is a draw or pass the game made for a seat after a play.
type Forced struct {
	Seat  int
	Drawn int  // tiles drawn (0 for a pure pass)
	Pass  bool // the seat passed (after drawing, if it drew)
}

// Sim is one hand being played: the layout, every seat's tiles, the
// boneyard, whose turn it is. It holds no log and allocates nothing while
// playing, so it serves both the match and computer players' playouts.
type Sim struct {
	opts    Options
	rules   *RuleSet
	n       int
	held    [4]uint32
	bone    [NumTiles]uint8
	boneTop int // next tile to draw is bone[boneTop]
	boneEnd int
	layout  Layout
	turn    int
	leader  int
	// lastPlayer made the hand's last play; teamLast[t] is the last seat of
	// team t that played (-1 when none).
	lastPlayer int
	teamLast   [4]int
	mustLead   Tile // partnership first hand: the 6-6; else {7,7} (none)
	over       bool
	blocked    bool
	forced     [2 * 4]Forced
	nForced    int
}

var noTile = Tile{7, 7}

// deal sets up a hand from a shuffled order: seat s takes order[7s:7s+7],
// the rest is the boneyard in order.
func (s *Sim) deal(opts Options, order *[NumTiles]uint8, leader int) {
	// Zeroed, then set field by field: a Sim{...} literal was built and
	// copied three times (a Sim is about 500 bytes). Zeroing keeps a reused
	// Sim equal to a fresh one, which the checkpoint tests compare.
	*s = Sim{}
	s.rules = opts.Rules()
	s.layout.clear(s.rules.Spinner)
	s.opts, s.n = opts, opts.Players
	s.turn, s.leader, s.lastPlayer = leader, leader, -1
	s.teamLast = [4]int{-1, -1, -1, -1}
	s.mustLead = noTile
	for seat := 0; seat < s.n; seat++ {
		var h uint32
		for _, ti := range order[7*seat : 7*seat+7] {
			h |= 1 << ti
		}
		s.held[seat] = h
	}
	// Without drawing, the tiles not dealt stay out of play: the boneyard
	// is empty.
	s.boneTop = 7 * s.n
	s.boneEnd = NumTiles
	if s.n == 4 || !s.rules.Draw {
		s.boneTop = NumTiles
	}
	s.bone = *order
}

// NewSim builds a hand in progress from a position: the plays so far in
// order (each tile and the end it went to), each seat's tiles, the boneyard
// in drawing order, and the seat to play. Computer players use it to play
// out sampled positions. The position is checked: every tile at most once,
// every play legal on the layout built so far.
func NewSim(opts Options, plays []PlayedTile, hands [][]Tile, boneyard []Tile, turn int) (*Sim, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if len(hands) != opts.Players || turn < 0 || turn >= opts.Players {
		return nil, fmt.Errorf("%w: %d hands and turn %d for %d players", ErrBadInput, len(hands), turn, opts.Players)
	}
	r := opts.Rules()
	s := &Sim{opts: opts, rules: r, n: opts.Players, layout: newLayout(r.Spinner),
		turn: turn, leader: turn, lastPlayer: -1, teamLast: [4]int{-1, -1, -1, -1}, mustLead: noTile}
	var seen uint32
	use := func(t Tile) (int, error) {
		if t[0] > 6 || t[1] > 6 {
			return 0, fmt.Errorf("%w: tile %v", ErrBadInput, t)
		}
		i := t.index()
		if seen&(1<<i) != 0 {
			return 0, fmt.Errorf("%w: tile %v appears twice", ErrBadInput, t)
		}
		seen |= 1 << i
		return i, nil
	}
	for k, p := range plays {
		if _, err := use(p.Tile); err != nil {
			return nil, err
		}
		if k == 0 {
			s.leader = p.Seat
		}
		if !s.layout.fits(p.Tile, p.End) {
			return nil, fmt.Errorf("%w: play %d (%v at %v) does not fit", ErrBadInput, k, p.Tile, p.End)
		}
		s.layout.place(p.Tile.index(), p.End)
		s.lastPlayer = p.Seat
		s.teamLast[opts.TeamOf(p.Seat)] = p.Seat
	}
	for seat, h := range hands {
		for _, t := range h {
			i, err := use(t)
			if err != nil {
				return nil, err
			}
			s.held[seat] |= 1 << i
		}
	}
	s.boneTop = NumTiles - len(boneyard)
	s.boneEnd = NumTiles
	for k, t := range boneyard {
		i, err := use(t)
		if err != nil {
			return nil, err
		}
		s.bone[s.boneTop+k] = uint8(i)
	}
	if !r.Draw {
		s.boneTop = NumTiles // the tiles not dealt are out of play
	}
	return s, nil
}

// PlayedTile is one play of a hand: who played which tile at which end.
type PlayedTile struct {
	Seat int
	Tile Tile
	End  End
}

// Turn is the seat to play.
func (s *Sim) Turn() int { return s.turn }

// Over reports whether the hand has ended (domino or blocked).
func (s *Sim) Over() bool { return s.over }

// Layout returns the layout (read only).
func (s *Sim) Layout() *Layout { return &s.layout }

// Held returns a seat's tiles.
func (s *Sim) Held(seat int) []Tile { return handTiles(s.held[seat]) }

// HeldCount is how many tiles a seat holds.
func (s *Sim) HeldCount(seat int) int { return bits.OnesCount32(s.held[seat]) }

// Boneyard is how many tiles are left to draw.
func (s *Sim) Boneyard() int { return s.boneEnd - s.boneTop }

// ForcedActions lists the draws and passes the last Advance made.
func (s *Sim) ForcedActions() []Forced { return s.forced[:s.nForced] }

// legalMask is the set of the seat's tiles that fit some open end.
func (s *Sim) legalMask(seat int) uint32 {
	if s.layout.Empty() && s.mustLead != noTile {
		return s.held[seat] & (1 << s.mustLead.index())
	}
	return s.held[seat] & s.layout.openMask()
}

// playMove[e][i] is the move that plays tile i at end e. AppendLegal copies
// these whole: building a Move field by field on the stack and then copying
// it made the CPU wait on the narrow stores (a third of a random hand's time).
var playMove [numEnds][NumTiles]Move // filled by tile.go's init, after tileOf

// pairMove[0][k] is the move for bit k of a mask of two ends: tile k at the
// left end for k < 32, tile k-32 at the right end above; pairMove[1] the
// same for the up and down arms. Filled by tile.go's init.
var pairMove [2][64]Move

// AppendLegal appends every legal (tile, end) of the seat to play to dst:
// a tile that fits two ends gives two moves. Moves come end by end (lead,
// left, right, up, down), tiles in set order within an end, written low
// half first.
func (s *Sim) AppendLegal(dst []Move) []Move {
	if s.over {
		return dst
	}
	held := s.legalMask(s.turn)
	if s.layout.Empty() {
		for m := held; m != 0; m &= m - 1 {
			dst = append(dst, playMove[EndLead][bits.TrailingZeros32(m)])
		}
		return dst
	}
	// Two ends in one 64-bit mask, so one loop (and one mispredicted exit)
	// serves both: the main line always, the arms once open.
	l := &s.layout
	m := uint64(held&pipMask[l.endPips[EndLeft]]) | uint64(held&pipMask[l.endPips[EndRight]])<<32
	for ; m != 0; m &= m - 1 {
		dst = append(dst, pairMove[0][bits.TrailingZeros64(m)])
	}
	if up := l.endPips[EndUp]; up >= 0 {
		m = uint64(held&pipMask[up]) | uint64(held&pipMask[l.endPips[EndDown]])<<32
		for ; m != 0; m &= m - 1 {
			dst = append(dst, pairMove[1][bits.TrailingZeros64(m)])
		}
	}
	return dst
}

// whyIllegal explains why (t, e) is not legal for the seat to play.
func (s *Sim) whyIllegal(t Tile, e End) error {
	t = t.Normal()
	switch {
	case s.held[s.turn]&(1<<t.index()) == 0:
		return fmt.Errorf("%w: you do not hold tile %v", ErrIllegalMove, t)
	case s.layout.Empty() && e != EndLead:
		return fmt.Errorf("%w: the layout is empty, so the tile is the lead", ErrIllegalMove)
	case s.layout.Empty():
		return fmt.Errorf("%w: the first hand is led with the %v", ErrIllegalMove, s.mustLead)
	case e == EndLead:
		return fmt.Errorf("%w: the lead has been played; choose an end", ErrIllegalMove)
	case !s.layout.Open(e):
		return fmt.Errorf("%w: the %v end is not open", ErrIllegalMove, e)
	default:
		return fmt.Errorf("%w: tile %v does not match the %v end (%d)", ErrIllegalMove, t, e, s.layout.Pips(e))
	}
}

// Play attaches tile t at end e for the seat to play and returns the points
// the count scored (a rule set that counts: a positive multiple of 5; else 0). If that was
// the seat's last tile the hand is over. Play does not pass the turn on:
// call Advance (the match first checks whether the points reached the
// target).
func (s *Sim) Play(t Tile, e End) (points int, err error) {
	// Legal means in the list AppendLegal makes; legalIndex checks it
	// without building the list, on the halves as bytes. The move is then
	// placed here rather than through a further call (this is the
	// playouts' inner loop; see docs/engine.md).
	i := s.legalIndex(t[0], t[1], e)
	if i < 0 {
		return 0, s.playError(t, e)
	}
	seat := s.turn
	s.held[seat] &^= 1 << i
	s.layout.place(i, e)
	s.lastPlayer = seat
	s.teamLast[s.opts.TeamOf(seat)] = seat
	if s.held[seat] == 0 {
		s.over = true
	}
	return s.lastPoints(), nil
}

// legalIndex is the index in the set of the tile with halves a and b when
// playing it at e is in the seat to play's legal list, else -1: the tile
// is in legalMask and it fits the end, the two conditions AppendLegal
// enumerates.
func (s *Sim) legalIndex(a, b uint8, e End) int {
	if s.over || a > 6 || b > 6 || e >= numEnds {
		return -1
	}
	i := int(tileIndex[a][b])
	if s.legalMask(s.turn)&(1<<i) == 0 || !s.layout.fitsPips(a, b, e) {
		return -1
	}
	return i
}

// playError is why Play refused (t, e).
func (s *Sim) playError(t Tile, e End) error {
	switch {
	case s.over:
		return fmt.Errorf("%w: the hand is over", ErrNotYourTurn)
	case t[0] > 6 || t[1] > 6 || e >= numEnds:
		return fmt.Errorf("%w: no such tile or end", ErrBadInput)
	}
	return s.whyIllegal(t, e)
}

// lastPoints is what the count scores after the last play.
func (s *Sim) lastPoints() int {
	if !s.rules.Counts {
		return 0
	}
	if c := s.layout.count; c > 0 && c%5 == 0 {
		return c
	}
	return 0
}

// Advance passes the turn to the next seat and makes the forced draws and
// passes (RULES.md: a seat that cannot play draws until it can or the
// boneyard is empty, then passes). It stops at the next seat that can play,
// or ends the hand as blocked when nobody can play and nothing can be drawn
// (the passes that would follow are not made).
func (s *Sim) Advance() {
	s.nForced = 0
	if s.over {
		return
	}
	for range s.n {
		if s.turn++; s.turn == s.n {
			s.turn = 0
		}
		if s.legalMask(s.turn) != 0 {
			return
		}
		drawn := 0
		open := s.layout.openMask()
		for s.boneTop < s.boneEnd {
			ti := s.bone[s.boneTop]
			s.boneTop++
			drawn++
			s.held[s.turn] |= 1 << ti
			if open&(1<<ti) != 0 {
				break
			}
		}
		if s.held[s.turn]&open != 0 {
			s.forced[s.nForced] = Forced{Seat: s.turn, Drawn: drawn}
			s.nForced++
			return
		}
		if s.blockedNow() {
			if drawn > 0 {
				s.forced[s.nForced] = Forced{Seat: s.turn, Drawn: drawn}
				s.nForced++
			}
			s.over, s.blocked = true, true
			return
		}
		s.forced[s.nForced] = Forced{Seat: s.turn, Drawn: drawn, Pass: true}
		s.nForced++
	}
	// Unreachable: blockedNow is true when no seat can play.
	s.over, s.blocked = true, true
}

// blockedNow reports that no seat can play and nothing can be drawn.
func (s *Sim) blockedNow() bool {
	if s.boneTop < s.boneEnd {
		return false
	}
	open := s.layout.openMask()
	for seat := 0; seat < s.n; seat++ {
		if s.held[seat]&open != 0 {
			return false
		}
	}
	return true
}
