package engine

import (
	"math/bits"
	"math/rand/v2"
)

// Seed is the secret a match's deals are drawn from. It never leaves the
// server: a view holds no trace of it.
type Seed [2]uint64

// rng returns a generator for one purpose of the match, e.g. the deal of
// hand h after r redeals. Deals are recorded, so replay does not depend on
// this derivation; only dealing new hands does.
func (s Seed) rng(stream uint64) rand.PCG {
	var p rand.PCG
	p.Seed(s[0]^0x9e3779b97f4a7c15*stream, s[1]+stream)
	return p
}

// intN is an unbiased uniform number in [0, n) (Lemire's method).
func intN(p *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(p.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(p.Uint64(), n)
		}
	}
	return hi
}

// shuffle returns a uniformly shuffled set (tile indexes) for a deal.
func (s Seed) shuffle(hand, redeals int) [NumTiles]uint8 {
	var order [NumTiles]uint8
	for i := range order {
		order[i] = uint8(i)
	}
	p := s.rng(uint64(hand)<<16 | uint64(redeals))
	for i := NumTiles - 1; i > 0; i-- {
		j := intN(&p, uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// firstLeader draws the leader of a Five Up match's first hand.
func (s Seed) firstLeader(players int) int {
	p := s.rng(1 << 40)
	return int(intN(&p, uint64(players)))
}

// botSeed gives a computer player a seed for one decision.
func (s Seed) botSeed(seq, seat int) uint64 {
	p := s.rng(1<<41 | uint64(seq)<<3 | uint64(seat))
	return p.Uint64()
}
