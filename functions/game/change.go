package game

import (
	"context"
	"errors"
	"slices"
	"time"

	"tessera/engine"
	"tessera/functions/store"
)

// One path for every change of a game (docs/settling.md, STYLE.md 18).
// Whatever makes or changes a game (a create, a seat taken, a move, away
// and back, a timeout, a vacation's start or end, a rematch, a
// tournament round's game) is a Change that goes through commit:
//
//  1. the computers play until a person must act;
//  2. the clocks and event times are brought up to date;
//  3. a match that has just ended is marked for settling (markEnd);
//  4. the game is written on condition: Create for a new game (version
//     1), else Save at the next version;
//
// and then, once written, through after:
//
//  5. the pushes of the change (or the caller's own messages), and for a
//     new game the community's (a league tells its members);
//  6. every keyed seat's list (/api/me) gets the game back if it had
//     dropped it;
//  7. a match that ended is settled, exactly once (settleNow; the sweep
//     finishes what a crash left).
//
// A stored game is changed by update (load, replay once, apply, commit,
// retried on a lost race as its kind allows, then after); a new one by
// its maker, which calls commit and after itself.

// Change is one change of a game on its way to the store.
type Change struct {
	ID    string
	Game  *Loaded // as loaded; Game.Item.Version 0 for a game not stored yet
	Match *engine.Match
	// Was is the match before the change (Snapshot); a new game's is
	// Before{}: every event of it is news.
	Was Before
	// Cause is the token hash of the seat that made the change: it hears
	// nothing of it (nil: the clock, the sweep, a maker).
	Cause []byte
	// Device is the digest (deviceDigest) of the device whose page made
	// the change ("" none): its watch hears nothing of it (the page has
	// the answer); the seat's other devices still do.
	Device string
	// Messages, when set, are the pushes to send in place of the
	// change's own (a rematch, a tournament's round).
	Messages map[int]Message
	// Saved is the item written (zero: nothing was); Game.Item is it too
	// once written.
	Saved store.Item
	// read is the game's version (Stored.Version) the change was read at
	// (0: a new game): write makes it read + 1.
	read int64
}

// newChange is the Change of a game not stored yet, id, holding st and m.
func newChange(id string, st *Stored, m *engine.Match) *Change {
	return &Change{ID: id, Game: &Loaded{State: st}, Match: m}
}

// commit runs steps 1 to 4 above (prepare, then write).
func (h *Service) commit(ctx context.Context, op Op, c *Change) error {
	if err := h.prepare(ctx, op, c); err != nil {
		return err
	}
	return h.write(ctx, c)
}

// prepare runs steps 1 to 3 above: what the change does to the game
// before it is written, whatever its id.
func (h *Service) prepare(ctx context.Context, op Op, c *Change) error {
	st, m := c.Game.State, c.Match
	think := op.Think
	if think == nil {
		think = &Thinking{} // the sweep's: one game's budget, as a request's
	}
	if err := h.RunBots(m, think, st.Open); err != nil {
		return err
	}
	now := h.now()
	st.afterChange(m, c.Was, now)
	st.Match = engine.Encode(m)
	return h.markEnd(ctx, st, m, now)
}

// write is step 4 above. A lost race is the store's ErrConflict
// (ErrExists for a new game); nothing is written then.
func (h *Service) write(ctx context.Context, c *Change) error {
	st, now := c.Game.State, h.now()
	st.Version = c.read + 1
	if c.read == 0 {
		if err := h.createGame(SaveContext(ctx), c.ID, st, now); err != nil {
			return err
		}
		c.Saved = store.Written(1, SealStored(c.ID, 1, st), now, st.Due(), gameExpiry(now))
		c.Game.Item = c.Saved
		return nil
	}
	saved, err := h.saveGame(ctx, c.ID, st, c.Game.Item, now)
	if err != nil {
		return err
	}
	c.Saved, c.Game.Item = saved, saved // the game is now as written
	return nil
}

// after runs steps 5 to 7 above for a change commit wrote. Nothing here
// fails the change: what cannot be done now is logged and left to the
// sweep (the settling) or lost (a push). The records of a stored game's
// keyed seats are read once (one LoadMany) for both the pushes' devices
// and the lists.
func (h *Service) after(ctx context.Context, op Op, c *Change) {
	st := c.Game.State
	msgs := c.Messages
	if msgs == nil && h.push != nil {
		msgs = Messages(c.ID, c.Game.Version(), c.Match, st, c.Was, c.Cause)
	}
	var records map[string]store.Item // nil: not read (a new game, or a failure, logged)
	to := deliveries(st, msgs)
	if c.read > 0 {
		records = h.seatRecords(ctx, c.ID, st)
		// The pages that show the game hear of every move (watch.go); its
		// leases come in the same read as the records.
		w, ok := records[WatchItemID(c.ID)]
		to = h.watchDeliveries(c, to, watchers(w, ok, h.now()))
	}
	h.sendWith(ctx, op.Host, c.ID, c.Game.Version(), to, records)
	if c.read > 0 {
		h.relist(ctx, c.ID, st, records)
	} else if err := h.community.Made(ctx, op.Host, c.ID, st, c.Match); err != nil {
		h.log.Warn("community: a new game not told", "gameId", c.ID, "cause", LogCause(err))
	}
	h.settleNow(ctx, op.Host, c.ID, st)
}

