package engine

import "math/rand/v2"

// EasyMove is the simplest computer player, level "easy": it answers a
// redeal question with keep or redeal at random and otherwise plays a move
// drawn uniformly from its legal moves. Its only input is its own seat's
// view; the seed makes it deterministic. It returns false when the seat has
// nothing to do.
func EasyMove(v *View, seed uint64) (Move, bool) {
	if v.You == nil {
		return Move{}, false
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	if v.You.Confirm {
		if r.IntN(2) == 0 {
			return Move{Kind: Redeal}, true
		}
		return Move{Kind: Keep}, true
	}
	if len(v.You.Legal) == 0 {
		return Move{}, false
	}
	lm := v.You.Legal[r.IntN(len(v.You.Legal))]
	e, _ := ParseEnd(lm.End)
	return Move{Kind: Play, Tile: lm.Tile, End: e}, true
}
