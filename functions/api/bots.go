package api

import (
	"fmt"
	"strconv"

	"tessera/engine"
	"tessera/engine/bot/referee"
)

// botName is the name the server gives a computer seat.
func botName(seat int) string { return "Bot " + strconv.Itoa(seat) }

// runBots makes the computer players' moves until a person must act or the
// match is over. A player whose level is no longer offered, or whose move
// the engine refuses, is replaced by the easy one for that move (and
// logged, without the move: it may name the seat's hidden tiles), so that a
// game never gets stuck on a computer seat.
func (h *Handler) runBots(m *engine.Match) error {
	err := referee.Play(m, h.bots, func(seat int, level string) {
		h.log.Warn("computer player replaced by easy for one move", "seat", seat, "level", level)
	})
	if err != nil {
		return fmt.Errorf("%w: %v", errInternal, err)
	}
	return nil
}

// hasLevel reports whether the server offers a bot level.
func (h *Handler) hasLevel(level string) bool {
	_, ok := h.bots[level]
	return ok
}
