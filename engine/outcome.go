package engine

// Reason is why a hand ended.
type Reason uint8

const (
	ReasonDomino  Reason = iota + 1 // a seat played its last tile
	ReasonBlocked                   // nobody could play and nothing could be drawn
	ReasonTarget                    // a count reached the target (Five Up)
)

func (r Reason) String() string {
	switch r {
	case ReasonDomino:
		return "domino"
	case ReasonBlocked:
		return "blocked"
	case ReasonTarget:
		return "target"
	}
	return "none"
}

// Result is how a hand ended, as API.md's hand result.
type Result struct {
	Reason Reason
	Team   int // the team that won the hand, -1 for none
	Points int // hand-end points (0 for ReasonTarget)
	Tiles  [][]Tile
}

// roundToFive rounds to the nearest multiple of 5: a remainder of 1 or 2
// rounds down, 3 or 4 up (12 -> 10, 13 -> 15).
func roundToFive(p int) int { return (p + 2) / 5 * 5 }

// revealed lists every seat's remaining tiles.
func (s *Sim) revealed() [][]Tile {
	t := make([][]Tile, s.n)
	for seat := range t {
		t[seat] = handTiles(s.held[seat])
	}
	return t
}

// opponentPips is the total in the hands of every seat not on team.
func (s *Sim) opponentPips(team int) int {
	p := 0
	for seat := 0; seat < s.n; seat++ {
		if s.opts.TeamOf(seat) != team {
			p += handPips(s.held[seat])
		}
	}
	return p
}

// Outcome scores a hand that is over (domino or blocked) and names the seat
// that leads the next hand.
func (s *Sim) Outcome() (res Result, nextLeader int) {
	res = Result{Tiles: s.revealed(), Team: -1}
	if !s.blocked {
		res.Reason = ReasonDomino
		res.Team = s.opts.TeamOf(s.lastPlayer)
		res.Points = s.opponentPips(res.Team)
		if s.opts.Variant == FiveUp {
			res.Points = roundToFive(res.Points)
		}
		return res, s.lastPlayer
	}
	res.Reason = ReasonBlocked
	if s.opts.Variant == Partnership {
		return s.blockedPartnership(res)
	}
	return s.blockedFiveUp(res)
}

// blockedFiveUp: the seat with the fewest pips wins and its team scores the
// opponents' pips, rounded; a tie between seats that are not partners scores
// nothing and the lead passes to the seat after the previous leader.
func (s *Sim) blockedFiveUp(res Result) (Result, int) {
	least, winner, tie := 1<<30, -1, false
	// Walk in turn order from the seat after the last play, so that when
	// partners tie the first of them in that order wins.
	for k := 1; k <= s.n; k++ {
		seat := (s.lastPlayer + k) % s.n
		p := handPips(s.held[seat])
		switch {
		case p < least:
			least, winner, tie = p, seat, false
		case p == least && s.opts.TeamOf(seat) != s.opts.TeamOf(winner):
			tie = true
		}
	}
	if tie {
		return res, (s.leader + 1) % s.n
	}
	res.Team = s.opts.TeamOf(winner)
	res.Points = roundToFive(s.opponentPips(res.Team))
	return res, winner
}

// blockedPartnership: the pair with fewer pips scores the other pair's total;
// on equal totals the pair that blocked the game (made the last play) loses.
// The winning pair's last player leads next.
func (s *Sim) blockedPartnership(res Result) (Result, int) {
	var pips [2]int
	for seat := 0; seat < s.n; seat++ {
		pips[s.opts.TeamOf(seat)] += handPips(s.held[seat])
	}
	blocker := s.opts.TeamOf(s.lastPlayer)
	switch {
	case pips[0] < pips[1]:
		res.Team = 0
	case pips[1] < pips[0]:
		res.Team = 1
	default:
		res.Team = 1 - blocker
	}
	res.Points = pips[1-res.Team]
	if seat := s.teamLast[res.Team]; seat >= 0 {
		return res, seat
	}
	for k := 1; k <= s.n; k++ {
		if seat := (s.lastPlayer + k) % s.n; s.opts.TeamOf(seat) == res.Team {
			return res, seat
		}
	}
	return res, s.lastPlayer // unreachable: every pair has two seats
}
