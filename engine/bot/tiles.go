package bot

import (
	"math/bits"

	"tessera/engine"
)

// Tiles are numbered 0..27 here (low half first, in set order) so that a
// hand or a set of tiles is a bitmask. The numbering is this package's own.
var (
	tileOf  [engine.NumTiles]engine.Tile
	tileIdx [7][7]uint8
	// pipMask[p] has the bit of every tile showing p on either half.
	pipMask [7]uint32
)

const allTiles = 1<<engine.NumTiles - 1

func init() {
	i := 0
	for a := 0; a <= 6; a++ {
		for b := a; b <= 6; b++ {
			tileOf[i] = engine.Tile{uint8(a), uint8(b)}
			tileIdx[a][b], tileIdx[b][a] = uint8(i), uint8(i)
			pipMask[a] |= 1 << i
			pipMask[b] |= 1 << i
			i++
		}
	}
}

// validTile reports whether both halves are 0..6; views built by the engine
// hold nothing else, but a player must not panic on any input.
func validTile(t engine.Tile) bool { return t[0] <= 6 && t[1] <= 6 }

// bit is the mask of one tile, whichever way round it is written.
func bit(t engine.Tile) uint32 { return 1 << tileIdx[t[0]][t[1]] }

// numbers is the set of pips a tile shows, as a bit per number.
func numbers(t engine.Tile) uint8 { return 1<<t[0] | 1<<t[1] }

// showing is the mask of the tiles that show a number of nums (a bit per
// number).
func showing(nums uint8) uint32 {
	var m uint32
	for x := 0; x <= 6; x++ {
		if nums&(1<<x) != 0 {
			m |= pipMask[x]
		}
	}
	return m
}

// tilesOf lists the tiles of a mask in set order.
func tilesOf(m uint32) []engine.Tile {
	out := make([]engine.Tile, 0, bits.OnesCount32(m))
	for ; m != 0; m &= m - 1 {
		out = append(out, tileOf[bits.TrailingZeros32(m)])
	}
	return out
}

// pipsOf is the total of the pips in a mask.
func pipsOf(m uint32) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n += tileOf[bits.TrailingZeros32(m)].Pips()
	}
	return n
}

// roundToFive rounds as Five Up's hand-end points do (12 -> 10, 13 -> 15).
func roundToFive(p int) int { return (p + 2) / 5 * 5 }

// openNumbers is the set of pips the layout's open ends show, a bit per
// number; 0 on an empty layout.
func openNumbers(l *engine.Layout) uint8 {
	var m uint8
	if l.Empty() {
		return 0
	}
	for e := engine.EndLeft; e <= engine.EndDown; e++ {
		if l.Open(e) {
			m |= 1 << l.Pips(e)
		}
	}
	return m
}
