package game

import (
	"context"
	"fmt"

	"tessera/engine"
	"tessera/functions/store"
)

// Reading a game: Load (strong), LoadHeld (a moment stale where that is
// harmless), Read (API.md's poll: as of now, deadlines applied), Games
// (the community's), and what a read gives (Loaded).

// Loaded is a game as read from the store.
type Loaded struct {
	Item  store.Item
	State *Stored
}

// OpenLoaded checks and parses item, as game id was read from the store
// (OpenStored), into a Loaded.
func OpenLoaded(id string, item store.Item) (*Loaded, error) {
	st, err := OpenStored(id, item)
	if err != nil {
		return nil, err
	}
	return &Loaded{Item: item, State: st}, nil
}

// Version is the game's version as API.md counts it (Stored.Version;
// the store's Item.Version counts writes, notes too).
func (g *Loaded) Version() int64 { return g.State.Version }

// Meta is what the service adds to the rules' view of game id as read.
func (g *Loaded) Meta(id string) Meta { return g.State.Meta(id, g.State.Version, g.Item.UpdatedAt) }

// Replay rebuilds the stored match (Stored.Replay).
func (g *Loaded) Replay() (*engine.Match, error) { return g.State.Replay() }

// View replays the stored match and answers seat's view of it (a
// spectator's for engine.Spectator).
func (g *Loaded) View(seat int) (*engine.View, error) {
	m, err := g.Replay()
	if err != nil {
		return nil, err
	}
	return m.View(seat), nil
}

// loadMatch reads game id (Load) and replays its match.
func (h *Service) loadMatch(ctx context.Context, id string) (*Loaded, *engine.Match, error) {
	g, err := h.Load(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	m, err := g.Replay()
	if err != nil {
		return nil, nil, err
	}
	return g, m, nil
}

// catchUp applies every deadline of g (game id) that has passed: the seats
// become away, the computer plays for them, and that is saved as one
// change (API.md: any request sees the game as of now). It is the one
// place a read decides to write. A timeout racing a move is one
// conditional save against another: exactly one applies, and CatchUp
// reloads and returns the game as it then is. host names the site for
// the pushes' VAPID contact when none is configured.
func (h *Service) catchUp(ctx context.Context, host, id string, g *Loaded, t *Thinking) (*Loaded, error) {
	if len(g.State.overdue(h.now())) == 0 {
		return g, nil // most reads: nothing to replay
	}
	c, err := h.update(ctx, Op{Host: host, Think: t}, gameWrites, id, g, h.timeouts)
	if err != nil {
		return nil, err
	}
	return c.Game, nil
}

// Load reads game id: store.ErrNotFound for an id that cannot exist or is
// not stored, engine.ErrCorrupt for a stored game that does not decode.
func (h *Service) Load(ctx context.Context, id string) (*Loaded, error) {
	if !ValidGameID(id) {
		return nil, fmt.Errorf("load %q: %w", id, store.ErrNotFound)
	}
	item, err := h.store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	return OpenLoaded(id, item)
}

// LoadHeld reads game id for a reader that holds its version held (0:
// none). Where the store offers it (store.Eventual; half the read's price
// on DynamoDB) the read may be a moment stale: an item at that version
// answers the reader at worst a moment late, and a newer one is a true
// read of the game. An item older than held, or none, is read again
// strongly, and so is every read without a version. docs/consistency.md.
func (h *Service) LoadHeld(ctx context.Context, id string, held int64) (*Loaded, error) {
	ev, ok := h.store.(store.Eventual)
	if !ok || held == 0 || !ValidGameID(id) {
		return h.Load(ctx, id)
	}
	item, err := ev.LoadEventual(ctx, id)
	if err != nil {
		return h.Load(ctx, id)
	}
	g, err := OpenLoaded(id, item)
	if err != nil || g.Version() < held {
		return h.Load(ctx, id)
	}
	return g, nil
}

// Read is a read of game id as of now (API.md's poll): the game at the
// version its reader holds where that is cheaper (LoadHeld), the reader's
// seat (engine.Spectator for a reader that named no token; ErrUnauthorized
// for a token that holds no seat: named but token "", a malformed one),
// and every deadline passed applied first (catchUp). The checks come in
// API.md's order: 404, then 401.
func (h *Service) Read(ctx context.Context, op Op, id, token string, named bool, held int64) (*Loaded, int, error) {
	g, err := h.LoadHeld(ctx, id, held)
	if err != nil {
		return nil, 0, err
	}
	seat := engine.Spectator
	if named {
		if seat, err = seatOf(g, token); err != nil {
			return nil, 0, err
		}
	}
	if g, err = h.catchUp(ctx, op.Host, id, g, op.Think); err != nil {
		return nil, 0, err
	}
	return g, seat, nil
}

// Games reads the games ids (any number: LoadMany at a time) as Load
// does, for the community's pages and rules (it never reads the store's
// game items itself): the ones present, by id. An absent id is not in the
// map; a game that does not open (corrupt) is skipped and logged.
func (h *Service) Games(ctx context.Context, ids []string) (map[string]*Loaded, error) {
	items, err := store.LoadAll(ctx, h.store, ids)
	if err != nil {
		return nil, err
	}
	out := map[string]*Loaded{}
	for id, it := range items {
		g, err := OpenLoaded(id, it)
		if err != nil {
			h.log.Warn("games: a stored game does not open", "gameId", id, "cause", LogCause(err))
			continue
		}
		out[id] = g
	}
	return out, nil
}
