package bot

import (
	"testing"

	"tessera/engine"
)

// spec is a hand-made position for one seat: what its view would show.
type spec struct {
	opts     engine.Options
	seat     int
	mine     []engine.Tile
	events   []engine.Event // the current hand after the deal: plays, draws, passes
	held     []int          // tiles each seat holds (the seat's own too)
	boneyard int
	scores   []int
}

func tl(a, b int) engine.Tile { return engine.Tile{uint8(a), uint8(b)} }

func play(seat int, t engine.Tile, e engine.End) engine.Event {
	return engine.Event{Type: engine.EventPlay, Seat: seat, Tile: t, End: e}
}

func draw(seat, n int) engine.Event {
	return engine.Event{Type: engine.EventDraw, Seat: seat, Count: n}
}

func pass(seat int) engine.Event { return engine.Event{Type: engine.EventPass, Seat: seat} }

var fiveUp2 = engine.Options{Variant: engine.FiveUp, Players: 2, Target: 250, Redeal: true}

// view builds the seat's view of the spec; its legal moves come from an
// engine Sim of the same layout.
func (s spec) view(t testing.TB) *engine.View {
	t.Helper()
	o := s.opts
	v := &engine.View{
		Variant: o.Variant, Status: engine.StatusPlaying,
		Options: engine.ViewOptions{Players: o.Players, Pairs: o.Pairs, Target: o.Target, Redeal: o.Redeal},
		Scores:  s.scores,
		Hand:    &engine.ViewHand{Number: 1, Phase: engine.PhasePlay, Boneyard: s.boneyard},
		You:     &engine.ViewYou{Seat: s.seat, Team: o.TeamOf(s.seat), Tiles: s.mine},
	}
	if v.Scores == nil {
		v.Scores = make([]int, o.Teams())
	}
	for i := 0; i < o.Players; i++ {
		v.Seats = append(v.Seats, engine.ViewSeat{Seat: i, Team: o.TeamOf(i), Taken: true, Tiles: s.held[i]})
	}
	v.Log = append(v.Log, engine.Event{Seq: 1, Hand: 1, Type: engine.EventDeal})
	var plays []engine.PlayedTile
	for i, e := range s.events {
		e.Seq, e.Hand = i+2, 1
		v.Log = append(v.Log, e)
		if e.Type == engine.EventPlay {
			plays = append(plays, engine.PlayedTile{Seat: e.Seat, Tile: e.Tile, End: e.End})
		}
	}
	hands := make([][]engine.Tile, o.Players)
	hands[s.seat] = s.mine
	sim, err := engine.NewSim(o, plays, hands, nil, s.seat)
	if err != nil {
		t.Fatalf("spec: %v", err)
	}
	for _, mv := range sim.AppendLegal(nil) {
		v.You.Legal = append(v.You.Legal, engine.ViewMove{Tile: mv.Tile, End: mv.End})
	}
	return v
}

// move is a play for tables.
func mv(t engine.Tile, e engine.End) engine.Move {
	return engine.Move{Kind: engine.Play, Tile: t, End: e}
}