// update is the one path of a change to stored game id: load (g when the
// caller holds it, for the first attempt), replay once, apply, commit;
// a lost race is tried again on the game as it then is, as kind allows;
// then after. apply returns ErrUnchanged when there is nothing to write:
// update then answers the Change as loaded, Saved zero.
func (h *Service) update(ctx context.Context, op Op, kind WriteKind, id string, g *Loaded, apply func(c *Change) error) (*Change, error) {
	var (
		c   *Change
		err error
	)
	for attempt := 0; ; attempt++ {
		if g == nil || attempt > 0 {
			if g, err = h.Load(ctx, id); err != nil {
				return nil, err
			}
		}
		var m *engine.Match
		if m, err = g.State.Replay(); err != nil {
			return nil, err
		}
		c = &Change{ID: id, Game: g, Match: m, Was: Snapshot(m), read: g.State.Version}
		if err = apply(c); err == nil {
			err = h.commit(ctx, op, c)
		}
		if !isLostRace(err) {
			break
		}
		if !kind.again(ctx, attempt) {
			return nil, kind.lost()
		}
	}
	if errors.Is(err, ErrUnchanged) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	h.after(ctx, op, c)
	return c, nil
}

// seatRecords reads the records of st's keyed seats (by PlayerID) and,
// when pushes go out, the game's watch leases (WatchItemID), in one read;
// nil when the read fails (logged: the next change reads them again).
func (h *Service) seatRecords(ctx context.Context, id string, st *Stored) map[string]store.Item {
	var ids []string
	if h.watching() {
		ids = append(ids, WatchItemID(id))
	}
	for _, a := range st.Seats {
		if a.TokenHash != nil && !slices.Contains(ids, PlayerID(a.TokenHash)) {
			ids = append(ids, PlayerID(a.TokenHash))
		}
	}
	if len(ids) == 0 {
		return map[string]store.Item{}
	}
	items, err := h.store.LoadMany(SaveContext(ctx), ids)
	if err != nil {
		h.log.Warn("records: not read after a change", "gameId", id, "cause", LogCause(err))
		return nil
	}
	return items
}

// relist puts game id back in the list of every keyed seat of st whose
// record (records, as seatRecords read them) no longer has it: a key's
// record keeps the 100 games it joined last, so a key in more than 100
// games dropped the oldest, and API.md's /api/me lists the most recently
// updated, whoever updated them (docs/players.md). A write only for a
// record without the game; a failure is logged, and the next change
// tries again.
func (h *Service) relist(ctx context.Context, id string, st *Stored, records map[string]store.Item) {
	ctx = SaveContext(ctx)
	done := map[string]bool{}
	for _, a := range st.Seats {
		item, ok := records[PlayerID(a.TokenHash)]
		if a.TokenHash == nil || !ok || done[PlayerID(a.TokenHash)] {
			continue // a seat's token that is no key has no record
		}
		done[PlayerID(a.TokenHash)] = true
		rec, err := DecodePlayer(item.State)
		if err != nil || slices.Contains(rec.Games, id) {
			continue
		}
		if err := h.AddToRecord(ctx, a.TokenHash, id); err != nil {
			h.log.Warn("records: a game not listed again", "gameId", id, "cause", LogCause(err))
		}
	}
}

// afterChange brings what the game keeps beside the match up to date
// after m changed from b at now: the clocks (clock.go), what the seats
// did that earns trophies (feats.go), a finished game's vacations, and
// the event times.
func (s *Stored) afterChange(m *engine.Match, b Before, now time.Time) {
	log := m.Log()
	noteFeats(s, log[min(b.LogLen, len(log)):])
	if m.Status() == engine.StatusFinished {
		for i := range s.Seats {
			s.Seats[i].Vacation = 0 // a finished game's seats are nobody's holiday
		}
	}
	s.startClocks(m, b, now)
	s.noteTimes(m, b, now)
}

// noteTimes notes when the events since b happened, and keeps the times
// of what a view shows: the current hand and the one before it (the
// entry that covers its first event, and every later).
func (s *Stored) noteTimes(m *engine.Match, b Before, now time.Time) {
	log := m.Log()
	if len(log) > b.LogLen {
		s.Times = append(s.Times, EventTime{UpTo: m.Seq(), At: now.UTC().Truncate(time.Second)})
	}
	first := len(log) + 1
	for i := len(log) - 1; i >= 0 && log[i].Hand >= m.HandNumber()-1; i-- {
		first = log[i].Seq
	}
	k := 0
	for k < len(s.Times)-1 && s.Times[k].UpTo < first {
		k++
	}
	s.Times = s.Times[k:]
}
