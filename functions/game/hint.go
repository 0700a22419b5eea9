package game

import (
	"context"
	"fmt"

	"tessera/engine"
	"tessera/engine/bot"
)

// Hints, table notes and the look back at a hand (issue 35,
// docs/hints.md): the expert's advice for a seat, from its own view only
// (bot.Advise, bot.TableNotes), and a public mark in the game for every
// hint asked.

// MaxHints bounds the hints a game keeps (each asked hint is kept: the
// log shows it); past it a hint is ErrLimitReached.
const MaxHints = 255

// HintMark is a hint asked: by seat, when the match's last event was Seq.
type HintMark struct {
	Seat int
	Seq  int
}

// HintsOn reports whether the game's seats may ask for hints: friendly
// games (not rated, not a tournament's) and the games of a league that
// allows them.
func (s *Stored) HintsOn() bool {
	return !s.Rated && s.Tournament == "" && (s.League == "" || s.LeagueHints)
}

// Hint is POST /api/games/{id}/hint for the seat token holds: the
// expert's advice on its decision, after the mark that it asked is in the
// game (a second ask on the same decision is answered without a second
// mark). Not in games without hints (ErrNotEligible), not when the seat
// has no play to choose (engine.ErrNotYourTurn).
func (h *Service) Hint(ctx context.Context, op Op, id, token string) (bot.Advice, Meta, error) {
	g, seat, err := h.Read(ctx, op, id, token, true, 0)
	if err != nil {
		return bot.Advice{}, Meta{}, err
	}
	if !g.State.HintsOn() {
		return bot.Advice{}, Meta{}, fmt.Errorf("%w: hints are not for rated games, tournaments or this league", ErrNotEligible)
	}
	var m *engine.Match
	g, err = h.note(ctx, id, g, func(g *Loaded) error {
		var err error
		if m, err = g.Replay(); err != nil {
			return err
		}
		if m.Status() != engine.StatusPlaying || m.Phase() != engine.PhasePlay || m.Turn() != seat {
			return fmt.Errorf("%w: a hint is for your turn to play", engine.ErrNotYourTurn)
		}
		// One play (or none): nothing to choose, nothing to ask, and no
		// mark that would tell the table a hint was needed (issue 44).
		if len(m.AppendLegal(seat, nil)) < 2 {
			return fmt.Errorf("%w: a hint is for a choice, and you have one play", ErrNotEligible)
		}
		mark := HintMark{Seat: seat, Seq: m.Seq()}
		if len(g.State.Hints) > 0 && g.State.Hints[len(g.State.Hints)-1] == mark {
			return ErrUnchanged // asked already: marked
		}
		if len(g.State.Hints) >= MaxHints {
			return fmt.Errorf("%w: %d hints a game", ErrLimitReached, MaxHints)
		}
		// The mark changes what every reader's view shows but not the
		// game's version (a note, as the table talk's seq): the ETag
		// names it.
		g.State.Hints = append(g.State.Hints, mark)
		return nil
	})
	if err != nil {
		return bot.Advice{}, Meta{}, err
	}
	advice, ok := bot.Advise(m.View(seat), m.BotSeed(seat))
	if !ok {
		return bot.Advice{}, Meta{}, fmt.Errorf("%w: nothing to choose", engine.ErrNotYourTurn)
	}
	return advice, g.Meta(id), nil
}

// Notes is GET /api/games/{id}/notes for the seat token holds: its table
// notes, read from its view alone (engine.ErrNotYourTurn-free: any seat,
// any time a hand is in play; ErrNotEligible when none is).
func (h *Service) Notes(ctx context.Context, op Op, id, token string) (bot.Notes, error) {
	g, seat, err := h.Read(ctx, op, id, token, true, 0)
	if err != nil {
		return bot.Notes{}, err
	}
	v, err := g.View(seat)
	if err != nil {
		return bot.Notes{}, err
	}
	n, ok := bot.TableNotes(v)
	if !ok || v.Status != engine.StatusPlaying {
		return bot.Notes{}, fmt.Errorf("%w: no hand is in play", ErrNotEligible)
	}
	return n, nil
}

// ReviewedPlay is one of a seat's plays in a hand, beside the expert's
// choice at that moment.
type ReviewedPlay struct {
	Seq    int // the play's event
	Played bot.PlayAdvice
	Best   bot.PlayAdvice
	// Board is the layout the seat played on (public: every reader saw
	// it), so the look back can show what a line talks about.
	Board engine.ViewBoard
}

// ReviewBudget is the playouts of one of the look back's decisions: half
// the expert's, so that a hand's look back (up to 10 decisions) answers
// within a hint's time.
const ReviewBudget = bot.ExpertPlayouts / 2

// Review is GET /api/games/{id}/review?hand=N for the seat token holds:
// the seat's plays of hand N (0: the last hand that ended) that had a
// choice and were its own (not the computer's while it was away), each
// beside the expert's choice from the seat's view at that moment. A hand
// still being played is ErrNotFinished; a hand the game keeps no record
// of (all but the last two) engine.ErrBadInput; while the match goes on,
// only in games with hints (ErrNotEligible).
func (h *Service) Review(ctx context.Context, op Op, id, token string, hand int) (int, []ReviewedPlay, error) {
	g, seat, err := h.Read(ctx, op, id, token, true, 0)
	if err != nil {
		return 0, nil, err
	}
	m, err := g.Replay()
	if err != nil {
		return 0, nil, err
	}
	over := m.Status() == engine.StatusFinished
	if !over && !g.State.HintsOn() {
		return 0, nil, fmt.Errorf("%w: a look back during the match is for games with hints", ErrNotEligible)
	}
	last := m.HandNumber()
	if !over {
		last--
	}
	if hand == 0 {
		hand = last
	}
	if hand < 1 || hand > last {
		return 0, nil, fmt.Errorf("%w: hand %d has not ended", ErrNotFinished, hand)
	}
	var out []ReviewedPlay
	err = m.ReplayHand(hand, func(_ int, at *engine.Match, made engine.Choice) bool {
		if at.Turn() != seat || at.Seat(seat).Away {
			return true
		}
		v := at.View(seat)
		if len(v.You.Legal) < 2 {
			return true
		}
		a, ok := bot.AdviseWith(v, at.BotSeed(seat), ReviewBudget)
		if !ok {
			return true
		}
		r := ReviewedPlay{Seq: at.Seq() + 1, Board: v.Hand.Board} // the play is the next event
		for _, p := range a.Plays {
			if p.Move == a.Best {
				r.Best = p
			}
			if p.Move.Tile == made.Tile && p.Move.End == made.End {
				r.Played = p
			}
		}
		out = append(out, r)
		return true
	})
	if err != nil {
		return 0, nil, err
	}
	return hand, out, nil
}
