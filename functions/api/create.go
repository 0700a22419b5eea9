package api

import (
	"errors"
	"fmt"
	"net/http"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
)

// createAttempts bounds the fresh ids a create tries when one exists.
const createAttempts = 5

// create is POST /api/games: a new match with the creator in seat 0 and the
// computer players asked for. If that fills the table, the first hand is
// dealt and played until a person must act, all at version 1.
func (h *Handler) create(c *call, body []byte) {
	req, err := decodeCreate(body, h.svc.HasLevel)
	if err != nil {
		c.fail(err)
		return
	}
	seed, err := game.NewSeed(h.rand)
	if err != nil {
		c.fail(err)
		return
	}
	m, err := engine.NewMatch(req.Options, seed)
	if err != nil {
		c.fail(err)
		return
	}
	token, hash, err := h.svc.SeatToken(req.Key)
	if err != nil {
		c.fail(err)
		return
	}
	if err := m.TakeSeat(0, engine.Seat{Name: req.Name}); err != nil {
		c.fail(err)
		return
	}
	for _, b := range req.Bots {
		if err := m.TakeSeat(b.Seat, engine.Seat{Name: game.BotName(b.Seat), Bot: b.Level}); err != nil {
			c.fail(err)
			return
		}
	}
	if err := h.svc.RunBots(m, &c.think); err != nil {
		c.fail(err)
		return
	}
	now := h.now()
	st := game.NewStored(m, hash)
	st.MoveTime = req.MoveTime
	st.AfterChange(m, game.Before{}, now)
	ctx := c.r.Context()
	for attempt := 0; ; attempt++ {
		id, err := game.NewGameID(h.rand)
		if err != nil {
			c.fail(err)
			return
		}
		if req.Key != "" {
			// The record first: see player.go.
			if err := h.svc.AddToRecord(ctx, hash, id); err != nil {
				c.fail(err)
				return
			}
		}
		err = h.svc.CreateGame(ctx, id, st, now)
		if errors.Is(err, store.ErrExists) && attempt+1 < createAttempts {
			continue
		}
		if errors.Is(err, store.ErrExists) {
			err = fmt.Errorf("%w: %d game ids in a row exist", game.ErrInternal, createAttempts)
		}
		if err != nil {
			c.fail(err)
			return
		}
		c.gameID, c.seat, c.version = id, 0, 1
		c.writeJSON(http.StatusCreated, seatAnswer{Game: answer(m, 0, st.Meta(id, 1, now)), Seat: 0, Token: token})
		return
	}
}
