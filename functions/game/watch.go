package game

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"tessera/engine"
	"tessera/functions/push"
	"tessera/functions/store"
)

// A page that shows a game watches it (issue 34, docs/watch.md): while
// its lease lasts, every move of the game is pushed to that device with
// the seat's new view, so the page polls only as a safety net. A lease
// names a seat and a device (its push endpoint's digest), never a
// person's words; the page renews it while it is visible and ends it
// when it is hidden.
const (
	// WatchLease is how long a watch lasts unless renewed or ended.
	WatchLease = 2 * time.Hour
	// maxSeatWatchers bounds a seat's leases (a person's phone, laptop,
	// tablet and one more): a seat's new lease past it ends that seat's
	// oldest, never another seat's, so no seat can evict the others'
	// pages. A game holds at most maxSeatWatchers times its seats.
	maxSeatWatchers = 4
	// maxWatchView is the largest view, gzipped and in base64, a push
	// carries; a larger one is left out and the page reads it (a push's
	// payload is at most push.MaxPayload bytes).
	maxWatchView = push.MaxPayload - 400
)

// watchWrites: leases of one game, renewed by its seats' pages.
var watchWrites = WriteKind{name: "watch", attempts: 20, backOff: true}

// WatchItemID is the item holding game id's leases; it lives until its
// last lease ends (docs/expiry.md).
func WatchItemID(id string) string { return "watch-" + id }

type watchLease struct {
	Seat   int    `json:"s"`
	Device string `json:"d"` // deviceDigest of its endpoint
	Until  int64  `json:"u"` // Unix seconds
}

type watchItem struct {
	Leases []watchLease `json:"w"`
}

// deviceDigest names a device in a lease without keeping its endpoint
// (the device's secret) a second time.
func deviceDigest(endpoint string) string {
	sum := sha256.Sum256([]byte(endpoint))
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

// Watch starts or renews the lease of the seat token holds in game id for
// the device of endpoint, until now + WatchLease, and answers that time.
// An unknown game is ErrNotFound, a token holding no seat ErrUnauthorized
// (as a read); the caller checks the endpoint (push.CheckEndpoint, as a
// device's).
func (h *Service) Watch(ctx context.Context, id, token, endpoint string) (time.Time, error) {
	g, err := h.Load(ctx, id)
	if err != nil {
		return time.Time{}, err
	}
	seat, err := seatOf(g, token)
	if err != nil {
		return time.Time{}, err
	}
	now := h.now().UTC().Truncate(time.Second)
	until := now.Add(WatchLease)
	d := deviceDigest(endpoint)
	err = h.changeWatch(ctx, id, now, func(w *watchItem) {
		w.Leases = slices.DeleteFunc(w.Leases, func(l watchLease) bool { return l.Device == d })
		w.Leases = append(w.Leases, watchLease{Seat: seat, Device: d, Until: until.Unix()})
		var mine []int // this seat's leases, by index
		for i, l := range w.Leases {
			if l.Seat == seat {
				mine = append(mine, i)
			}
		}
		if over := len(mine) - maxSeatWatchers; over > 0 {
			slices.SortFunc(mine, func(a, b int) int { return int(w.Leases[a].Until - w.Leases[b].Until) })
			ended := map[int]bool{}
			for _, i := range mine[:over] {
				ended[i] = true
			}
			kept := w.Leases[:0:0]
			for i, l := range w.Leases {
				if !ended[i] {
					kept = append(kept, l)
				}
			}
			w.Leases = kept
		}
	})
	return until, err
}

// Unwatch ends the leases of the device of endpoint in game id (its page
// was hidden, or a push found no page showing the game). The endpoint is
// the device's secret, so it needs no token; nothing to end is no error.
func (h *Service) Unwatch(ctx context.Context, id, endpoint string) error {
	if !ValidGameID(id) {
		return fmt.Errorf("unwatch %q: %w", id, store.ErrNotFound)
	}
	d := deviceDigest(endpoint)
	return h.changeWatch(ctx, id, h.now().UTC().Truncate(time.Second), func(w *watchItem) {
		w.Leases = slices.DeleteFunc(w.Leases, func(l watchLease) bool { return l.Device == d })
	})
}

// changeWatch applies f to game id's leases (the ended ones dropped) and
// writes them, retried on a race; an item with no lease left is written
// to expire now (no write when it held none and holds none).
func (h *Service) changeWatch(ctx context.Context, id string, now time.Time, f func(*watchItem)) error {
	return Retry(ctx, watchWrites, func(int) error {
		var w watchItem
		var version int64
		item, err := h.store.Load(ctx, WatchItemID(id))
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return err
		default:
			if json.Unmarshal(item.State, &w) != nil {
				w = watchItem{} // leases are a hint: a bad item is replaced
			}
			version = item.Version
		}
		had := len(w.Leases)
		w.Leases = slices.DeleteFunc(w.Leases, func(l watchLease) bool { return l.Until <= now.Unix() })
		f(&w)
		if had == 0 && len(w.Leases) == 0 {
			return nil // none was there (or it held none) and none is
		}
		last := now.Unix()
		for _, l := range w.Leases {
			last = max(last, l.Until)
		}
		expires := time.Unix(last, 0).UTC()
		b, err := json.Marshal(w)
		if err != nil {
			return err
		}
		return store.CreateOrSave(ctx, h.store, WatchItemID(id), b, version, now, time.Time{}, expires)
	})
}

