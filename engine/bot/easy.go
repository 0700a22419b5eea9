package bot

import (
	"math/rand/v2"

	"tessera/engine"
)

// Easy is the simplest computer player, level "easy": it answers a
// redeal question with keep or redeal at random and otherwise plays a move
// drawn uniformly from its legal moves. Its only input is its own seat's
// view; the seed makes it deterministic. It returns false when the seat has
// nothing to do.
func Easy(v *engine.View, seed uint64) (engine.Move, bool) {
	if v.You == nil {
		return engine.Move{}, false
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	if v.You.Confirm {
		if r.IntN(2) == 0 {
			return engine.Move{Kind: engine.Redeal}, true
		}
		return engine.Move{Kind: engine.Keep}, true
	}
	if len(v.You.Legal) == 0 {
		return engine.Move{}, false
	}
	lm := v.You.Legal[r.IntN(len(v.You.Legal))]
	return engine.Move{Kind: engine.Play, Tile: lm.Tile, End: lm.End}, true
}
