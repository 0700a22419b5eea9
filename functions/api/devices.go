package api

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"tessera/functions/push"
	"tessera/functions/store"
)

// PushConfig turns Web Push on (API.md "Notifications").
type PushConfig struct {
	// Insecure allows http and loopback endpoints (tests only: the local
	// server's PUSH_ALLOW_INSECURE=1).
	Insecure bool
	// Subject is the VAPID contact (mailto: or https:); "" uses the
	// request's origin.
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

// vapid returns the deployment's key pair, reading it from the store, or
// making and storing it when there is none (a concurrent maker's pair
// wins: ErrExists reads it back).
func (h *Handler) vapid(ctx context.Context) (*push.Keys, error) {
	h.vapidKeys.mu.Lock()
	defer h.vapidKeys.mu.Unlock()
	if k := h.vapidKeys.keys; k != nil {
		return k, nil
	}
	for attempt := 0; attempt < 2; attempt++ {
		item, err := h.store.Load(ctx, vapidID)
		if err == nil {
			if len(item.State) < 1 || item.State[0] != vapidFormat {
				return nil, fmt.Errorf("%w: the stored VAPID keys have an unknown format", errInternal)
			}
			k, err := push.ParseKeys(item.State[1:])
			if err != nil {
				return nil, fmt.Errorf("%w: %v", errInternal, err)
			}
			if !item.Expires.IsZero() {
				// Written before the key pair lived for ever: it keeps
				// living (a lost race means another did the same).
				if err := h.store.Save(ctx, vapidID, item.State, item.Version, h.now(), time.Time{}, time.Time{}); err != nil &&
					!errors.Is(err, store.ErrConflict) {
					return nil, err
				}
			}
			h.vapidKeys.keys = k
			return k, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		k, err := push.GenerateKeys()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errInternal, err)
		}
		err = h.store.Create(ctx, vapidID, append([]byte{vapidFormat}, k.Bytes()...), h.now(), time.Time{}, time.Time{}) // never expires
		if err == nil {
			h.vapidKeys.keys = k
			return k, nil
		}
		if !errors.Is(err, store.ErrExists) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: VAPID keys neither read nor made", store.ErrUnavailable)
}

// pushKey is GET /api/push: the VAPID public key, or 404 with push off.
func (h *Handler) pushKey(c *call) {
	if h.push == nil {
		c.failWith(errPushOff)
		return
	}
	k, err := h.vapid(c.r.Context())
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		PublicKey string `json:"publicKey"`
	}{k.PublicKey()})
}

var errPushOff = &apiError{status: http.StatusNotFound, code: codeNotFound,
	message: "This server sends no push notifications."}

// decodeDevice reads PUT /api/me/push: a PushSubscription's JSON.
func decodeDevice(body []byte, insecure bool) (device, error) {
	obj, err := parseObject(body)
	if err != nil {
		return device{}, err
	}
	f := fields{obj: obj, what: "the body"}
	endpoint, hasEndpoint := f.str("endpoint")
	f.require("endpoint", hasEndpoint)
	f.int("expirationTime", math.MinInt64, math.MaxInt64)
	keys, hasKeys := f.take("keys")
	f.require("keys", hasKeys)
	langName, hasLang := f.str("lang")
	if err := f.done(); err != nil {
		return device{}, err
	}
	l, ok := parseLang(langName)
	if hasLang && !ok {
		return device{}, badRequest("lang must be \"it\" or \"en\"")
	}
	if err := push.CheckEndpoint(endpoint, insecure); err != nil {
		return device{}, badRequest("%s", strings.TrimPrefix(err.Error(), push.ErrEndpoint.Error()+": "))
	}
	kobj, ok := keys.(object)
	if !ok {
		return device{}, badRequest("keys must be an object")
	}
	kf := fields{obj: kobj, what: "keys"}
	p256dh, hasP := kf.str("p256dh")
	kf.require("p256dh", hasP)
	auth, hasA := kf.str("auth")
	kf.require("auth", hasA)
	if err := kf.done(); err != nil {
		return device{}, err
	}
	d := device{endpoint: endpoint, lang: l}
	if d.p256dh, err = base64url(p256dh); err != nil || len(d.p256dh) != push.PublicKeyLen || !push.ValidPublicKey(d.p256dh) {
		return device{}, badRequest("keys.p256dh must be a base64url P-256 point (65 bytes)")
	}
	if d.auth, err = base64url(auth); err != nil || len(d.auth) != push.AuthLen {
		return device{}, badRequest("keys.auth must be 16 bytes in base64url")
	}
	return d, nil
}

// base64url decodes with or without padding, as browsers vary.
func base64url(s string) ([]byte, error) {
	return base64.RawURLEncoding.Strict().DecodeString(strings.TrimRight(s, "="))
}

// putDevice is PUT /api/me/push: this device hears of every game of the
// key, now and later.
func (h *Handler) putDevice(c *call, body []byte) {
	if h.push == nil {
		c.failWith(errPushOff)
		return
	}
	d, err := decodeDevice(body, h.push.Insecure)
	if err != nil {
		c.fail(err)
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	if err := h.updatePlayer(c.r.Context(), hash, func(p *playerRecord) bool { return p.putDevice(d) }); err != nil {
		c.fail(err)
		return
	}
	c.noContent()
}

// deleteDevice is DELETE /api/me/push: 204 whether or not it was there.
func (h *Handler) deleteDevice(c *call, body []byte) {
	if h.push == nil {
		c.failWith(errPushOff)
		return
	}
	obj, err := parseObject(body)
	if err != nil {
		c.fail(err)
		return
	}
	f := fields{obj: obj, what: "the body"}
	endpoint, ok := f.str("endpoint")
	f.require("endpoint", ok)
	if err := f.done(); err != nil {
		c.fail(err)
		return
	}
	if len(endpoint) > push.MaxEndpoint {
		c.fail(badRequest("endpoint is longer than %d bytes", push.MaxEndpoint))
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	if err := h.updatePlayer(c.r.Context(), hash, func(p *playerRecord) bool { return p.dropDevice(endpoint) }); err != nil {
		c.fail(err)
		return
	}
	c.noContent()
}

func (c *call) noContent() {
	c.status = http.StatusNoContent
	c.w.WriteHeader(http.StatusNoContent)
}
