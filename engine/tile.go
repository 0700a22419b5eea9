package engine

import (
	"fmt"
	"math/bits"
)

// Tile is a domino, written [a, b]. In a hand the order of the halves does not
// matter; on the layout a tile is written in the order it lies.
type Tile [2]uint8

// NumTiles is the size of the double-six set.
const NumTiles = 28

// tileIndex numbers the set 0..27; tileOf is its inverse (low half first).
var (
	tileOf    [NumTiles]Tile
	tileIndex [7][7]uint8
	// pipMask[p] has the bit of every tile showing p on either half.
	pipMask [7]uint32
	// doubleMask has the bit of every double.
	doubleMask uint32
)

func init() {
	i := 0
	for a := 0; a <= 6; a++ {
		for b := a; b <= 6; b++ {
			tileOf[i] = Tile{uint8(a), uint8(b)}
			tileIndex[a][b] = uint8(i)
			tileIndex[b][a] = uint8(i)
			pipMask[a] |= 1 << i
			pipMask[b] |= 1 << i
			if a == b {
				doubleMask |= 1 << i
			}
			i++
		}
	}
	for e := range playMove {
		for i := range playMove[e] {
			playMove[e][i] = Move{Kind: Play, Tile: tileOf[i], End: End(e)}
		}
	}
	for pair, first := range [2]End{EndLeft, EndUp} {
		for i := range NumTiles {
			pairMove[pair][i] = playMove[first][i]
			pairMove[pair][32+i] = playMove[first+1][i]
		}
	}
}

// NewTile returns the tile with halves a and b, or an error when a pip is
// outside 0..6.
func NewTile(a, b int) (Tile, error) {
	if a < 0 || a > 6 || b < 0 || b > 6 {
		return Tile{}, fmt.Errorf("%w: pips must be 0..6, got %d-%d", ErrBadInput, a, b)
	}
	return Tile{uint8(a), uint8(b)}, nil
}

// Pips is the tile's value, a + b.
func (t Tile) Pips() int { return int(t[0]) + int(t[1]) }

// IsDouble reports whether both halves are equal.
func (t Tile) IsDouble() bool { return t[0] == t[1] }

// Normal returns the tile with its low half first.
func (t Tile) Normal() Tile {
	if t[0] > t[1] {
		return Tile{t[1], t[0]}
	}
	return t
}

// Flip returns the tile turned around.
func (t Tile) Flip() Tile { return Tile{t[1], t[0]} }

func (t Tile) String() string { return fmt.Sprintf("%d-%d", t[0], t[1]) }

func (t Tile) index() int { return int(tileIndex[t[0]][t[1]]) }

// handTiles lists the tiles of a hand bitmask in set order.
func handTiles(mask uint32) []Tile {
	out := make([]Tile, 0, bits.OnesCount32(mask))
	for m := mask; m != 0; m &= m - 1 {
		out = append(out, tileOf[bits.TrailingZeros32(m)])
	}
	return out
}

// handPips is the total of the pips in a hand bitmask.
func handPips(mask uint32) int {
	n := 0
	for m := mask; m != 0; m &= m - 1 {
		n += tileOf[bits.TrailingZeros32(m)].Pips()
	}
	return n
}
