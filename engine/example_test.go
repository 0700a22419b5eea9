package engine_test

import (
	"fmt"

	"tessera/engine"
)

// A match is created with options and a secret seed; the first hand is
// dealt when the last seat is taken.
func ExampleNewMatch() {
	m, err := engine.NewMatch(engine.DefaultOptions(engine.Partnership), engine.Seed{1, 2})
	if err != nil {
		panic(err)
	}
	for i, name := range []string{"Ana", "Bea", "Carlo", "Dario"} {
		if err := m.TakeSeat(i, engine.Seat{Name: name}); err != nil {
			panic(err)
		}
	}
	seat := m.Turn()
	fmt.Println(m.Status(), m.HandNumber())
	fmt.Println(m.AppendLegal(seat, nil)[0].Tile) // the 6-6 holder must lead it
	// Output:
	// playing 1
	// 6-6
}

// A move is checked against the seat's legal moves; a refused move is an
// error value and changes nothing.
func ExampleMatch_Apply() {
	m, _ := engine.NewMatch(engine.DefaultOptions(engine.Partnership), engine.Seed{1, 2})
	for i := 0; i < 4; i++ {
		m.TakeSeat(i, engine.Seat{Name: fmt.Sprint("P", i)})
	}
	seat := m.Turn()
	err := m.Apply(seat, engine.Move{Kind: engine.Play, Tile: engine.Tile{6, 6}, End: engine.EndRight})
	fmt.Println(err)
	err = m.Apply(seat, engine.Move{Kind: engine.Play, Tile: engine.Tile{6, 6}, End: engine.EndLead})
	fmt.Println(err, m.Turn() == (seat+1)%4)
	// Output:
	// illegal move: the layout is empty, so the tile is the lead
	// <nil> true
}

// The view for one seat holds its own tiles and legal moves and nothing of
// the other hands.
func ExampleMatch_View() {
	m, _ := engine.NewMatch(engine.Options{Variant: engine.FiveUp, Players: 2, Target: 250}, engine.Seed{4, 4})
	m.TakeSeat(0, engine.Seat{Name: "Ana"})
	m.TakeSeat(1, engine.Seat{Name: "Bea", Bot: "easy"})
	v := m.View(0)
	fmt.Println(v.Status, len(v.You.Tiles), v.Hand.Boneyard, v.Seats[1].Tiles)
	s := m.View(engine.Spectator)
	fmt.Println(s.You == nil)
	// Output:
	// playing 7 14 7
	// true
}

// Encode keeps the whole match in a few hundred bytes; Decode replays it.
func ExampleDecode() {
	m, _ := engine.NewMatch(engine.Options{Variant: engine.FiveUp, Players: 3, Target: 250, Redeal: true}, engine.Seed{9, 9})
	for i := 0; i < 3; i++ {
		m.TakeSeat(i, engine.Seat{Name: fmt.Sprint("P", i)})
	}
	b := engine.Encode(m)
	d, err := engine.Decode(b)
	fmt.Println(err, d.HandNumber(), d.Scores())
	_, err = engine.Decode(b[:len(b)-1])
	fmt.Println(err)
	// Output:
	// <nil> 1 [0 0 0]
	// corrupt state: truncated or invalid seat changes
}
