// Package referee runs the computer seats of a match: it asks each computer
// seat's player for a move from that seat's view alone, and applies it,
// until a person must act or the match is over. It is the one place where a
// bot.Player meets an engine.Match (the players themselves never see one);
// the API and the arena both play through it.
package referee

import (
	"errors"
	"fmt"

	"tessera/engine"
	"tessera/engine/bot"
)

// ErrStuck is a computer seat that must act and could not: its player had
// no move the rules accept and nothing replaced it, or the match did not
// come to a person within maxMoves.
var ErrStuck = errors.New("referee: a computer seat could not move")

// maxMoves bounds the computer moves of one Play. Every applied move brings
// the match nearer its end, so only a faulty player could reach it; a whole
// match to 1000 takes a few thousand.
const maxMoves = 100000

// Replaced is told that the seat's player (of level) is not among the
// players, or chose nothing the rules accept, just before bot.Easy moves for
// it once. Its arguments name no tile: a refused move may hold hidden ones.
type Replaced func(seat int, level string)

// Play makes the computer seats' moves (a seat whose Seat.Bot names its
// level in players, and a person's seat that is away, played at the level
// away, the service's choice) until a person must act or the match is over. With
// replaced nil, a player that has no acceptable move is an ErrStuck error
// (the arena wants to know); with replaced set, bot.Easy moves for it once
// so that a game never stalls on a computer seat (the service wants that).
func Play(m *engine.Match, players map[string]bot.Player, away string, replaced Replaced) error {
	return play(m, players, away, replaced, false)
}

// PlayOn is Play that plays on while every person is away (API.md: in an
// open game the computer plays every away seat, so every open game ends).
func PlayOn(m *engine.Match, players map[string]bot.Player, away string, replaced Replaced) error {
	return play(m, players, away, replaced, true)
}

func play(m *engine.Match, players map[string]bot.Player, away string, replaced Replaced, on bool) error {
	for range maxMoves {
		seat := nextComputer(m, on)
		if seat < 0 {
			return nil
		}
		v := m.View(seat)
		seed := m.BotSeed(seat)
		level := levelOf(m.Seat(seat), away)
		var refused error
		if p, ok := players[level]; ok {
			mv, ok := p(v, seed)
			if !ok {
				refused = errors.New("it has nothing to do")
			} else if refused = m.Apply(seat, mv); refused == nil {
				continue
			}
		} else {
			refused = errors.New("no player of that level")
		}
		if replaced == nil {
			return fmt.Errorf("%w: seat %d (%s): %w", ErrStuck, seat, level, refused)
		}
		replaced(seat, level)
		mv, ok := bot.Easy(v, seed)
		if !ok {
			return fmt.Errorf("%w: seat %d has nothing to do but must act", ErrStuck, seat)
		}
		if err := m.Apply(seat, mv); err != nil {
			// Its text may name a hidden tile: it is not passed on.
			return fmt.Errorf("%w: seat %d: the easy player's move was refused", ErrStuck, seat)
		}
	}
	return fmt.Errorf("%w: no person to act after %d computer moves", ErrStuck, maxMoves)
}

// nextComputer is the first seat a computer plays (a computer's, or a
// person's who is away) that must act now, or -1. While every person is
// away, nothing is played for anybody (-1), unless on.
func nextComputer(m *engine.Match, on bool) int {
	if m.AllAway() && !on {
		return -1
	}
	for _, s := range m.ToAct() {
		if seat := m.Seat(s); seat.Bot != "" || seat.Away {
			return s
		}
	}
	return -1
}

// levelOf is the level that plays a seat: its own, or away for a person
// who is away.
func levelOf(s engine.Seat, away string) string {
	if s.Bot != "" {
		return s.Bot
	}
	return away
}
