package engine

// End names a place on the layout where a tile may be attached.
type End uint8

const (
	EndLead  End = iota // the first tile of a hand, on an empty layout
	EndLeft             // the left end of the main line
	EndRight            // the right end of the main line
	EndUp               // the spinner's up arm
	EndDown             // the spinner's down arm
	numEnds
)

var endNames = [numEnds]string{"lead", "left", "right", "up", "down"}

// lineCap leaves room for all 28 tiles on either side of the lead.
const lineCap = 2*NumTiles + 1

// Layout is the tiles on the table. The main line grows left and right from
// the lead; with spinners enabled (Five Up), the first double played is the
// spinner, and once both its long sides are covered it opens up and down arms.
// A Layout is a value with fixed arrays: placing a tile never allocates.
type Layout struct {
	line     [lineCap]Tile // line[lo:hi], each tile written left to right
	lo, hi   int
	spinner  int               // absolute index into line, or -1
	arms     [2][NumTiles]Tile // up and down, each tile written from the spinner outwards
	armLen   [2]int
	spinners bool // whether the first double becomes a spinner (Five Up)
	lastLies Tile // the last tile placed, as it lies
	// endPips caches what each open end shows (-1: not open), endVal what
	// each end adds to the count (a line end as if the line had two tiles;
	// an empty arm 0), mask the tiles that fit some open end, and count the
	// count. place updates them from the end it changed; refresh recomputes
	// them from the tiles, and a test holds the two equal.
	endPips [numEnds]int8
	endVal  [numEnds]int8
	mask    uint32
	count   int
}

func newLayout(spinners bool) Layout {
	var l Layout
	l.clear(spinners)
	return l
}

// clear makes a zero Layout the empty layout (what refresh makes of it).
func (l *Layout) clear(spinners bool) {
	l.lo, l.hi, l.spinner, l.spinners = NumTiles, NumTiles, -1, spinners
	l.endPips = [numEnds]int8{-1, -1, -1, -1, -1}
	l.mask = 1<<NumTiles - 1
}

// refresh recomputes the cached open ends, the mask of tiles that fit one
// and the count.
func (l *Layout) refresh() {
	l.endPips = [numEnds]int8{-1, -1, -1, -1, -1}
	l.endVal = [numEnds]int8{}
	if l.Empty() {
		l.mask, l.count = 1<<NumTiles-1, 0
		return
	}
	left, right := l.line[l.lo][0], l.line[l.hi-1][1]
	l.endPips[EndLeft], l.endPips[EndRight] = int8(left), int8(right)
	l.endVal[EndLeft] = int8(endValue(l.line[l.lo], left))
	l.endVal[EndRight] = int8(endValue(l.line[l.hi-1], right))
	l.mask = pipMask[left] | pipMask[right]
	if l.armsOpen() {
		up, down := l.Pips(EndUp), l.Pips(EndDown)
		l.endPips[EndUp], l.endPips[EndDown] = int8(up), int8(down)
		l.mask |= pipMask[up] | pipMask[down]
		for a := range 2 {
			if n := l.armLen[a]; n > 0 {
				t := l.arms[a][n-1]
				l.endVal[EndUp+End(a)] = int8(endValue(t, t[1]))
			}
		}
	}
	if l.spinners {
		l.count = l.Count()
	}
}

// Empty reports whether no tile has been played.
func (l *Layout) Empty() bool { return l.hi == l.lo }

// Lead is the index in Line of the hand's first tile, -1 on an empty
// layout.
func (l *Layout) Lead() int {
	if l.Empty() {
		return -1
	}
	return NumTiles - l.lo
}

// Line returns the main line from left to right.
func (l *Layout) Line() []Tile { return append([]Tile{}, l.line[l.lo:l.hi]...) }

// Spinner returns the spinner's index in Line, or -1.
func (l *Layout) Spinner() int {
	if l.spinner < 0 {
		return -1
	}
	return l.spinner - l.lo
}

// Arm returns the up (EndUp) or down (EndDown) arm, from the spinner outwards.
func (l *Layout) Arm(e End) []Tile {
	a := int(e - EndUp)
	return append([]Tile{}, l.arms[a][:l.armLen[a]]...)
}

// armsOpen reports whether the spinner's up and down arms are open: both its
// long sides have a tile attached.
func (l *Layout) armsOpen() bool {
	return l.spinner > l.lo && l.spinner < l.hi-1
}

// Open reports whether e is an open end now.
func (l *Layout) Open(e End) bool {
	switch e {
	case EndLead:
		return l.Empty()
	case EndLeft, EndRight:
		return !l.Empty()
	case EndUp, EndDown:
		return l.armsOpen()
	}
	return false
}

// Pips is the number an open end shows. Only meaningful when Open(e).
func (l *Layout) Pips(e End) int {
	switch e {
	case EndLeft:
		return int(l.line[l.lo][0])
	case EndRight:
		return int(l.line[l.hi-1][1])
	case EndUp, EndDown:
		a := int(e - EndUp)
		if n := l.armLen[a]; n > 0 {
			return int(l.arms[a][n-1][1])
		}
		return int(l.line[l.spinner][0])
	}
	return 0
}

