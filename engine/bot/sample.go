package bot

import (
	"math/bits"
	"math/rand/v2"

	"tessera/engine"
)

// boneyardPlace is the place index of the boneyard; seats are 0..3.
const boneyardPlace = 4

// sampler deals the unseen tiles of a position into worlds: every other
// seat gets as many tiles as it holds, the boneyard as many as are left, and
// no seat gets a tile showing a number it is known to lack.
type sampler struct {
	p     *position
	tiles []int   // the unseen tiles
	elig  []uint8 // per tile: a bit per place it may be in
	cap0  [5]int  // tiles each place takes
	order []int   // scratch: tiles in dealing order
	place []int   // scratch: the place each tile of order went to
	bone  []engine.Tile
}

// sampleAttempts is how often a constrained deal is tried before the
// numbers the seats lack are ignored (a dead end is rare: the sampler deals
// the most constrained tiles first).
const sampleAttempts = 32

func newSampler(p *position) *sampler {
	sa := &sampler{p: p}
	for s := 0; s < p.opts.Players; s++ {
		if s != p.seat {
			sa.cap0[s] = p.held[s]
		}
	}
	sa.cap0[boneyardPlace] = p.boneyard
	for m := p.unseen; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		var e uint8
		for q := 0; q <= boneyardPlace; q++ {
			if sa.cap0[q] > 0 && (q == boneyardPlace || p.void[q]&numbers(tileOf[i]) == 0) {
				e |= 1 << q
			}
		}
		sa.tiles = append(sa.tiles, i)
		sa.elig = append(sa.elig, e)
	}
	sa.order = make([]int, len(sa.tiles))
	sa.place = make([]int, len(sa.tiles))
	return sa
}

// sample fills hands (one slice per seat; the seat's own hand is its real
// tiles) and returns the boneyard in drawing order. The slices are reused by
// the next call.
func (sa *sampler) sample(r *rand.Rand, hands [][]engine.Tile) []engine.Tile {
	for a := 0; a < sampleAttempts; a++ {
		if sa.try(r, true) {
			return sa.collect(r, hands)
		}
	}
	sa.try(r, false) // cannot fail: the counts add up (readPosition)
	return sa.collect(r, hands)
}

// try deals the tiles once, most constrained first; with respectVoids false
// every place with room is allowed.
func (sa *sampler) try(r *rand.Rand, respectVoids bool) bool {
	n := len(sa.tiles)
	for k := range sa.order {
		sa.order[k] = k
	}
	r.Shuffle(n, func(i, j int) { sa.order[i], sa.order[j] = sa.order[j], sa.order[i] })
	if respectVoids {
		// Insertion sort (stable) by how many places a tile may go to.
		for i := 1; i < n; i++ {
			for j := i; j > 0 && bits.OnesCount8(sa.elig[sa.order[j]]) < bits.OnesCount8(sa.elig[sa.order[j-1]]); j-- {
				sa.order[j], sa.order[j-1] = sa.order[j-1], sa.order[j]
			}
		}
	}
	room := sa.cap0
	for k, j := range sa.order {
		e := uint8(1<<(boneyardPlace+1) - 1)
		if respectVoids {
			e = sa.elig[j]
		}
		total := 0
		for q := 0; q <= boneyardPlace; q++ {
			if e&(1<<q) != 0 {
				total += room[q]
			}
		}
		if total == 0 {
			return false
		}
		pick := r.IntN(total)
		for q := 0; q <= boneyardPlace; q++ {
			if e&(1<<q) == 0 {
				continue
			}
			if pick < room[q] {
				room[q]--
				sa.place[k] = q
				break
			}
			pick -= room[q]
		}
	}
	return true
}

// collect writes the last successful deal into hands and the boneyard.
func (sa *sampler) collect(r *rand.Rand, hands [][]engine.Tile) []engine.Tile {
	p := sa.p
	for s := range hands {
		hands[s] = hands[s][:0]
	}
	hands[p.seat] = append(hands[p.seat], tilesOf(p.hand)...)
	sa.bone = sa.bone[:0]
	for k, j := range sa.order {
		t := tileOf[sa.tiles[j]]
		if q := sa.place[k]; q == boneyardPlace {
			sa.bone = append(sa.bone, t)
		} else {
			hands[q] = append(hands[q], t)
		}
	}
	r.Shuffle(len(sa.bone), func(i, j int) { sa.bone[i], sa.bone[j] = sa.bone[j], sa.bone[i] })
	return sa.bone
}
