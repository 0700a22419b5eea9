package referee

import (
	"errors"
	"slices"
	"testing"

	"tessera/engine"
	"tessera/engine/bot"
)

func newMatch(t *testing.T, o engine.Options, seed engine.Seed, seats ...engine.Seat) *engine.Match {
	t.Helper()
	m, err := engine.NewMatch(o, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range seats {
		if err := m.TakeSeat(i, s); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func TestPlayStopsWhenAPersonMustAct(t *testing.T) {
	o := engine.DefaultOptions(engine.FiveUp)
	for k := uint64(0); k < 20; k++ {
		m := newMatch(t, o, engine.Seed{k, 1}, engine.Seat{Name: "Ana"},
			engine.Seat{Name: "B", Bot: "easy"}, engine.Seat{Name: "C", Bot: "medium"}, engine.Seat{Name: "D", Bot: "easy"})
		if err := Play(m, bot.Levels(), "medium", nil); err != nil {
			t.Fatalf("seed %d: Play = %v", k, err)
		}
		if m.Status() != engine.StatusPlaying {
			t.Fatalf("seed %d: status %v, want playing (the person has not moved)", k, m.Status())
		}
		if got := m.ToAct(); len(got) == 0 || nextComputer(m, false) >= 0 {
			t.Fatalf("seed %d: ToAct = %v: a computer seat still must act", k, got)
		}
	}
}

func TestPlayFinishesAMatchOfComputers(t *testing.T) {
	o := engine.DefaultOptions(engine.Partnership)
	seats := []engine.Seat{{Bot: "easy"}, {Bot: "medium"}, {Bot: "easy"}, {Bot: "medium"}}
	m := newMatch(t, o, engine.Seed{7, 7}, seats...)
	if err := Play(m, bot.Levels(), "medium", nil); err != nil {
		t.Fatalf("Play = %v", err)
	}
	if m.Status() != engine.StatusFinished || m.Winner() < 0 {
		t.Fatalf("status %v winner %d, want finished with a winner", m.Status(), m.Winner())
	}
}

// While every person is away Play waits, and PlayOn plays the match to
// its end (an open game, API.md "Open tables").
func TestPlayOnPlaysForEveryAwayPerson(t *testing.T) {
	o := engine.DefaultOptions(engine.FiveUp)
	o.Players, o.Target = 2, 50
	m := newMatch(t, o, engine.Seed{3, 3}, engine.Seat{Name: "Ana"}, engine.Seat{Name: "Bea"})
	for s := range 2 {
		if err := m.Apply(s, engine.Move{Kind: engine.Away}); err != nil {
			t.Fatal(err)
		}
	}
	if err := Play(m, bot.Levels(), "medium", nil); err != nil || m.Status() != engine.StatusPlaying {
		t.Fatalf("Play with everyone away: %v, status %v; want it to wait", err, m.Status())
	}
	if err := PlayOn(m, bot.Levels(), "medium", nil); err != nil || m.Status() != engine.StatusFinished {
		t.Fatalf("PlayOn: %v, status %v; want the match finished", err, m.Status())
	}
}

func TestAFaultyPlayer(t *testing.T) {
	silly := func(v *engine.View, _ uint64) (engine.Move, bool) {
		return engine.Move{Kind: engine.Play, Tile: engine.Tile{6, 6}, End: engine.EndDown}, true
	}
	none := func(*engine.View, uint64) (engine.Move, bool) { return engine.Move{}, false }
	for _, c := range []struct {
		name    string
		players map[string]bot.Player
	}{
		{"an illegal move", map[string]bot.Player{"x": silly}},
		{"no move", map[string]bot.Player{"x": none}},
		{"a level nobody plays", map[string]bot.Player{}},
	} {
		t.Run(c.name+" is an error without a replacement", func(t *testing.T) {
			m := newMatch(t, engine.DefaultOptions(engine.Partnership), engine.Seed{3, 3},
				engine.Seat{Bot: "x"}, engine.Seat{Bot: "x"}, engine.Seat{Bot: "x"}, engine.Seat{Bot: "x"})
			if err := Play(m, c.players, "medium", nil); !errors.Is(err, ErrStuck) {
				t.Fatalf("Play = %v, want ErrStuck", err)
			}
		})
		t.Run(c.name+" is replaced by easy, and reported", func(t *testing.T) {
			m := newMatch(t, engine.DefaultOptions(engine.Partnership), engine.Seed{3, 3},
				engine.Seat{Bot: "x"}, engine.Seat{Bot: "x"}, engine.Seat{Bot: "x"}, engine.Seat{Bot: "x"})
			reports := 0
			err := Play(m, c.players, "medium", func(seat int, level string) {
				if level != "x" {
					t.Errorf("replaced level %q, want x", level)
				}
				reports++
			})
			if err != nil || m.Status() != engine.StatusFinished {
				t.Fatalf("Play = %v, status %v; want the match finished by easy", err, m.Status())
			}
			if reports == 0 {
				t.Fatal("no replacement was reported")
			}
		})
	}
}

func TestAwaySeatsArePlayedByMediumUntilEveryoneIsAway(t *testing.T) {
	o := engine.DefaultOptions(engine.FiveUp)
	o.Players = 2
	m := newMatch(t, o, engine.Seed{9, 9}, engine.Seat{Name: "Ana"}, engine.Seat{Name: "Bea"})
	actor := m.ToAct()[0]
	if err := m.Timeout(actor); err != nil {
		t.Fatal(err)
	}
	before := len(m.Log())
	if err := Play(m, map[string]bot.Player{"medium": bot.Medium}, "medium", nil); err != nil {
		t.Fatalf("Play = %v", err)
	}
	if len(m.Log()) == before || slices.Contains(m.ToAct(), actor) && m.Status() == engine.StatusPlaying {
		t.Fatalf("the away seat was not played for: to act %v", m.ToAct())
	}
	// Everyone away: nothing is played for anybody.
	other := 1 - actor
	if err := m.Apply(other, engine.Move{Kind: engine.Away}); err != nil {
		t.Fatal(err)
	}
	before = len(m.Log())
	if err := Play(m, bot.Levels(), "medium", nil); err != nil || len(m.Log()) != before {
		t.Fatalf("Play with everyone away = %v, %d events; want nothing", err, len(m.Log())-before)
	}
}
