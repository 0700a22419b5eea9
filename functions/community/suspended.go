package community

import (
	"context"
	"errors"
	"slices"
	"time"

	"tessera/functions/game"
	"tessera/functions/store"
)

// The suspended players, as one small item the lobby reads with every
// lobby read (issue 43): a suspended player's tables already waiting in
// the room leave it at once, where before they stayed listed for their 7
// days (nobody could sit there, but strangers saw them and got a 409).
// The item never expires (like the VAPID keys): it is the operator's
// list. It holds player ids only, at most maxSuspended (a DynamoDB item
// holds 400 KB; past that a suspension still refuses seats and creates,
// and its tables stay listed: docs/moderation.md).
// decodeSuspended reads the item (its id checked as the item's own).
func decodeSuspended(b []byte) (*suspendedSet, error) {
	return game.DecodeJSONItem(b, suspendedFormat, "suspended players", func(*suspendedSet) string { return suspendedItemID })
}

const (
	suspendedItemID = "suspended-players"
	suspendedFormat = 1
	maxSuspended    = 10000
)

type suspendedSet struct {
	Players []string `json:"players"`
}

// suspendedPlayers is the set of suspended player ids (empty when none).
func (h *Service) suspendedPlayers(ctx context.Context) (map[string]bool, error) {
	out := map[string]bool{}
	item, err := h.store.Load(ctx, suspendedItemID)
	if errors.Is(err, store.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	s, err := decodeSuspended(item.State)
	if err != nil {
		return nil, err
	}
	for _, p := range s.Players {
		out[p] = true
	}
	return out, nil
}

// markSuspended puts pid in the set (on) or takes it out, once whatever
// retries happen (setting what is set changes nothing).
func (h *Service) markSuspended(ctx context.Context, pid string, on bool) error {
	return game.Retry(ctx, game.ProfileWrites, func(int) error {
		var s suspendedSet
		var version int64
		item, err := h.store.Load(ctx, suspendedItemID)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return err
		default:
			got, err := decodeSuspended(item.State)
			if err != nil {
				return err
			}
			s, version = *got, item.Version
		}
		if slices.Contains(s.Players, pid) == on {
			return nil
		}
		if on {
			if len(s.Players) >= maxSuspended {
				return nil // still refused everywhere else; only the lobby lists it
			}
			s.Players = append(s.Players, pid)
		} else {
			s.Players = slices.DeleteFunc(s.Players, func(p string) bool { return p == pid })
		}
		b, err := game.EncodeJSONItem(suspendedFormat, &s)
		if err != nil {
			return err
		}
		now := h.g.Now()
		return store.CreateOrSave(ctx, h.store, suspendedItemID, b, version, now, time.Time{}, time.Time{})
	})
}
