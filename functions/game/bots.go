package game

import (
	"fmt"
	"maps"
	"strconv"

	"tessera/engine"
	"tessera/engine/bot"
	"tessera/engine/bot/referee"
)

// botNames are the names the server gives computer seats, by seat (seat 0
// is always the creator's): friendly, and unlike "Bot 1" for the second
// seat, no number that disagrees with the page's "Seat 2"; no word of the
// game either, in English or Italian ("Spinner played below the spinner",
// "Pip" beside pips, issue 26). Games made before keep their names.
var botNames = [...]string{1: "Otto", 2: "Lina", 3: "Bruno"}

// BotName is the name the server gives a computer seat.
func BotName(seat int) string {
	if seat > 0 && seat < len(botNames) {
		return botNames[seat]
	}
	return "Computer " + strconv.Itoa(seat+1)
}

// HardPerRequest bounds the searching decisions one request makes, in hard
// decisions (and so its CPU: a hard decision is 1,200 playouts, 5-30 ms on
// one core here; an expert one is 2,400 and counts as two). Past it, the
// searching seats play at the medium level until the request ends. A
// person's move is followed by at most 3 computer decisions in the usual
// turn order; more come only when people are passed over
// (docs/ratelimit.md).
const HardPerRequest = 12

// Thinking counts one request's searching decisions, in hard decisions.
type Thinking struct{ Hard int }

// searching are the levels that search, with what one decision counts in
// Thinking.
var searching = map[string]int{levelHard: 1, levelExpert: bot.ExpertPlayouts / bot.HardPlayouts}

// Players is h.bots, with the searching levels counted in t and bounded by
// HardPerRequest.
func (h *Service) Players(t *Thinking) map[string]bot.Player {
	if t == nil {
		return h.bots
	}
	out := maps.Clone(h.bots)
	fallback := bot.Medium
	if m, ok := h.bots[levelMedium]; ok {
		fallback = m
	}
	for level, cost := range searching {
		search, ok := h.bots[level]
		if !ok {
			continue
		}
		out[level] = func(v *engine.View, seed uint64) (engine.Move, bool) {
			if v != nil && v.You != nil && v.You.Confirm {
				return search(v, seed) // the redeal question: no search
			}
			if t.Hard+cost > HardPerRequest {
				return fallback(v, seed)
			}
			t.Hard += cost
			return search(v, seed)
		}
	}
	return out
}

// The levels players counts and falls back to; awayLevel plays for a person
// who is away (API.md, Clocks: "as the server's medium level").
const (
	levelExpert = "expert"
	levelHard   = "hard"
	levelMedium = "medium"
	awayLevel   = levelMedium
)

// RunBots makes the computer players' moves until a person must act or the
// match is over. A player whose level is no longer offered, or whose move
// the engine refuses, is replaced by the easy one for that move (and
// logged, without the move: it may name the seat's hidden tiles), so that a
// game never gets stuck on a computer seat.
//
// In an open game (open) the computer plays on for away seats even when
// every person is away (API.md "Open tables").
func (h *Service) RunBots(m *engine.Match, t *Thinking, open bool) error {
	play := referee.Play
	if open {
		play = referee.PlayOn
	}
	err := play(m, h.Players(t), awayLevel, func(seat int, level string) {
		h.log.Warn("computer player replaced by easy for one move", "seat", seat, "level", level)
	})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInternal, err)
	}
	return nil
}

// HasLevel reports whether the server offers a bot level.
func (h *Service) HasLevel(level string) bool {
	_, ok := h.bots[level]
	return ok
}
