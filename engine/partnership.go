package engine

// Partnership is RULES.md's "partnership": the Italian block game, 4 in
// pairs, all 28 tiles dealt, the 6-6 opens, to 50.
const Partnership Variant = 2

var partnershipPools = []Pool{{Name: "partnership"}}

var partnership = RuleSet{
	Variant: Partnership, Name: "partnership", Title: "Partnership",
	DefaultPlayers: 4, DefaultPairs: true, DefaultTarget: 50,
	Pools: partnershipPools,
	Pool:  func(Options) *Pool { return &partnershipPools[0] },
	validate: func(o Options) string {
		switch {
		case o.Players != 4 || !o.Pairs:
			return "partnership is played by 4 players in pairs"
		case o.Redeal:
			return "partnership has no redeal"
		}
		return ""
	},
	firstLead: leadSixSix,
	blocked:   blockedPairs,
}

// leadSixSix: the holder of the 6-6 leads it.
func leadSixSix(o Options, order *[NumTiles]uint8, drawn int) (int, Tile) {
	six := Tile{6, 6}
	for i, ti := range order[:7*o.Players] {
		if tileOf[ti] == six {
			return i / 7, six
		}
	}
	return drawn, noTile // the 6-6 was not dealt (never with 4 players)
}

// blockedPairs: the pair with fewer pips scores the other pair's total; on
// equal totals the pair that blocked the game (made the last play) loses.
// The winning pair's last player leads next.
func blockedPairs(s *Sim, res Result) (Result, int) {
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
