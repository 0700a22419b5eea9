package bot

import "tessera/engine"

// board follows a Five Up layout's open ends, enough to say in a few steps
// what the count would be after a play. The playouts use it to score the
// candidate moves of the rollout policy without playing each on a copy of
// the engine's Sim; the Sim still makes every play. The property test checks
// it against engine.Layout.Count after every play of many hands.
type board struct {
	n      int     // tiles on the layout
	lead   int     // pips of the lead tile (the count while it is alone)
	ends   [4]end  // left, right, up, down
	spin   int8    // -1: no spinner yet; else the spinner's number
	cover  [2]bool // a tile is attached on the spinner's left, right side
	spinAt [2]bool // the spinner is the tile at the left, right end
	spinOK bool    // spinners are used (Five Up)
	laid   uint32  // the tiles on the layout
}

// end is one end of the line or an arm.
type end struct {
	pips   uint8
	double bool // the tile there lies crosswise and counts both halves
	used   bool // an arm with at least one tile (the line's ends always are)
}

func newBoard(spinners bool) board { return board{spin: -1, spinOK: spinners} }

// count is the total of the open ends.
func (b *board) count() int {
	switch b.n {
	case 0:
		return 0
	case 1:
		return b.lead
	}
	c := 0
	for i, e := range b.ends {
		if i >= 2 && !e.used {
			continue
		}
		if e.double {
			c += 2 * int(e.pips)
		} else {
			c += int(e.pips)
		}
	}
	return c
}

// points is what the count scores after a play: a positive multiple of 5.
func points(count int) int {
	if count > 0 && count%5 == 0 {
		return count
	}
	return 0
}

// place attaches t at e; the play must be legal.
func (b *board) place(t engine.Tile, e engine.End) {
	b.n++
	b.laid |= bit(t)
	if e == engine.EndLead {
		t = t.Normal()
		b.lead = t.Pips()
		d := t.IsDouble()
		b.ends[0] = end{pips: t[0], double: d, used: true}
		b.ends[1] = end{pips: t[1], double: d, used: true}
		if d && b.spinOK {
			b.setSpinner(t[0])
			b.spinAt = [2]bool{true, true}
		}
		return
	}
	i := int(e - engine.EndLeft)
	at := b.ends[i].pips
	out := t[0]
	if t[0] == at {
		out = t[1]
	}
	b.ends[i] = end{pips: out, double: t.IsDouble(), used: true}
	if i >= 2 {
		return
	}
	if b.spinAt[i] {
		b.cover[i] = true
		b.spinAt[i] = false
	} else if b.spin < 0 && b.spinOK && t.IsDouble() {
		b.setSpinner(t[0])
		b.spinAt[i] = true
		// The spinner's inner long side touches the tile it was attached to.
		b.cover[1-i] = true
	}
}

// setSpinner makes the double of p the spinner; its arms, once open,
// attach to p.
func (b *board) setSpinner(p uint8) {
	b.spin = int8(p)
	b.ends[2] = end{pips: p}
	b.ends[3] = end{pips: p}
}

// armsOpen reports whether the spinner's up and down arms are open.
func (b *board) armsOpen() bool { return b.spin >= 0 && b.cover[0] && b.cover[1] }

// open reports whether e is an open end.
func (b *board) open(e engine.End) bool {
	switch e {
	case engine.EndLead:
		return b.n == 0
	case engine.EndLeft, engine.EndRight:
		return b.n > 0
	}
	return b.armsOpen()
}

// fits reports whether t can be attached at e.
func (b *board) fits(t engine.Tile, e engine.End) bool {
	if !b.open(e) {
		return false
	}
	if e == engine.EndLead {
		return true
	}
	p := b.ends[e-engine.EndLeft].pips
	return t[0] == p || t[1] == p
}

// openNumbers is the set of numbers the open ends show, a bit per number.
func (b *board) openNumbers() uint8 {
	if b.n == 0 {
		return 0
	}
	m := uint8(1)<<b.ends[0].pips | 1<<b.ends[1].pips
	if b.armsOpen() {
		m |= 1<<b.ends[2].pips | 1<<b.ends[3].pips
	}
	return m
}

// countAfter is the count after placing t at e.
func (b *board) countAfter(t engine.Tile, e engine.End) int {
	c := *b
	c.place(t, e)
	return c.count()
}

// boardOf follows a hand's plays from the start.
func boardOf(plays []engine.PlayedTile, spinners bool) board {
	b := newBoard(spinners)
	for _, p := range plays {
		b.place(p.Tile, p.End)
	}
	return b
}
