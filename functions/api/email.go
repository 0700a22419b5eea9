package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"tessera/functions/game"
)

// The email routes (issue 46, docs/email.md, docs/openapi.yaml): additions
// to API.md.
//
//	PUT    /api/me/email              {"email", "lang"?} or {"digest": bool}   202 / 204
//	DELETE /api/me/email                                                      204
//	POST   /api/me/email/confirm      {"token"}                               204
//	POST   /api/me/email/unsubscribe?token=…   (RFC 8058 one click)           204

const codeEmailOff = "email_off"

var errEmailOff = &apiError{status: http.StatusConflict, code: codeEmailOff,
	message: "This server sends no email: its operator has not given it a mail server (-smtp, SMTP_ADDR)."}

// emailError is the answer of an error of the email routes at now (the
// service's clock).
func emailError(err error, now time.Time) *apiError {
	switch {
	case errors.Is(err, game.ErrMailOff):
		return errEmailOff
	case errors.Is(err, game.ErrTooManyMails):
		return &apiError{status: http.StatusTooManyRequests, code: codeRateLimited, retry: strconv.Itoa(secondsToTomorrow(now)),
			message: "At most " + strconv.Itoa(game.MaxConfirmMails) + " confirmation mails a day go to a key and to an address; try again tomorrow."}
	case errors.Is(err, game.ErrBadMailToken):
		return &apiError{status: http.StatusNotFound, code: codeNotFound,
			message: "This link names no address: it was replaced by a newer one, or the address was removed."}
	case errors.Is(err, game.ErrMailNotSent):
		return &apiError{status: http.StatusServiceUnavailable, code: codeUnavailable,
			message: "The mail server did not take the confirmation mail; try again in a moment."}
	}
	return toAPIError(err)
}

// secondsToTomorrow is a Retry-After until the next UTC day, when the
// day's counts of confirmation mails start again.
func secondsToTomorrow(now time.Time) int {
	now = now.UTC()
	return int(now.Truncate(24*time.Hour).Add(24*time.Hour).Sub(now)/time.Second) + 1
}

// origin is the site a request came to, for the links of its mails (the
// deployment's own origin wins in the service when it has one).
func origin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// putEmail is PUT /api/me/email: an address, unconfirmed, and its
// confirmation mail (202); or {"digest": false|true} for the digest of a
// confirmed address (204).
func (h *Handler) putEmail(c *call, body []byte) {
	obj, err := parseObject(body)
	if err != nil {
		c.fail(err)
		return
	}
	f := fields{obj: obj, what: "the body"}
	addr, hasAddr := f.str("email")
	langName, hasLang := f.str("lang")
	digest, hasDigest := f.bool("digest")
	if err := f.done(); err != nil {
		c.fail(err)
		return
	}
	if hasAddr == hasDigest {
		c.fail(badRequest("give either email (an address to confirm) or digest (true or false)"))
		return
	}
	l, ok := game.ParseLang(langName)
	if hasLang && !ok {
		c.fail(badRequest("lang must be \"it\" or \"en\""))
		return
	}
	if !hasLang {
		l = langOfRequest(c.r)
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	if hasDigest {
		if err := h.svc.SetDigest(c.r.Context(), hash, digest); err != nil {
			c.failWith(emailError(err, h.svc.Now()))
			return
		}
		c.noContent()
		return
	}
	if !h.svc.MailOn() {
		c.failWith(errEmailOff)
		return
	}
	if err := h.svc.SetEmail(c.r.Context(), hash, addr, l, origin(c.r)); err != nil {
		c.failWith(emailError(err, h.svc.Now()))
		return
	}
	c.w.WriteHeader(http.StatusAccepted)
}

// langOfRequest is the mails' language when the body names none: Italian
// when the browser puts it first, else English.
func langOfRequest(r *http.Request) game.Lang {
	al := r.Header.Get("Accept-Language")
	if len(al) >= 2 && (al[:2] == "it" || al[:2] == "IT") {
		return game.LangIT
	}
	return game.LangEN
}

// deleteEmail is DELETE /api/me/email: 204 whether or not there was one.
func (h *Handler) deleteEmail(c *call) {
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	if err := h.svc.DeleteEmail(c.r.Context(), hash); err != nil {
		c.fail(err)
		return
	}
	c.noContent()
}

// confirmEmail is POST /api/me/email/confirm {"token"}: no key, the token
// is the proof. 204; again 204; a token that names nothing 404.
func (h *Handler) confirmEmail(c *call, body []byte) {
	obj, err := parseObject(body)
	if err != nil {
		c.fail(err)
		return
	}
	f := fields{obj: obj, what: "the body"}
	token, has := f.str("token")
	f.require("token", has)
	if err := f.done(); err != nil {
		c.fail(err)
		return
	}
	if err := h.svc.ConfirmEmail(c.r.Context(), token); err != nil {
		c.failWith(emailError(err, h.svc.Now()))
		return
	}
	c.noContent()
}

// unsubscribe is POST /api/me/email/unsubscribe?token=…: the digest off,
// no key needed (RFC 8058: a mail client's one click posts
// "List-Unsubscribe=One-Click"; the page's button posts nothing). 204.
func (h *Handler) unsubscribe(c *call) {
	token := c.r.URL.Query().Get("token")
	if token == "" {
		c.fail(badRequest("the address needs ?token= from the mail"))
		return
	}
	if err := h.svc.Unsubscribe(c.r.Context(), token); err != nil {
		c.failWith(emailError(err, h.svc.Now()))
		return
	}
	c.noContent()
}
