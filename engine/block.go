package engine

// Block is the block game of the partnership rule set's seed played by 2 to
// 4 players, each alone: 7 tiles each, the tiles not dealt stay face down
// and out of play, nobody draws, a seat that cannot play passes, no count.
// The first hand's leader is drawn at random and leads any tile; a blocked
// hand goes to the seat with the fewest pips, a tie to the first tied seat
// after the one that blocked the game. Points are exact; to 100.
const Block Variant = 3

var block = RuleSet{
	Variant: Block, Name: "block", Title: "Block",
	DefaultPlayers: 4, DefaultTarget: 100,
	validate: func(o Options) string {
		switch {
		case o.Players < 2 || o.Players > 4:
			return "block is played by 2 to 4 players"
		case o.Pairs:
			return "block is played alone"
		case o.Redeal:
			return "block has no redeal"
		}
		return ""
	},
	firstLead: randomFirstLead,
	blocked:   func(s *Sim, res Result) (Result, int) { return lowestSeatWins(s, res, false) },
}