// watching reports whether changes read the games' leases: only when
// pushes go out with views (watchDeliveries).
func (h *Service) watching() bool { return h.push != nil && h.viewJSON != nil }

// watchers are the devices watching game id at now, by seat (their
// digests), from its leases' item as read (nil: none).
func watchers(item store.Item, ok bool, now time.Time) map[int]map[string]bool {
	if !ok {
		return nil
	}
	var w watchItem
	if json.Unmarshal(item.State, &w) != nil {
		return nil
	}
	out := map[int]map[string]bool{}
	for _, l := range w.Leases {
		if l.Until > now.Unix() {
			if out[l.Seat] == nil {
				out[l.Seat] = map[string]bool{}
			}
			out[l.Seat][l.Device] = true
		}
	}
	return out
}

// watchDeliveries adds to msgs' deliveries a push for every watching
// device of every seat: the seat's message (kind "move" when it has none)
// with its new view and ETag, so the page needs no read. The mover's seat
// too: its other devices (a laptop watching while the phone plays) learn
// of it; the page that moved, when it said which it is (Change.Device),
// is not pushed what its answer holds.
// The view is the one a GET by that seat answers (Config.ViewJSON).
func (h *Service) watchDeliveries(c *Change, to []Delivery, watching map[int]map[string]bool) []Delivery {
	if len(watching) == 0 || !h.watching() {
		return to
	}
	st := c.Game.State
	meta := c.Game.Meta(c.ID) // the game as written (Game.Item is Saved)
	for seat, devices := range watching {
		if seat < 0 || seat >= len(st.Seats) || st.Seats[seat].TokenHash == nil {
			continue
		}
		// The mover's own page has the answer; only the mover's seat's
		// devices are compared (a device named by another seat is
		// nothing to skip). watching is this change's own.
		if bytes.Equal(st.Seats[seat].TokenHash, c.Cause) {
			delete(devices, c.Device)
		}
		if len(devices) == 0 {
			continue
		}
		i := slices.IndexFunc(to, func(d Delivery) bool { return d.Seat == seat })
		v := c.Match.View(seat)
		var msg Message
		if i >= 0 {
			msg = to[i].Msg
		} else {
			msg = moveMessage(c.ID, c.Game.Version(), v, seat)
		}
		body, etag := h.viewJSON(v, meta, seat)
		if z := packView(body); len(z) <= maxWatchView {
			msg.View, msg.ETag = z, etag
		}
		if i >= 0 {
			to[i].Watching, to[i].Watch = devices, &msg
		} else {
			to = append(to, Delivery{Key: st.Seats[seat].TokenHash, Seat: seat, Watching: devices, Watch: &msg})
		}
	}
	return to
}

// moveMessage is the push of a move to a watching page: its words are
// shown only when no page shows the game any more (sw.js: silently).
func moveMessage(id string, version int64, v *engine.View, s int) Message {
	return inEveryLang(id, version, "move", func(l lang) (string, string) {
		return TableName(v, s, l), say(l, "sent.moved")
	})
}

// packView gzips a view and writes it in base64 (sw.js and the page
// undo it with DecompressionStream). The writers are pooled: a new
// best-compression writer allocates about 0.8 MB, once per watcher per
// move before (issue 45; BenchmarkPackView).
func packView(b []byte) string {
	var buf bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestCompression)
	return zw
}}
