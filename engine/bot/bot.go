package bot

import "tessera/engine"

// Player chooses a move for the seat whose view this is; false when it has
// nothing to do. Its only inputs are that seat's view and the seed, and the
// same inputs always give the same move.
type Player func(v *engine.View, seed uint64) (engine.Move, bool)

// Levels returns the computer players by level name: "easy", "medium" and
// "hard". The map is new on every call.
func Levels() map[string]Player {
	return map[string]Player{
		"easy":   engine.EasyMove,
		"medium": Medium,
		"hard":   Hard,
	}
}

// Tables returns the table configurations the levels are measured in, by
// name: the arena (cmd/arena) plays them and this package's property tests
// run over every one. The map is new on every call.
func Tables() map[string]engine.Options {
	return map[string]engine.Options{
		"fiveup2":      {Variant: engine.FiveUp, Players: 2, Target: 250, Redeal: true},
		"fiveup3":      {Variant: engine.FiveUp, Players: 3, Target: 250, Redeal: true},
		"fiveup4":      {Variant: engine.FiveUp, Players: 4, Target: 250, Redeal: true},
		"fiveup4pairs": {Variant: engine.FiveUp, Players: 4, Pairs: true, Target: 250, Redeal: true},
		"partnership":  engine.DefaultOptions(engine.Partnership),
	}
}
