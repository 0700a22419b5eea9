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
