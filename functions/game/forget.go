package game

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"tessera/engine"
	"tessera/functions/store"
)

// Forgetting a person (issue 36, docs/forgetting.md), the game side: in
// each of its games its seats take ForgottenName, are held by nobody (a
// token hash no key has) and lose their player id, the computer plays on
// for them where the match goes on; what they said at the table is shown
// as deleted.

// ForgottenName stands for a forgotten person's name.
const ForgottenName = "—"

// ForgetSeats forgets the seats the key whose hash is hash holds in games
// ids (gone games are skipped). Each game's talk first, then the game
// through the one path of a change, so a retry after a crash between finds
// the seats again; the same again changes nothing.
func (h *Service) ForgetSeats(ctx context.Context, op Op, hash []byte, ids []string) error {
	for _, id := range ids {
		g, err := h.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		var seats []int
		for s, a := range g.State.Seats {
			if bytes.Equal(a.TokenHash, hash) {
				seats = append(seats, s)
			}
		}
		if len(seats) == 0 {
			continue
		}
		if err := h.forgetTalk(ctx, id, seats); err != nil {
			return err
		}
		nobody, err := readRandom(h.rand, HashBytes)
		if err != nil {
			return err
		}
		_, err = h.update(ctx, op, gameWrites, id, g, func(c *Change) error { // g: read above, not again
			changed := false
			for _, s := range seats {
				a := &c.Game.State.Seats[s]
				if !bytes.Equal(a.TokenHash, hash) {
					continue
				}
				if err := c.Match.Rename(s, ForgottenName); err != nil {
					return err
				}
				a.TokenHash, a.Player, a.Moves = slices.Clone(nobody), "", nil
				// Nothing of the person stays on the seat for the others to
				// read (issue 43): not the rating it sat down with, its
				// reliability, its mark, nor its key's vacation.
				a.Rating, a.Reliability, a.Provisional, a.Vacation = -1, -1, false, 0
				if c.Match.Status() == engine.StatusOpen && c.Game.State.Open && !othersSeated(c.Game.State, hash, nobody) {
					// Its own table, still waiting, with nobody else at
					// it: out of the room (it stays a game by link).
					c.Game.State.Open = false
				}
				if c.Match.Status() == engine.StatusPlaying && !c.Match.Seat(s).Away {
					if err := c.Match.Apply(s, engine.Move{Kind: engine.Away}); err != nil {
						return fmt.Errorf("%w: %v", ErrInternal, err)
					}
				}
				changed = true
			}
			if !changed {
				return ErrUnchanged
			}
			return nil
		})
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

// forgetTalk shows the messages of game id's seats as deleted and drops
// what their limits kept.
func (h *Service) forgetTalk(ctx context.Context, id string, seats []int) error {
	return Retry(ctx, chatWrites, func(int) error {
		c, version, err := h.loadChat(ctx, id, 0)
		if err != nil || version == 0 {
			return err
		}
		changed := false
		for i := range c.Messages {
			m := &c.Messages[i]
			if slices.Contains(seats, m.Seat) && !m.Deleted {
				m.Text, m.Reaction, m.Deleted = nil, nil, true
				changed = true
			}
		}
		for _, s := range seats {
			if s < len(c.Seats) && (len(c.Seats[s].IDs) > 0 || len(c.Seats[s].Recent) > 0) {
				c.Seats[s].IDs, c.Seats[s].Recent = nil, nil
				changed = true
			}
		}
		if !changed {
			return nil
		}
		b, err := encodeChat(c)
		if err != nil {
			return err
		}
		now := h.now()
		return h.store.Save(ctx, ChatItemID(id), b, version, now, time.Time{}, gameExpiry(now))
	})
}

// HeldSeat is a seat a key holds, for its export.
type HeldSeat struct {
	Game string
	Seat int
	Name string
}

// SaidAt is a message a key's seat said, for its export.
type SaidAt struct {
	Game    string
	Message ChatMessage
}

// SeatsOf lists the seats the key whose hash is hash holds in games ids
// and what they said at those tables (gone games are skipped).
func (h *Service) SeatsOf(ctx context.Context, hash []byte, ids []string) ([]HeldSeat, []SaidAt, error) {
	var seats []HeldSeat
	var said []SaidAt
	for len(ids) > 0 {
		n := min(len(ids), store.MaxLoadMany)
		items, err := h.store.LoadMany(ctx, ids[:n])
		if err != nil {
			return nil, nil, err
		}
		for _, id := range ids[:n] {
			it, ok := items[id]
			if !ok {
				continue
			}
			g, err := OpenLoaded(id, it)
			if err != nil {
				return nil, nil, err
			}
			m, err := g.Replay()
			if err != nil {
				return nil, nil, err
			}
			var mine []int
			for s, a := range g.State.Seats {
				if bytes.Equal(a.TokenHash, hash) {
					mine = append(mine, s)
					seats = append(seats, HeldSeat{Game: id, Seat: s, Name: m.Seat(s).Name})
				}
			}
			if len(mine) == 0 || g.State.Chat == 0 {
				continue
			}
			c, _, err := h.loadChat(ctx, id, 0)
			if err != nil {
				return nil, nil, err
			}
			for _, msg := range c.Messages {
				if slices.Contains(mine, msg.Seat) {
					said = append(said, SaidAt{Game: id, Message: msg})
				}
			}
		}
		ids = ids[n:]
	}
	return seats, said, nil
}

// ForgetRecord deletes the record of the key whose hash is hash, with its
// devices and its list of games: the last step of forgetting a person
// (community's Forget), which finds the games through it, so it goes
// after them. An absent record is no error.
func (h *Service) ForgetRecord(ctx context.Context, hash []byte) error {
	return h.store.Delete(ctx, PlayerID(hash))
}

// othersSeated reports whether a person other than the key whose hash is
// hash (or the forgotten seat's nobody) holds a seat of st.
func othersSeated(st *Stored, hash, nobody []byte) bool {
	for _, a := range st.Seats {
		if a.TokenHash != nil && !bytes.Equal(a.TokenHash, hash) && !bytes.Equal(a.TokenHash, nobody) {
			return true
		}
	}
	return false
}
