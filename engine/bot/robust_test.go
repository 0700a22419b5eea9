package bot

import (
	"testing"

	"tessera/engine"
)

// Malformed views (which the engine never builds) give a move from the
// legal list or nothing, never a panic.
func TestMalformedViews(t *testing.T) {
	good := func() *engine.View {
		return spec{opts: fiveUp2, seat: 0,
			mine:   []engine.Tile{tl(1, 6), tl(0, 4), tl(1, 2), tl(3, 3), tl(5, 5), tl(2, 2)},
			events: []engine.Event{play(1, tl(1, 4), lead)},
			held:   []int{6, 7}, boneyard: 14}.view(t)
	}
	for _, c := range []struct {
		name   string
		break_ func(v *engine.View)
	}{
		{"no hand", func(v *engine.View) { v.Hand = nil }},
		{"unknown variant", func(v *engine.View) { v.Variant = engine.Variant(7) }},
		{"a tile with 9 pips", func(v *engine.View) { v.You.Tiles[0] = engine.Tile{9, 1} }},
		{"a legal tile with 9 pips", func(v *engine.View) { v.You.Legal[0].Tile = engine.Tile{9, 9} }},
		{"an unknown end", func(v *engine.View) { v.You.Legal[0].End = engine.End(9) }},
		{"counts that do not add up", func(v *engine.View) { v.Seats[1].Tiles = 3 }},
		{"negative counts", func(v *engine.View) { v.Seats[1].Tiles = -14; v.Hand.Boneyard = 35 }},
		{"a log without the deal", func(v *engine.View) { v.Log = v.Log[1:] }},
		{"a play by seat 7", func(v *engine.View) { v.Log[1].Seat = 7 }},
		{"a played tile with 8 pips", func(v *engine.View) { v.Log[1].Tile = engine.Tile{8, 0} }},
		{"a play that does not fit", func(v *engine.View) {
			v.Log = append(v.Log, engine.Event{Seq: 3, Hand: 1, Type: engine.EventPlay, Seat: 0, Tile: tl(6, 6), End: right})
		}},
		{"scores of the wrong length", func(v *engine.View) { v.Scores = []int{0} }},
		{"too many seats", func(v *engine.View) { v.Seats = append(v.Seats, engine.ViewSeat{}) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			for name, p := range Levels() {
				v := good()
				c.break_(v)
				mv, ok := p(v, 3)
				if !ok {
					continue
				}
				lm := engine.ViewMove{Tile: mv.Tile, End: mv.End}
				found := false
				for _, l := range v.You.Legal {
					found = found || l == lm
				}
				if !found {
					t.Errorf("%s chose %v %v, not in the view's legal list", name, mv.Tile, mv.End)
				}
			}
		})
	}
}
