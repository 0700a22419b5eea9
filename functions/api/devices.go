package api

import (
	"encoding/base64"
	"math"
	"net/http"
	"strings"

	"tessera/functions/game"
	"tessera/functions/push"
)

// PushConfig is how the service sends Web Push (package game).
type PushConfig = game.PushConfig

// pushKey is GET /api/push: the VAPID public key, or 404 with push off.
func (h *Handler) pushKey(c *call) {
	if h.push == nil {
		c.failWith(errPushOff)
		return
	}
	k, err := h.svc.VAPID(c.r.Context())
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
func decodeDevice(body []byte, insecure bool) (game.Device, error) {
	obj, err := parseObject(body)
	if err != nil {
		return game.Device{}, err
	}
	f := fields{obj: obj, what: "the body"}
	endpoint, hasEndpoint := f.str("endpoint")
	f.require("endpoint", hasEndpoint)
	f.int("expirationTime", math.MinInt64, math.MaxInt64)
	keys, hasKeys := f.take("keys")
	f.require("keys", hasKeys)
	langName, hasLang := f.str("lang")
	if err := f.done(); err != nil {
		return game.Device{}, err
	}
	l, ok := game.ParseLang(langName)
	if hasLang && !ok {
		return game.Device{}, badRequest("lang must be \"it\" or \"en\"")
	}
	if err := push.CheckEndpoint(endpoint, insecure); err != nil {
		return game.Device{}, badRequest("%s", strings.TrimPrefix(err.Error(), push.ErrEndpoint.Error()+": "))
	}
	kobj, ok := keys.(object)
	if !ok {
		return game.Device{}, badRequest("keys must be an object")
	}
	kf := fields{obj: kobj, what: "keys"}
	p256dh, hasP := kf.str("p256dh")
	kf.require("p256dh", hasP)
	auth, hasA := kf.str("auth")
	kf.require("auth", hasA)
	if err := kf.done(); err != nil {
		return game.Device{}, err
	}
	d := game.Device{Endpoint: endpoint, Lang: l}
	if d.P256dh, err = base64url(p256dh); err != nil || len(d.P256dh) != push.PublicKeyLen || !push.ValidPublicKey(d.P256dh) {
		return game.Device{}, badRequest("keys.p256dh must be a base64url P-256 point (65 bytes)")
	}
	if d.Auth, err = base64url(auth); err != nil || len(d.Auth) != push.AuthLen {
		return game.Device{}, badRequest("keys.auth must be 16 bytes in base64url")
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
	if err := h.svc.UpdatePlayer(c.r.Context(), hash, func(p *game.Record) bool { return p.PutDevice(d) }); err != nil {
		c.fail(err)
		return
	}
	c.noContent()
}

// deleteDevice is DELETE /api/me/push: 204 whether or not it was there.
func (h *Handler) deleteDevice(c *call, body []byte) {
	endpoint, ok := h.endpointBody(c, body)
	if !ok {
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	if err := h.svc.UpdatePlayer(c.r.Context(), hash, func(p *game.Record) bool { return p.DropDevice(endpoint) }); err != nil {
		c.fail(err)
		return
	}
	c.noContent()
}

// endpointBody reads a body of one device's endpoint, {"endpoint"}, as
// DELETE /api/me/push and the watch routes take it; false when it has
// answered (push off: 404; a bad body: 400).
func (h *Handler) endpointBody(c *call, body []byte) (string, bool) {
	if h.push == nil {
		c.failWith(errPushOff)
		return "", false
	}
	obj, err := parseObject(body)
	if err != nil {
		c.fail(err)
		return "", false
	}
	f := fields{obj: obj, what: "the body"}
	endpoint, ok := f.str("endpoint")
	f.require("endpoint", ok)
	if err := f.done(); err != nil {
		c.fail(err)
		return "", false
	}
	if len(endpoint) > push.MaxEndpoint {
		c.fail(badRequest("endpoint is longer than %d bytes", push.MaxEndpoint))
		return "", false
	}
	return endpoint, true
}

func (c *call) noContent() {
	c.status = http.StatusNoContent
	c.w.WriteHeader(http.StatusNoContent)
}
