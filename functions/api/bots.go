package api

import (
	"fmt"
	"strconv"

	"tessera/engine"
	"tessera/engine/bot"
)

// BotFunc is a computer player: from its own seat's view and a seed it
// chooses a move, or reports false when it has nothing to do.
type BotFunc func(v *engine.View, seed uint64) (engine.Move, bool)

// DefaultBots are the levels offered when Config.Bots is nil: every level
// of engine/bot (easy, medium, hard).
func DefaultBots() map[string]BotFunc {
	levels := bot.Levels()
	out := make(map[string]BotFunc, len(levels))
	for name, p := range levels {
		out[name] = BotFunc(p)
	}
	return out
}

// maxBotSteps bounds the computer moves made in one request. A request
// only runs them until a person must act, which comes within a hand; the
// bound only stops a faulty player from looping.
const maxBotSteps = 10000

// botName is the name the server gives a computer seat.
func botName(seat int) string { return "Bot " + strconv.Itoa(seat) }

// runBots makes the computer players' moves until a person must act or the
// match is over. A player whose level is no longer offered, or whose move
// the engine refuses, is replaced by the easy one for that move, so that a
// game never gets stuck on a computer seat.
func (h *handler) runBots(m *engine.Match) error {
	for step := 0; step < maxBotSteps; step++ {
		seat := -1
		for _, s := range m.ToAct() {
			if m.Seat(s).Bot != "" {
				seat = s
				break
			}
		}
		if seat < 0 {
			return nil
		}
		v := m.View(seat, engine.ViewMeta{})
		seed := m.BotSeed(seat)
		level := m.Seat(seat).Bot
		if bot, ok := h.bots[level]; ok {
			if mv, ok := bot(v, seed); ok && m.Apply(seat, mv) == nil {
				continue
			}
		}
		// Logged without the move: it may name the seat's hidden tiles.
		h.log.Warn("computer player replaced by easy for one move", "seat", seat, "level", level)
		mv, ok := engine.EasyMove(v, seed)
		if !ok {
			return fmt.Errorf("%w: computer seat %d has no move", errInternal, seat)
		}
		if err := m.Apply(seat, mv); err != nil {
			_ = err // its text may name a hidden tile; it is not logged
			return fmt.Errorf("%w: computer seat %d: the easy player's move was refused", errInternal, seat)
		}
	}
	return fmt.Errorf("%w: computer players did not finish in %d moves", errInternal, maxBotSteps)
}

// hasLevel reports whether the server offers a bot level.
func (h *handler) hasLevel(level string) bool {
	_, ok := h.bots[level]
	return ok
}
