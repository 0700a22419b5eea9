package bot

import "tessera/engine"

// Player chooses a move for the seat whose view this is; false when it has
// nothing to do. Its only inputs are that seat's view and the seed, and the
// same inputs always give the same move.
type Player func(v *engine.View, seed uint64) (engine.Move, bool)

// levels are the computer players the service offers, weakest first.
var levels = []struct {
	name   string
	player Player
}{{"easy", Easy}, {"medium", Medium}, {"hard", Hard}, {"expert", Expert}}

// Levels returns the computer players by level name: "easy", "medium",
// "hard" and "expert". The map is new on every call.
func Levels() map[string]Player {
	out := make(map[string]Player, len(levels))
	for _, l := range levels {
		out[l.name] = l.player
	}
	return out
}

// LevelNames lists the level names of Levels, weakest first.
func LevelNames() []string {
	out := make([]string, len(levels))
	for i, l := range levels {
		out[i] = l.name
	}
	return out
}

// Tables returns the table configurations the levels are measured in, by
// name: the arena (cmd/arena) plays them and this package's property tests
// run over every one. The map is new on every call.
func Tables() map[string]engine.Options {
	out := map[string]engine.Options{}
	for _, t := range engine.Tables() {
		out[t.Name] = t.Options
	}
	return out
}
