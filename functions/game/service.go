package game

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"tessera/engine"
	"tessera/engine/bot"
	"tessera/functions/mail"
	"tessera/functions/push"
	"tessera/functions/store"
)

// Config is what the service is built from.
type Config struct {
	Store  store.Store           // required
	Logger *slog.Logger          // nil: discard
	Now    func() time.Time      // nil: time.Now
	Rand   io.Reader             // nil: crypto/rand.Reader (game ids, tokens, seeds); must be safe for concurrent use
	Bots   map[string]bot.Player // nil: bot.Levels()
	Push   *PushConfig           // nil: no push notifications
	// AfterEnd, for tests only, is called between the save that ends a
	// match and its settling (settle.go): the local server's test build
	// kills itself there to prove a crash loses nothing.
	AfterEnd func(gameID string)
	// ViewJSON writes seat's view of a game as a GET answers it, and that
	// answer's ETag (package api): what a watching page is pushed
	// (watch.go). Nil: watching pages are told of a move without it.
	ViewJSON func(v *engine.View, m Meta, seat int) (body []byte, etag string)
	// Mail sends the confirmation and digest mails (mail.go); nil: email
	// is off (PUT /api/me/email answers 409 email_off).
	Mail mail.Sender
	// DigestAfter is how long a turn waits before a digest tells of it;
	// 0: DefaultDigestAfter.
	DigestAfter time.Duration
}

// Service is the game service: stored games, clocks and the sweep, the
// computer policy, notifications and player records, over a store. It
// knows no HTTP (internal/layers checks): ids and values in, values and
// errors out. Package api serves it on every deployment.
type Service struct {
	store store.Store
	log   *slog.Logger
	now   func() time.Time
	rand  io.Reader
	bots  map[string]bot.Player
	push  *PushConfig
	// afterEnd is Config.AfterEnd.
	afterEnd func(string)
	viewJSON func(*engine.View, Meta, int) ([]byte, string)
	// community is what the service calls at its seams (hooks.go).
	community Community
	// vapidKeys caches the deployment's VAPID pair.
	vapidKeys vapidKeys
	site      site
	sender    *push.Sender
	// mail and digestAfter are Config's.
	mail        mail.Sender
	digestAfter time.Duration
}

// New returns the service. It panics when cfg.Store is nil: that is a
// wiring mistake no request can recover from.
func New(cfg Config) *Service {
	if cfg.Store == nil {
		panic("game: Config.Store is required")
	}
	h := &Service{store: cfg.Store, log: cfg.Logger, now: cfg.Now, rand: cfg.Rand, bots: cfg.Bots, push: cfg.Push, afterEnd: cfg.AfterEnd,
		viewJSON: cfg.ViewJSON, community: noCommunity{}, mail: cfg.Mail, digestAfter: cfg.DigestAfter}
	if h.digestAfter <= 0 {
		h.digestAfter = DefaultDigestAfter
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.rand == nil {
		h.rand = rand.Reader
	}
	if h.bots == nil {
		h.bots = bot.Levels()
	}
	if h.push != nil {
		client := h.push.Client
		if client == nil {
			client = push.Client(h.push.Insecure)
		}
		h.sender = &push.Sender{Client: client, Subject: h.push.Subject, Now: h.now}
	}
	return h
}

// Now is the service's clock.
func (h *Service) Now() time.Time { return h.now() }

// Rand is the service's source of secrets.
func (h *Service) Rand() io.Reader { return h.rand }

// Log is the service's logger.
func (h *Service) Log() *slog.Logger { return h.log }

// Store is the service's store (the community keeps its items there).
func (h *Service) Store() store.Store { return h.store }

// ErrInternal is a fault of ours (a random source that fails, a computer
// player that cannot move): the API answers 500.
var ErrInternal = errors.New("internal error")

// MaxSeats is the most seats a table has.
const MaxSeats = 4

// PushConfig turns Web Push on (API.md "Notifications").
type PushConfig struct {
	// Insecure allows http and loopback endpoints (tests only: the local
	// server's PUSH_ALLOW_INSECURE=1).
	Insecure bool
	// Subject is the VAPID contact (mailto: or https:); "" uses the
	// site's origin the deploy stored (SaveSite), else the request's.
	Subject string
	// Client sends the messages; nil: push.Client(Insecure).
	Client push.Doer
}

// vapidID is the store item of the deployment's VAPID key pair, made on
// first use and kept, so every instance and every restart signs alike.
const vapidID = "vapid-keys"

// vapidFormat is the item's first byte; the private scalar follows.
const vapidFormat = 1

// vapidKeys holds the pair once read.
type vapidKeys struct {
	mu   sync.Mutex
	keys *push.Keys
}

// VAPID returns the deployment's key pair, reading it from the store, or
// making and storing it when there is none (a concurrent maker's pair
// wins: ErrExists reads it back).
func (h *Service) VAPID(ctx context.Context) (*push.Keys, error) {
	h.vapidKeys.mu.Lock()
	defer h.vapidKeys.mu.Unlock()
	if k := h.vapidKeys.keys; k != nil {
		return k, nil
	}
	err := Retry(ctx, vapidWrites, func(int) error {
		item, err := h.store.Load(ctx, vapidID)
		if err == nil {
			if len(item.State) < 1 || item.State[0] != vapidFormat {
				return fmt.Errorf("%w: the stored VAPID keys have an unknown format", ErrInternal)
			}
			k, err := push.ParseKeys(item.State[1:])
			if err != nil {
				return fmt.Errorf("%w: %v", ErrInternal, err)
			}
			if !item.Expires.IsZero() {
				// Written before the key pair lived for ever: it keeps
				// living (a lost race means another did the same).
				if err := h.store.Save(ctx, vapidID, item.State, item.Version, h.now(), time.Time{}, time.Time{}); err != nil &&
					!errors.Is(err, store.ErrConflict) {
					return err
				}
			}
			h.vapidKeys.keys = k
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		k, err := push.GenerateKeys()
		if err != nil {
			return fmt.Errorf("%w: %v", ErrInternal, err)
		}
		// Never expires; a concurrent maker's pair wins (ErrExists: the
		// next attempt reads it).
		if err := h.store.Create(ctx, vapidID, append([]byte{vapidFormat}, k.Bytes()...), h.now(), time.Time{}, time.Time{}); err != nil {
			return err
		}
		h.vapidKeys.keys = k
		return nil
	})
	if err != nil {
		return nil, err
	}
	return h.vapidKeys.keys, nil
}

// SaveContext is the context of a conditional write: it keeps the
// request's values and its deadline from the store's own bounds, but not
// its cancellation, so a client that hangs up never cancels a write half
// way.
func SaveContext(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// LogCause describes an internal error for the log. A corrupt stored state
// is reported by kind only: the engine's replay messages may name tiles.
func LogCause(err error) string {
	if errors.Is(err, errStoredCheck) {
		return err.Error()
	}
	if errors.Is(err, engine.ErrCorrupt) {
		return "stored state does not decode (" + engine.ErrCorrupt.Error() + ")"
	}
	if errors.Is(err, store.ErrCorrupt) {
		return err.Error() // the store's checks name no tile
	}
	return err.Error()
}
