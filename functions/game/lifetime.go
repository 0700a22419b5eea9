package game

import (
	"context"
	"time"

	"tessera/functions/store"
)

// Every stored kind of item has its own lifetime (docs/expiry.md):
//
//   - a game: store.TTL (180 days) after its last write;
//   - the VAPID key pair: never (a new pair would silence every device);
//   - a player record with games: as long as any of its games lives. It
//     is written with store.TTL + recordWindow to live, and refreshed by
//     the first write of each of its games in every recordWindow (below);
//   - a player record without games (push devices only): bareRecordTTL
//     after its last write.
const (
	recordWindow  = 30 * 24 * time.Hour
	bareRecordTTL = 30 * 24 * time.Hour
)

// gameExpiry is when a game written at now may be deleted.
func gameExpiry(now time.Time) time.Time { return now.Add(store.TTL) }

// recordExpiry is when player record p, written at now, may be deleted.
func recordExpiry(p *Record, now time.Time) time.Time {
	if len(p.Games) == 0 {
		return now.Add(bareRecordTTL)
	}
	return now.Add(store.TTL + recordWindow)
}

// windowOf numbers the recordWindow a time falls in.
func windowOf(t time.Time) int64 { return t.Unix() / int64(recordWindow/time.Second) }

// keepRecords refreshes the player records of the game's seats when the
// game's last write (last) was in an earlier recordWindow than now. Then
// every record of a seat lives at least store.TTL + recordWindow from the
// start of now's window: past the game's own expiry after any write in
// that window. A record is written when its key takes a seat, so a game's
// writes in its first window need none. A seat whose token is no key has
// no record: nothing to refresh.
func (h *Service) keepRecords(ctx context.Context, st *Stored, last, now time.Time) error {
	if windowOf(last) == windowOf(now) {
		return nil
	}
	done := map[string]bool{}
	for _, a := range st.Seats {
		if a.TokenHash == nil || done[string(a.TokenHash)] {
			continue
		}
		done[string(a.TokenHash)] = true
		if err := h.refreshRecord(ctx, a.TokenHash); err != nil {
			return err
		}
	}
	return nil
}

// refreshRecord writes the record of hash again, as it is, so that its
// expiry starts again from now; nothing when there is none (a key-less
// seat's token has no record; an empty record needs no life).
func (h *Service) refreshRecord(ctx context.Context, hash []byte) error {
	return h.UpdatePlayer(ctx, hash, func(p *Record) bool { return len(p.Games)+len(p.Devices) > 0 })
}
