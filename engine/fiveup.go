package engine

// FiveUp is RULES.md's "fiveup": 2-4 players, alone or (with 4) in pairs, a
// boneyard, a spinner, the count scoring multiples of 5, to 250.
const FiveUp Variant = 1

// fiveUpPools: alone at two, alone at three or four (the others ranked by
// score), in pairs.
var fiveUpPools = []Pool{{Name: "fiveup-duel"}, {Name: "fiveup-multi", ByScore: true}, {Name: "fiveup-pairs"}}

var fiveUp = RuleSet{
	Variant: FiveUp, Name: "fiveup", Title: "Five Up",
	DefaultPlayers: 4, DefaultTarget: 250, DefaultRedeal: true,
	Spinner: true, Counts: true, Draw: true, RoundToFive: true, Clockwise: true,
	Pools: fiveUpPools,
	Pool: func(o Options) *Pool {
		switch {
		case o.Pairs:
			return &fiveUpPools[2]
		case o.Players == 2:
			return &fiveUpPools[0]
		}
		return &fiveUpPools[1]
	},
	validate: func(o Options) string {
		switch {
		case o.Players < 2 || o.Players > 4:
			return "fiveup is played by 2 to 4 players"
		case o.Pairs && o.Players != 4:
			return "pairs need 4 players"
		}
		return ""
	},
	firstLead: randomFirstLead,
	// The seat with the fewest pips wins; seats of different teams tied for
	// fewest: nobody scores.
	blocked: func(s *Sim, res Result) (Result, int) { return lowestSeatWins(s, res, true) },
}
