package game

import (
	"context"
	"errors"
	"time"

	"tessera/functions/store"
)

// The only writes of a game item (docs/store.md). Every one is
// conditional on the store's version the writer read and writes the
// next: there is no write at the same version, so nothing a writer wrote
// is overwritten by one that read before it.
//
//   - createGame: a new game (change.go's write, for its maker);
//   - saveGame: a change (change.go's write): the game's version, as
//     API.md counts it, goes up by one;
//   - saveNote: a note (note, below): what the service records about a
//     game without changing it (a chat's seq, a hint's mark, the settle
//     mark, a reminder sent, a due time corrected). The game's version,
//     its time of the last change and its expiry stay; the store's
//     version still goes up, so a note and a change that race are one
//     conditional write against another, and the loser reads again.

// saveGame writes game id in place of the stored item prev at the next
// version, on condition that the stored version is still prev's (its
// players' records are kept alive first: keepRecords), and returns the
// item it wrote.
func (h *Service) saveGame(ctx context.Context, id string, st *Stored, prev store.Item, now time.Time) (store.Item, error) {
	if err := h.keepRecords(ctx, st, prev.UpdatedAt, now); err != nil {
		return store.Item{}, err
	}
	return h.saveItem(ctx, id, st, prev, now, gameExpiry(now))
}

// saveNote writes game id, noted, in place of prev at the next store
// version, keeping prev's time of the last change and its expiry (st's
// Version is the game's, unchanged).
func (h *Service) saveNote(ctx context.Context, id string, st *Stored, prev store.Item) (store.Item, error) {
	return h.saveItem(ctx, id, st, prev, prev.UpdatedAt, prev.Expires)
}

// saveItem is the one conditional save of a stored game: st sealed at
// prev's store version + 1, with its lobby entry (community.Entry) and
// due time.
func (h *Service) saveItem(ctx context.Context, id string, st *Stored, prev store.Item, at, expires time.Time) (store.Item, error) {
	e, err := h.community.Entry(id, st)
	if err != nil {
		return store.Item{}, err
	}
	saved := store.Written(prev.Version+1, SealStored(id, prev.Version+1, st), at, st.Due(), expires)
	saved.Entry = e
	ctx = SaveContext(ctx)
	if e.List == "" {
		err = h.store.Save(ctx, id, saved.State, prev.Version, at, saved.Due, saved.Expires) // in no list
	} else {
		err = h.store.SaveListed(ctx, id, saved.State, prev.Version, at, saved.Due, saved.Expires, e)
	}
	if err != nil {
		return store.Item{}, err
	}
	return saved, nil
}

// createGame stores a new game at version 1.
func (h *Service) createGame(ctx context.Context, id string, st *Stored, now time.Time) error {
	e, err := h.community.Entry(id, st)
	if err != nil {
		return err
	}
	if e.List == "" {
		return h.store.Create(ctx, id, SealStored(id, 1, st), now, st.Due(), gameExpiry(now))
	}
	return h.store.CreateListed(ctx, id, SealStored(id, 1, st), now, st.Due(), gameExpiry(now), e)
}

// note writes what change makes of game id without changing the game
// (saveNote): on g first (nil: read it), on the game read again after a
// lost race, as often as a change is retried; change returns ErrUnchanged
// when there is nothing to write, and is called again on every attempt,
// so what it checks is checked on the game as it is written. It returns
// the game as last read or written.
func (h *Service) note(ctx context.Context, id string, g *Loaded, change func(g *Loaded) error) (*Loaded, error) {
	err := Retry(ctx, gameWrites, func(attempt int) error {
		if g == nil || attempt > 0 {
			var err error
			if g, err = h.Load(ctx, id); err != nil {
				return err
			}
		}
		if err := change(g); err != nil {
			return err
		}
		saved, err := h.saveNote(ctx, id, g.State, g.Item)
		if err != nil {
			return err
		}
		g.Item = saved
		return nil
	})
	if errors.Is(err, ErrUnchanged) {
		err = nil
	}
	return g, err
}
