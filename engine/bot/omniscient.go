package bot

import (
	"math/rand/v2"

	"tessera/engine"
)

// Omniscient is a yardstick for the arena only (never offered by the API
// or the page): hard's search in the one world that is true, hands given
// by the caller (the arena reads them from the match), only the
// boneyard's order unknown. The gap between it and hard is what reading
// the hidden tiles better could win at most (docs/bots.md, "expert").
func Omniscient(v *engine.View, seed uint64, hands [][]engine.Tile) (engine.Move, bool) {
	p, legal, mv, ok := searchable(v, seed)
	if p == nil {
		return mv, ok
	}
	if len(hands) != p.opts.Players {
		return Medium(v, seed)
	}
	r := rand.New(rand.NewPCG(seed, 0x6f6d6e69)) // "omni"
	mv, _ = searchWith(p, legal, HardPlayouts, r, newTrueDealer(p, hands), nil, nil)
	return mv, true
}

// trueDealer deals the true hands every time, and the rest of the unseen
// tiles to the boneyard in a random order.
type trueDealer struct {
	truth [][]engine.Tile
	bone  []engine.Tile
}

func newTrueDealer(p *position, hands [][]engine.Tile) *trueDealer {
	d := &trueDealer{truth: hands}
	rest := p.unseen
	for s, h := range hands {
		if s == p.seat {
			continue
		}
		for _, t := range h {
			rest &^= bit(t)
		}
	}
	d.bone = tilesOf(rest)
	return d
}

func (d *trueDealer) sample(r *rand.Rand, hands [][]engine.Tile) []engine.Tile {
	for s := range hands {
		hands[s] = append(hands[s][:0], d.truth[s]...)
	}
	r.Shuffle(len(d.bone), func(i, j int) { d.bone[i], d.bone[j] = d.bone[j], d.bone[i] })
	return d.bone
}
