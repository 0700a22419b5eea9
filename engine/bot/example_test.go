package bot_test

import (
	"fmt"

	"tessera/engine"
	"tessera/engine/bot"
)

// A computer player at seat 1 of a 2-player Five Up match decides from its
// own view and the match's seed for it, and the engine applies the move.
func ExampleLevels() {
	m, _ := engine.NewMatch(engine.Options{Variant: engine.FiveUp, Players: 2, Target: 250, Redeal: true}, engine.Seed{1, 2})
	m.TakeSeat(0, engine.Seat{Name: "Ana", Bot: "medium"})
	m.TakeSeat(1, engine.Seat{Name: "Bea", Bot: "hard"})
	levels := bot.Levels()
	for range 6 {
		seat := m.ToAct()[0]
		player := levels[m.Seat(seat).Bot]
		mv, ok := player(m.View(seat), m.BotSeed(seat))
		if !ok {
			break
		}
		if err := m.Apply(seat, mv); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(len(m.Log()) > 6, m.Status())
	// Output: true playing
}
