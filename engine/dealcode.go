package engine

import (
	"fmt"
	"math/bits"
)

// A deal is recorded in canonical form: each seat's seven tiles in set
// order, seat after seat, then the boneyard in drawing order. The order
// within a hand never matters (a hand is a set), so canonical deals lose
// nothing, and they encode far smaller than a raw shuffle:
//
//	value = owners * boneyard! + rank(boneyard order)
//
// where owners is the number whose base-b digit i says who holds tile i (a
// seat, or the boneyard), and rank is the boneyard's Lehmer code. The value
// is written little-endian in a fixed number of bytes per table size:
// 11 bytes for 2 players, 9 for 3, 7 for 4 (a raw 5-bit shuffle takes 18).

// dealBase is the number of owners a tile can have: the seats, plus the
// boneyard when there is one.
func dealBase(players int) uint64 {
	if players == 4 {
		return 4
	}
	return uint64(players) + 1
}

// dealBytes is the encoded size of a deal for each table size.
var dealBytes = [5]int{2: 11, 3: 9, 4: 7}

// canonical sorts each hand of a shuffled order into set order.
func canonical(order *[NumTiles]uint8, players int) {
	for s := 0; s < players; s++ {
		var held uint32
		for _, ti := range order[7*s : 7*s+7] {
			held |= 1 << ti
		}
		k := 7 * s
		for m := held; m != 0; m &= m - 1 {
			order[k] = uint8(bits.TrailingZeros32(m))
			k++
		}
	}
}

// u128 is an unsigned 128-bit number, enough for 3^28 * 14! < 2^81.
type u128 struct{ hi, lo uint64 }

func (x u128) mulAdd(m, a uint64) u128 {
	hi, lo := bits.Mul64(x.lo, m)
	lo, c := bits.Add64(lo, a, 0)
	return u128{x.hi*m + hi + c, lo}
}

func (x u128) divMod(d uint64) (u128, uint64) {
	qhi, r := x.hi/d, x.hi%d
	qlo, r := bits.Div64(r, x.lo, d)
	return u128{qhi, qlo}, r
}

// appendDealCode writes a canonical deal.
func appendDealCode(b []byte, order *[NumTiles]uint8, players int) []byte {
	base := dealBase(players)
	owner := [NumTiles]uint64{}
	for i := range owner {
		owner[i] = uint64(players) // the boneyard
	}
	for i, ti := range order[:7*players] {
		owner[ti] = uint64(i / 7)
	}
	var v u128
	for ti := NumTiles - 1; ti >= 0; ti-- {
		v = v.mulAdd(base, owner[ti])
	}
	bone := order[7*players:]
	for i, ti := range bone {
		smaller := uint64(0)
		for _, tj := range bone[i+1:] {
			if tj < ti {
				smaller++
			}
		}
		v = v.mulAdd(uint64(len(bone)-i), smaller)
	}
	for k := 0; k < dealBytes[players]; k++ {
		b = append(b, byte(v.lo))
		v = u128{v.hi >> 8, v.lo>>8 | v.hi<<56}
	}
	return b
}

// dealFromCode reads a canonical deal, refusing any value that is not one.
func dealFromCode(raw []byte, players int) (order [NumTiles]Tile, err error) {
	var v u128
	for k := len(raw) - 1; k >= 0; k-- {
		v = u128{v.hi<<8 | v.lo>>56, v.lo<<8 | uint64(raw[k])}
	}
	nBone := NumTiles - 7*players
	var code [NumTiles]uint64
	for i := nBone - 1; i >= 0; i-- {
		v, code[i] = v.divMod(uint64(nBone - i))
	}
	base := dealBase(players)
	var owner [NumTiles]uint64
	for ti := 0; ti < NumTiles; ti++ {
		v, owner[ti] = v.divMod(base)
	}
	if v != (u128{}) {
		return order, fmt.Errorf("%w: deal code out of range", ErrCorrupt)
	}
	var count [5]int
	var bone []uint8
	for ti, o := range owner {
		if o > uint64(players) || o == uint64(players) && nBone == 0 {
			return order, fmt.Errorf("%w: deal gives a tile to no one", ErrCorrupt)
		}
		if o == uint64(players) {
			bone = append(bone, uint8(ti))
			continue
		}
		if count[o] == 7 {
			return order, fmt.Errorf("%w: deal gives seat %d more than 7 tiles", ErrCorrupt, o)
		}
		order[7*int(o)+count[o]] = tileOf[ti]
		count[o]++
	}
	if len(bone) != nBone {
		return order, fmt.Errorf("%w: deal leaves %d tiles in the boneyard", ErrCorrupt, len(bone))
	}
	// bone is in set order; pick by Lehmer code to get the drawing order.
	for i := 0; i < nBone; i++ {
		c := code[i]
		if c >= uint64(len(bone)) {
			return order, fmt.Errorf("%w: deal code out of range", ErrCorrupt)
		}
		order[7*players+i] = tileOf[bone[c]]
		bone = append(bone[:c], bone[c+1:]...)
	}
	return order, nil
}
