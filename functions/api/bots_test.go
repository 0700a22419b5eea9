package api

import (
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"tessera/engine"
	"tessera/engine/bot"
	"tessera/functions/store/memory"
)

// A computer seat never stalls a game: a player whose move the engine
// refuses, or whose level the server no longer offers, is replaced by the
// easy player for that move.
func TestComputerSeatsNeverStall(t *testing.T) {
	tests := []struct {
		name       string
		createBots map[string]bot.Player // the server that creates the game
		laterBots  map[string]bot.Player // the server that plays it
	}{
		{"a player that always answers an illegal move",
			map[string]bot.Player{"easy": bot.Easy, "silly": func(v *engine.View, _ uint64) (engine.Move, bool) {
				return engine.Move{Kind: engine.Play, Tile: engine.Tile{6, 6}, End: engine.EndDown}, true
			}}, nil},
		{"a player that has nothing to say",
			map[string]bot.Player{"easy": bot.Easy, "silly": func(*engine.View, uint64) (engine.Move, bool) {
				return engine.Move{}, false
			}}, nil},
		{"a level the server no longer offers",
			map[string]bot.Player{"easy": bot.Easy, "silly": bot.Easy}, bot.Levels()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.New()
			s := newServer(t, mem, 61)
			s.h = New(Config{Store: mem, Logger: slog.New(slog.NewJSONHandler(s.logs, nil)),
				Now: func() time.Time { return fixedNow }, Rand: seededReader(61), Bots: tc.createBots})
			id, tokens := s.fullGame(`{"variant":"fiveup","players":3,"target":100,"name":"Ana","bots":[{"seat":1,"level":"silly"}]}`)
			if tc.laterBots != nil {
				s.h = New(Config{Store: mem, Logger: slog.New(slog.NewJSONHandler(s.logs, nil)),
					Now: func() time.Time { return fixedNow }, Rand: seededReader(62), Bots: tc.laterBots})
			}
			p := &play{t: t, s: s, id: id, tokens: tokens, rng: rand.New(rand.NewPCG(61, 2))}
			for p.step() {
				if p.moves > 3000 {
					t.Fatalf("match not over after %d moves", p.moves)
				}
			}
			if v := s.poll(id, ""); v.Seats[1].Bot == nil || *v.Seats[1].Bot != "silly" {
				t.Errorf("seat 1 = %+v, want the silly computer still seated", v.Seats[1])
			}
		})
	}
}

// Every level the server offers plays whole matches through the handler:
// one person against three computers of that level.
func TestEveryLevelPlaysToTheEnd(t *testing.T) {
	for _, level := range []string{"easy", "medium", "hard"} {
		t.Run(level, func(t *testing.T) {
			s := newServer(t, memory.New(), 63)
			bots := `[{"seat":1,"level":"` + level + `"},{"seat":2,"level":"` + level + `"},{"seat":3,"level":"` + level + `"}]`
			id, tokens := s.fullGame(`{"variant":"partnership","target":20,"name":"Ana","bots":` + bots + `}`)
			p := &play{t: t, s: s, id: id, tokens: tokens, rng: rand.New(rand.NewPCG(63, 2))}
			for p.step() {
				if p.moves > 500 {
					t.Fatalf("match not over after %d moves", p.moves)
				}
			}
			v := s.poll(id, "")
			if v.Status != "finished" || v.Seats[2].Bot == nil || *v.Seats[2].Bot != level {
				t.Fatalf("status %s, seat 2 %+v", v.Status, v.Seats[2])
			}
		})
	}
}
