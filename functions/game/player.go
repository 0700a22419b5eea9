package game

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
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
//
// Format 3 adds the key's public player id after the devices: a length
// byte (0 or idBytes) and its bytes (profile.go). Format 4 adds the
// vacation after it (vacation.go): a flags byte (1 the budget was
// written, 2 its games are still to be told), the budget's days byte,
// the 30-day periods credited uvarint, the vacation's start and end
// varints (Unix seconds; 0 none) and its days byte. Format 5 adds the
// key's email after it (mail.go: MailState.append).
const (
	PlayerFormat  = 5
	PlayerFormat2 = 2
	PlayerFormat1 = 1
	// maxPlayerGames bounds the games a record lists: one LoadMany.
	MaxPlayerGames = store.MaxLoadMany
	// maxDevices bounds a key's push devices (API.md: at most 10, the
	// oldest goes); maxDeviceBytes is what ten take at most, each endpoint
	// being at most push.MaxEndpoint bytes (the record then stays under
	// 12 KB: three of DynamoDB's 4 KB read units at most).
	MaxDevices     = 10
	MaxDeviceBytes = MaxDevices * (binary.MaxVarintLen16 + push.MaxEndpoint + push.PublicKeyLen + push.AuthLen + 1)
)

// PlayerID names the record of the key whose hash is h. It cannot be a
// game id (validGameID), so the two never meet.
func PlayerID(h []byte) string { return "player-" + hex.EncodeToString(h) }

// playerRecord is one key's record.
type Record struct {
	Games   []string // most recently joined first
	Devices []Device // oldest first
	Player  string   // the public player id; "" before the key has a profile
	Vac     Vacation
	Mail    MailState
}

// Device is one push subscription, and the language of its texts.
type Device struct {
	Endpoint string
	P256dh   []byte
	Auth     []byte
	Lang     lang
}

func (d Device) subscription() push.Subscription {
	return push.Subscription{Endpoint: d.Endpoint, P256dh: d.P256dh, Auth: d.Auth}
}

// AddGame puts id first, once; false if it was first already.
func (p *Record) AddGame(id string) bool {
	if len(p.Games) > 0 && p.Games[0] == id {
		return false
	}
	games := append(make([]string, 0, len(p.Games)+1), id)
	for _, g := range p.Games {
		if g != id && len(games) < MaxPlayerGames {
			games = append(games, g)
		}
	}
	p.Games = games
	return true
}

// dropGames removes the ids in gone; false if none was there.
func (p *Record) dropGames(gone map[string]bool) bool {
	kept := p.Games[:0:0]
	for _, g := range p.Games {
		if !gone[g] {
			kept = append(kept, g)
		}
	}
	changed := len(kept) != len(p.Games)
	p.Games = kept
	return changed
}

// PutDevice registers d, replacing an entry with its endpoint, then drops
// the oldest devices beyond maxDevices or maxDeviceBytes.
func (p *Record) PutDevice(d Device) bool {
	p.DropDevice(d.Endpoint)
	p.Devices = append(p.Devices, d)
	for len(p.Devices) > MaxDevices || p.DeviceBytes() > MaxDeviceBytes {
		p.Devices = p.Devices[1:]
	}
	return true
}

// DropDevice forgets the device with endpoint; false if none had it.
func (p *Record) DropDevice(endpoint string) bool {
	for i, d := range p.Devices {
		if d.Endpoint == endpoint {
			p.Devices = append(p.Devices[:i:i], p.Devices[i+1:]...)
			return true
		}
	}
	return false
}

func (p *Record) DeviceBytes() int {
	n := 0
	for _, d := range p.Devices {
		n += binary.MaxVarintLen16 + len(d.Endpoint) + push.PublicKeyLen + push.AuthLen + 1
	}
	return n
}

func EncodePlayer(p *Record) []byte {
	b := make([]byte, 0, 2+len(p.Games)*IDBytes+1+p.DeviceBytes())
	b = append(b, PlayerFormat)
	b = binary.AppendUvarint(b, uint64(len(p.Games)))
	for _, g := range p.Games {
		raw, _ := IDEncoding.DecodeString(g) // ids in a record are valid
		b = append(b, raw...)
	}
	b = append(b, byte(len(p.Devices)))
	for _, d := range p.Devices {
		b = binary.AppendUvarint(b, uint64(len(d.Endpoint)))
		b = append(b, d.Endpoint...)
		b = append(b, d.P256dh...)
		b = append(b, d.Auth...)
		b = append(b, byte(d.Lang))
	}
	b = appendID(b, p.Player)
	return p.Mail.append(p.Vac.append(b))
}

