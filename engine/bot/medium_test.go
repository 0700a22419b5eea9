package bot

import (
	"testing"

	"tessera/engine"
)

var (
	partnership = engine.DefaultOptions(engine.Partnership)
	lead        = engine.EndLead
	left        = engine.EndLeft
	right       = engine.EndRight
)

// Each case is a position the medium player meets, with the move its rule
// calls for.
func TestMediumHeuristics(t *testing.T) {
	for _, c := range []struct {
		rule string
		s    spec
		want engine.Move
	}{
		{
			rule: "takes the count of 10 over plays that score nothing",
			s: spec{opts: fiveUp2, seat: 0,
				mine:   []engine.Tile{tl(1, 6), tl(0, 4), tl(1, 2), tl(3, 3), tl(5, 5), tl(2, 2)},
				events: []engine.Event{play(1, tl(1, 4), lead)},
				held:   []int{6, 7}, boneyard: 14},
			want: mv(tl(1, 6), left),
		},
		{
			// 3-6 on the right leaves 2 and 6 (count 8): 2-4 or 2-2 make
			// it 10. 1-2 on the left leaves 1 and 3 (count 4): only 1-1 and
			// 3-4 make 5.
			rule: "avoids leaving a count the next opponent can take",
			s: spec{opts: fiveUp2, seat: 0,
				mine:   []engine.Tile{tl(3, 6), tl(1, 2), tl(0, 0), tl(1, 1), tl(0, 1), tl(5, 5), tl(0, 5)},
				events: []engine.Event{play(1, tl(2, 3), lead)},
				held:   []int{7, 6}, boneyard: 14},
			want: mv(tl(1, 2), left),
		},
		{
			// The same position far from the target: 5-5 takes 10 and
			// only 0-0 answers with 10.
			rule: "takes a count when the answer it risks is small against the match",
			s: spec{opts: fiveUp2, seat: 0, scores: []int{0, 0},
				mine:   []engine.Tile{tl(5, 5), tl(0, 3), tl(3, 5), tl(2, 5), tl(1, 1), tl(4, 4)},
				events: []engine.Event{play(1, tl(0, 5), lead)},
				held:   []int{6, 7}, boneyard: 14},
			want: mv(tl(5, 5), right),
		},
		{
			rule: "near the match target refuses a count the opponent could answer to win",
			s: spec{opts: fiveUp2, seat: 0, scores: []int{0, 240},
				mine:   []engine.Tile{tl(5, 5), tl(0, 3), tl(3, 5), tl(2, 5), tl(1, 1), tl(4, 4)},
				events: []engine.Event{play(1, tl(0, 5), lead)},
				held:   []int{6, 7}, boneyard: 14},
			want: mv(tl(0, 3), left),
		},
		{
			rule: "near its own target takes the count that wins the match",
			s: spec{opts: fiveUp2, seat: 0, scores: []int{240, 0},
				mine:   []engine.Tile{tl(5, 5), tl(0, 3), tl(3, 5), tl(2, 5), tl(1, 1), tl(4, 4)},
				events: []engine.Event{play(1, tl(0, 5), lead)},
				held:   []int{6, 7}, boneyard: 14},
			want: mv(tl(5, 5), right),
		},
		{
			// Seat 1 passed on 2 and 3: 3-5 on the right leaves 2 and 3
			// and makes it pass again.
			rule: "in partnership plays to the numbers the next opponent lacks",
			s: spec{opts: partnership, seat: 0,
				mine: []engine.Tile{tl(2, 6), tl(3, 5), tl(0, 0), tl(6, 1), tl(1, 1), tl(4, 4)},
				events: []engine.Event{play(0, tl(2, 3), lead), pass(1),
					play(2, tl(3, 4), right), play(3, tl(4, 5), right)},
				held: []int{6, 7, 6, 6}},
			want: mv(tl(3, 5), right),
		},
		{
			// The same layout, but the partner passed on 2 and 4: leaving
			// a 2 would block it.
			rule: "in partnership does not block its partner's numbers",
			s: spec{opts: partnership, seat: 0,
				mine: []engine.Tile{tl(2, 6), tl(3, 5), tl(0, 0), tl(6, 1), tl(1, 1), tl(4, 4)},
				events: []engine.Event{play(0, tl(2, 3), lead), play(1, tl(3, 4), right),
					pass(2), play(3, tl(4, 5), right)},
				held: []int{6, 6, 7, 6}},
			want: mv(tl(2, 6), left),
		},
		{
			// 3-4 and 2-5 weigh the same; after 3-4 an end shows 4, of
			// which it holds three more.
			rule: "keeps the ends on the numbers it holds many of",
			s: spec{opts: partnership, seat: 1,
				mine:   []engine.Tile{tl(3, 4), tl(2, 5), tl(4, 4), tl(0, 4), tl(1, 4), tl(0, 0), tl(1, 1)},
				events: []engine.Event{play(0, tl(2, 3), lead)},
				held:   []int{6, 7, 7, 7}},
			want: mv(tl(3, 4), right),
		},
		{
			rule: "in partnership sheds the heavy double first",
			s: spec{opts: partnership, seat: 1,
				mine:   []engine.Tile{tl(6, 5), tl(6, 1), tl(6, 6), tl(0, 0), tl(0, 1), tl(1, 1), tl(0, 3)},
				events: []engine.Event{play(0, tl(6, 2), lead)},
				held:   []int{6, 7, 7, 7}},
			want: mv(tl(6, 6), right),
		},
	} {
		t.Run(c.rule, func(t *testing.T) {
			v := c.s.view(t)
			if _, err := readPosition(v); err != nil {
				t.Fatalf("the spec is not a consistent position: %v", err)
			}
			for seed := uint64(0); seed < 8; seed++ {
				got, ok := Medium(v, seed)
				if !ok || got != c.want {
					t.Fatalf("Medium(seed %d) = %v %v %v, want %v %v", seed, got.Tile, got.End, ok, c.want.Tile, c.want.End)
				}
			}
		})
	}
}

