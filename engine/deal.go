package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// Seed is the secret a match's deals are drawn from. It never leaves the
// server: a view holds no trace of it.
type Seed [2]uint64

// rng seeds a generator for one purpose of the match, e.g. the deal of hand
// h after r redeals: a PCG whose state is SHA-256(seed, purpose). Each deal
// and each computer decision gets its own state through a one-way function,
// so what a player sees (seven tiles of a deal, a computer's choice: a few
// bits each) can neither rebuild the seed nor the state of any other deal.
// Deals are recorded, so replay does not depend on this derivation; only
// dealing new hands does.
func (s Seed) rng(p *rand.PCG, stream uint64) {
	var in [24]byte
	binary.LittleEndian.PutUint64(in[0:], s[0])
	binary.LittleEndian.PutUint64(in[8:], s[1])
	binary.LittleEndian.PutUint64(in[16:], stream)
	sum := sha256.Sum256(in[:])
	p.Seed(binary.LittleEndian.Uint64(sum[0:]), binary.LittleEndian.Uint64(sum[8:]))
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
	var p rand.PCG
	s.rng(&p, uint64(hand)<<16|uint64(redeals))
	for i := NumTiles - 1; i > 0; i-- {
		j := intN(&p, uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// firstLeader draws the leader of a Five Up match's first hand.
func (s Seed) firstLeader(players int) int {
	var p rand.PCG
	s.rng(&p, 1<<40)
	return int(intN(&p, uint64(players)))
}

// botSeed gives a computer player a seed for one decision.
func (s Seed) botSeed(seq, seat int) uint64 {
	var p rand.PCG
	s.rng(&p, 1<<41|uint64(seq)<<3|uint64(seat))
	return p.Uint64()
}
