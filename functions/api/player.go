package api

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"tessera/engine"
	"tessera/functions/push"
	"tessera/functions/store"
)

// A player record is what the server keeps for one key (API.md
// "Players"): the games the key took a seat in, and its push devices. It
// is one store item beside the games, named by the key's hash, so
// `/api/me` is one read of it and one LoadMany of its games. Format 2:
//
//	format byte (playerFormat)
//	game count uvarint; per game: its id's idBytes, most recently joined first
//	device count byte; per device, oldest first: endpoint (uvarint length +
//	  bytes), p256dh (65 bytes), auth (16 bytes), lang byte (0 en, 1 it)
//
// Format 1, release 0.1.0's, is the same without the lang byte (English);
// it is still read (CHANGELOG.md), and written as format 2 by the next
// change.
//
// Taking a seat writes the record before the game (docs/players.md): a
// crash between the two leaves a game in the record whose seats do not
// hold the key, which every read checks and drops, and never a seat the
// record does not list.
const (
	playerFormat  = 2
	playerFormat1 = 1
	// maxPlayerGames bounds the games a record lists: one LoadMany.
	maxPlayerGames = store.MaxLoadMany
	// maxDevices bounds a key's push devices (API.md: at most 10, the
	// oldest goes); maxDeviceBytes is what ten take at most, each endpoint
	// being at most push.MaxEndpoint bytes (the record then stays under
	// 12 KB: three of DynamoDB's 4 KB read units at most).
	maxDevices     = 10
	maxDeviceBytes = maxDevices * (binary.MaxVarintLen16 + push.MaxEndpoint + push.PublicKeyLen + push.AuthLen + 1)
	// playerAttempts bounds the retries of a record lost to a concurrent
	// write: adding a game or a device commutes with any other change, so
	// it must not fail for losing races (attack kit D3: 16 keyed creates at
	// once with one key lost 8 in a row). Between attempts a writer waits
	// a random time that doubles, up to 64 ms: at most about 2 s in all.
	playerAttempts = 40
)

// playerID names the record of the key whose hash is h. It cannot be a
// game id (validGameID), so the two never meet.
func playerID(h []byte) string { return "player-" + hex.EncodeToString(h) }

// playerRecord is one key's record.
type playerRecord struct {
	games   []string // most recently joined first
	devices []device // oldest first
}

// device is one push subscription, and the language of its texts.
type device struct {
	endpoint string
	p256dh   []byte
	auth     []byte
	lang     lang
}

func (d device) subscription() push.Subscription {
	return push.Subscription{Endpoint: d.endpoint, P256dh: d.p256dh, Auth: d.auth}
}

// addGame puts id first, once; false if it was first already.
func (p *playerRecord) addGame(id string) bool {
	if len(p.games) > 0 && p.games[0] == id {
		return false
	}
	games := append(make([]string, 0, len(p.games)+1), id)
	for _, g := range p.games {
		if g != id && len(games) < maxPlayerGames {
			games = append(games, g)
		}
	}
	p.games = games
	return true
}

// dropGames removes the ids in gone; false if none was there.
func (p *playerRecord) dropGames(gone map[string]bool) bool {
	kept := p.games[:0:0]
	for _, g := range p.games {
		if !gone[g] {
			kept = append(kept, g)
		}
	}
	changed := len(kept) != len(p.games)
	p.games = kept
	return changed
}

// putDevice registers d, replacing an entry with its endpoint, then drops
// the oldest devices beyond maxDevices or maxDeviceBytes.
func (p *playerRecord) putDevice(d device) bool {
	p.dropDevice(d.endpoint)
	p.devices = append(p.devices, d)
	for len(p.devices) > maxDevices || p.deviceBytes() > maxDeviceBytes {
		p.devices = p.devices[1:]
	}
	return true
}

// dropDevice forgets the device with endpoint; false if none had it.
func (p *playerRecord) dropDevice(endpoint string) bool {
	for i, d := range p.devices {
		if d.endpoint == endpoint {
			p.devices = append(p.devices[:i:i], p.devices[i+1:]...)
			return true
		}
	}
	return false
}

func (p *playerRecord) deviceBytes() int {
	n := 0
	for _, d := range p.devices {
		n += binary.MaxVarintLen16 + len(d.endpoint) + push.PublicKeyLen + push.AuthLen + 1
	}
	return n
}

func encodePlayer(p *playerRecord) []byte {
	b := make([]byte, 0, 2+len(p.games)*idBytes+1+p.deviceBytes())
	b = append(b, playerFormat)
	b = binary.AppendUvarint(b, uint64(len(p.games)))
	for _, g := range p.games {
		raw, _ := idEncoding.DecodeString(g) // ids in a record are valid
		b = append(b, raw...)
	}
	b = append(b, byte(len(p.devices)))
	for _, d := range p.devices {
		b = binary.AppendUvarint(b, uint64(len(d.endpoint)))
		b = append(b, d.endpoint...)
		b = append(b, d.p256dh...)
		b = append(b, d.auth...)
		b = append(b, byte(d.lang))
	}
	return b
}