// fits reports whether tile t can be attached at open end e.
func (l *Layout) fits(t Tile, e End) bool { return l.fitsPips(t[0], t[1], e) }

// fitsPips is fits for a tile given as its two halves.
func (l *Layout) fitsPips(a, b uint8, e End) bool {
	if e == EndLead {
		return l.Empty()
	}
	p := l.endPips[e]
	return p >= 0 && (int8(a) == p || int8(b) == p)
}

// place attaches tile i (in set order) at e, which must fit (or be the
// lead of an empty layout). It works on the pips as plain bytes: the end it
// covers shows p, so the tile's other half a+b-p becomes the end, and the
// tile lies p-side inwards.
func (l *Layout) place(i int, e End) {
	a, b := tileOf[i][0], tileOf[i][1]
	double := a == b
	if e == EndLead {
		k := l.lo
		l.line[k][0], l.line[k][1] = a, b
		l.hi++
		if l.spinners && double {
			l.spinner = k
		}
		l.lastLies[0], l.lastLies[1] = a, b
		l.endPips[EndLeft], l.endPips[EndRight] = int8(a), int8(b)
		l.endVal[EndLeft], l.endVal[EndRight] = endVal(a, double), endVal(b, double)
		l.mask = pipMask[a] | pipMask[b]
		if l.spinners {
			l.count = int(a) + int(b)
		}
		return
	}
	p := uint8(l.endPips[e])
	out := a + b - p
	switch e {
	case EndLeft:
		l.lo--
		l.line[l.lo][0], l.line[l.lo][1] = out, p
		l.lastLies[0], l.lastLies[1] = out, p
		if l.spinners && l.spinner < 0 && double {
			l.spinner = l.lo
		}
	case EndRight:
		l.line[l.hi][0], l.line[l.hi][1] = p, out
		l.hi++
		l.lastLies[0], l.lastLies[1] = p, out
		if l.spinners && l.spinner < 0 && double {
			l.spinner = l.hi - 1
		}
	default: // EndUp, EndDown
		arm := int(e - EndUp)
		n := l.armLen[arm]
		l.arms[arm][n][0], l.arms[arm][n][1] = p, out
		l.armLen[arm] = n + 1
		l.lastLies[0], l.lastLies[1] = p, out
	}
	l.endPips[e], l.endVal[e] = int8(out), endVal(out, double)
	if l.endPips[EndUp] < 0 && l.armsOpen() {
		sp := int8(l.line[l.spinner][0])
		l.endPips[EndUp], l.endPips[EndDown] = sp, sp
	}
	l.mask = pipMask[l.endPips[EndLeft]] | pipMask[l.endPips[EndRight]]
	if up := l.endPips[EndUp]; up >= 0 {
		l.mask |= pipMask[up] | pipMask[l.endPips[EndDown]]
	}
	if l.spinners {
		l.count = int(l.endVal[EndLeft]) + int(l.endVal[EndRight]) + int(l.endVal[EndUp]) + int(l.endVal[EndDown])
	}
}

// endVal is endValue for a tile that is a double or not, from its outer
// half.
func endVal(outer uint8, double bool) int8 {
	if double {
		return int8(2 * outer)
	}
	return int8(outer)
}

// endValue is what a tile at the end of the line or an arm counts: both
// halves when it is a double lying crosswise, else the exposed half.
func endValue(t Tile, exposed uint8) int {
	if t.IsDouble() {
		return 2 * int(t[0])
	}
	return int(exposed)
}

// Count is the total of the open ends (Five Up): a lone lead tile counts both
// halves; each end of the line counts its exposed half, or both halves of a
// double lying there (the spinner with a bare long side is such a double);
// each up/down arm with at least one tile counts its exposed half or both
// halves of a double at its end; an empty arm counts 0.
func (l *Layout) Count() int {
	switch l.hi - l.lo {
	case 0:
		return 0
	case 1:
		return l.line[l.lo].Pips()
	}
	left, right := l.line[l.lo], l.line[l.hi-1]
	c := endValue(left, left[0]) + endValue(right, right[1])
	for a := 0; a < 2; a++ {
		if n := l.armLen[a]; n > 0 {
			t := l.arms[a][n-1]
			c += endValue(t, t[1])
		}
	}
	return c
}

// CountTerms are the values Count adds, in its order: a lone lead tile's
// two halves, or the left end, the right end, then each arm's end (up,
// down) that holds a tile. Nil on an empty layout. They sum to Count.
func (l *Layout) CountTerms() []int {
	switch l.hi - l.lo {
	case 0:
		return nil
	case 1:
		t := l.line[l.lo]
		return []int{int(t[0]), int(t[1])}
	}
	left, right := l.line[l.lo], l.line[l.hi-1]
	terms := []int{endValue(left, left[0]), endValue(right, right[1])}
	for a := 0; a < 2; a++ {
		if n := l.armLen[a]; n > 0 {
			t := l.arms[a][n-1]
			terms = append(terms, endValue(t, t[1]))
		}
	}
	return terms
}

// openMask is the set of tiles that fit at least one open end.
func (l *Layout) openMask() uint32 { return l.mask }