func DecodePlayer(b []byte) (*Record, error) {
	r := &storedReader{b: b}
	bad := func(what string) error {
		return fmt.Errorf("%w: player record: %s", engine.ErrCorrupt, what)
	}
	format := r.count("format", PlayerFormat)
	if r.err != nil || format < PlayerFormat1 {
		return nil, bad("format")
	}
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > MaxPlayerGames {
		return nil, bad("game count")
	}
	r.b = r.b[k:]
	p := &Record{Games: make([]string, n)}
	for i := range p.Games {
		p.Games[i] = IDEncoding.EncodeToString(r.next("game id", IDBytes))
	}
	p.Devices = make([]Device, r.count("device count", MaxDevices))
	for i := range p.Devices {
		n, k := binary.Uvarint(r.b)
		if r.err != nil || k <= 0 || n > push.MaxEndpoint {
			return nil, bad("endpoint")
		}
		r.b = r.b[k:]
		p.Devices[i] = Device{Endpoint: string(r.next("endpoint", int(n))),
			P256dh: r.next("p256dh", push.PublicKeyLen), Auth: r.next("auth", push.AuthLen)}
		if format >= 2 {
			l := r.count("lang", int(numLangs)-1)
			p.Devices[i].Lang = lang(l)
		}
	}
	if format >= 3 {
		p.Player = r.id("player id")
	}
	if format >= 4 {
		p.Vac.read(r)
	}
	if format >= 5 {
		p.Mail.read(r)
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing data")
	}
	if r.err != nil {
		return nil, r.err
	}
	return p, nil
}

// LoadPlayer reads the record of the key whose hash is h: an empty one
// (version 0) when there is none.
func (h *Service) LoadPlayer(ctx context.Context, hash []byte) (*Record, int64, error) {
	item, err := h.store.Load(ctx, PlayerID(hash))
	if errors.Is(err, store.ErrNotFound) {
		return &Record{}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	p, err := DecodePlayer(item.State)
	if err != nil {
		return nil, 0, err
	}
	return p, item.Version, nil
}

// UpdatePlayer applies change to the record of hash and writes it on
// condition that nobody wrote in between, retrying a lost race on the new
// record. change reports whether it changed anything; nothing is written
// when it did not.
func (h *Service) UpdatePlayer(ctx context.Context, hash []byte, change func(*Record) bool) error {
	id := PlayerID(hash)
	return Retry(ctx, recordWrites, func(int) error {
		p, version, err := h.LoadPlayer(ctx, hash)
		if err != nil {
			return err
		}
		if !change(p) {
			return nil
		}
		now := h.now()
		// A record is due while its games are to be told of a vacation,
		// and at its digest's next check (mail.go).
		var due time.Time
		if p.Mail.On() && p.Mail.Check != 0 {
			due = time.Unix(p.Mail.Check, 0)
		}
		if p.Vac.Pending {
			due = now
		}
		return store.CreateOrSave(ctx, h.store, id, EncodePlayer(p), version, now, due, recordExpiry(p, now))
	})
}

// AddToRecord puts game id first in the record of hash. A full record
// drops the game updated least recently (API.md: /api/me lists the 100
// most recently updated), found with one LoadMany of its games; a game no
// longer stored goes first. Should that read fail, the game joined first
// goes.
func (h *Service) AddToRecord(ctx context.Context, hash []byte, id string) error {
	return h.UpdatePlayer(ctx, hash, func(p *Record) bool {
		if len(p.Games) >= MaxPlayerGames && !slices.Contains(p.Games, id) {
			if victim, ok := h.leastRecent(ctx, p.Games); ok {
				p.dropGames(map[string]bool{victim: true})
			}
		}
		return p.AddGame(id)
	})
}

// leastRecent is the game of ids updated least recently, or one that is no
// longer stored.
func (h *Service) leastRecent(ctx context.Context, ids []string) (string, bool) {
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