// The risk of a count counts only the replies the next opponent may hold.
func TestRiskCountsOnlyRepliesTheOpponentMayHold(t *testing.T) {
	s := spec{opts: fiveUp2, seat: 0,
		mine:   []engine.Tile{tl(3, 6), tl(1, 2), tl(0, 0), tl(1, 1), tl(0, 1), tl(5, 5), tl(0, 5)},
		events: []engine.Event{play(1, tl(2, 3), lead)},
		held:   []int{7, 6}, boneyard: 14}
	p, err := readPosition(s.view(t))
	if err != nil {
		t.Fatal(err)
	}
	ev := newEvaluator(p)
	after := ev.board
	after.place(tl(3, 6), right) // ends 2 and 6: 2-4 and 2-2 make 10
	if r := ev.risk(&after); r <= 0 {
		t.Fatalf("risk = %v with 2-4 and 2-2 unseen, want > 0", r)
	}
	p.void[1] = 1 << 2 // the opponent lacks 2
	if r := ev.risk(&after); r != 0 {
		t.Fatalf("risk = %v when the opponent lacks 2, want 0", r)
	}
}

func TestConfirm(t *testing.T) {
	for _, c := range []struct {
		rule  string
		tiles []engine.Tile
		want  engine.MoveKind
	}{
		{"five doubles redeal", []engine.Tile{tl(0, 0), tl(1, 1), tl(2, 2), tl(3, 3), tl(4, 4), tl(0, 1), tl(2, 3)}, engine.Redeal},
		{"four doubles with two supported keep", []engine.Tile{tl(0, 0), tl(1, 1), tl(2, 2), tl(3, 3), tl(0, 1), tl(5, 6), tl(4, 6)}, engine.Keep},
		{"four doubles with one supported redeal", []engine.Tile{tl(0, 0), tl(1, 1), tl(2, 2), tl(3, 3), tl(0, 5), tl(5, 6), tl(4, 6)}, engine.Redeal},
		{"three doubles keep", []engine.Tile{tl(0, 0), tl(1, 1), tl(2, 2), tl(5, 4), tl(0, 5), tl(5, 6), tl(4, 6)}, engine.Keep},
	} {
		t.Run(c.rule, func(t *testing.T) {
			v := &engine.View{You: &engine.ViewYou{Tiles: c.tiles, Confirm: true}}
			for name, p := range map[string]Player{"medium": Medium, "hard": Hard} {
				if got, ok := p(v, 1); !ok || got.Kind != c.want {
					t.Errorf("%s: got %v %v, want kind %v", name, got.Kind, ok, c.want)
				}
			}
		})
	}
}