func decodePlayer(b []byte) (*playerRecord, error) {
	r := &storedReader{b: b}
	bad := func(what string) error {
		return fmt.Errorf("%w: player record: %s", engine.ErrCorrupt, what)
	}
	format := r.count("format", playerFormat)
	if r.err != nil || format < playerFormat1 {
		return nil, bad("format")
	}
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > maxPlayerGames {
		return nil, bad("game count")
	}
	r.b = r.b[k:]
	p := &playerRecord{games: make([]string, n)}
	for i := range p.games {
		p.games[i] = idEncoding.EncodeToString(r.next("game id", idBytes))
	}
	p.devices = make([]device, r.count("device count", maxDevices))
	for i := range p.devices {
		n, k := binary.Uvarint(r.b)
		if r.err != nil || k <= 0 || n > push.MaxEndpoint {
			return nil, bad("endpoint")
		}
		r.b = r.b[k:]
		p.devices[i] = device{endpoint: string(r.next("endpoint", int(n))),
			p256dh: r.next("p256dh", push.PublicKeyLen), auth: r.next("auth", push.AuthLen)}
		if format >= 2 {
			l := r.count("lang", int(numLangs)-1)
			p.devices[i].lang = lang(l)
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing data")
	}
	if r.err != nil {
		return nil, r.err
	}
	return p, nil
}

// loadPlayer reads the record of the key whose hash is h: an empty one
// (version 0) when there is none.
func (h *Handler) loadPlayer(ctx context.Context, hash []byte) (*playerRecord, int64, error) {
	item, err := h.store.Load(ctx, playerID(hash))
	if errors.Is(err, store.ErrNotFound) {
		return &playerRecord{}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	p, err := decodePlayer(item.State)
	if err != nil {
		return nil, 0, err
	}
	return p, item.Version, nil
}

// updatePlayer applies change to the record of hash and writes it on
// condition that nobody wrote in between, retrying a lost race on the new
// record. change reports whether it changed anything; nothing is written
// when it did not.
func (h *Handler) updatePlayer(ctx context.Context, hash []byte, change func(*playerRecord) bool) error {
	id := playerID(hash)
	for attempt := 0; attempt < playerAttempts; attempt++ {
		p, version, err := h.loadPlayer(ctx, hash)
		if err != nil {
			return err
		}
		if !change(p) {
			return nil
		}
		now := h.now()
		if version == 0 {
			err = h.store.Create(ctx, id, encodePlayer(p), now, time.Time{}, recordExpiry(p, now)) // a record is never due
		} else {
			err = h.store.Save(ctx, id, encodePlayer(p), version, now, time.Time{}, recordExpiry(p, now))
		}
		if !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrExists) {
			return err
		}
		backOff(ctx, attempt)
	}
	return fmt.Errorf("%w: player record: %d writes in a row lost a race", store.ErrUnavailable, playerAttempts)
}

// addToRecord puts game id first in the record of hash. A full record
// drops the game updated least recently (API.md: /api/me lists the 100
// most recently updated), found with one LoadMany of its games; a game no
// longer stored goes first. Should that read fail, the game joined first
// goes.
func (h *Handler) addToRecord(ctx context.Context, hash []byte, id string) error {
	return h.updatePlayer(ctx, hash, func(p *playerRecord) bool {
		if len(p.games) >= maxPlayerGames && !slices.Contains(p.games, id) {
			if victim, ok := h.leastRecent(ctx, p.games); ok {
				p.dropGames(map[string]bool{victim: true})
			}
		}
		return p.addGame(id)
	})
}

// leastRecent is the game of ids updated least recently, or one that is no
// longer stored.
func (h *Handler) leastRecent(ctx context.Context, ids []string) (string, bool) {
	items, err := h.store.LoadMany(ctx, ids)
	if err != nil {
		return "", false
	}
	victim, oldest := "", time.Time{}
	for _, id := range ids {
		it, ok := items[id]
		if !ok {
			return id, true
		}
		if victim == "" || it.UpdatedAt.Before(oldest) {
			victim, oldest = id, it.UpdatedAt
		}
	}
	return victim, victim != ""
}

// backOff waits before retry attempt+1 of a write that lost a race: a
// random time below 2^attempt ms, at most 64 ms, so writers that collided
// spread out.
func backOff(ctx context.Context, attempt int) {
	d := time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 6)))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
