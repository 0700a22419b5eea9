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

// handPoints is a hand's points as the rule set scores them.
func (s *Sim) handPoints(pips int) int {
	if s.rules.RoundToFive {
		return roundToFive(pips)
	}
	return pips
}

// Outcome scores a hand that is over (domino or blocked) and names the seat
// that leads the next hand: a domino's player scores every opponent's pips
// and leads; a blocked hand is the rule set's.
func (s *Sim) Outcome() (res Result, nextLeader int) {
	res = Result{Tiles: s.revealed(), Team: -1}
	if !s.blocked {
		res.Reason = ReasonDomino
		res.Team = s.opts.TeamOf(s.lastPlayer)
		res.Points = s.handPoints(s.opponentPips(res.Team))
		return res, s.lastPlayer
	}
	res.Reason = ReasonBlocked
	return s.rules.blocked(s, res)
}
