package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"time"
	"unicode/utf8"

	"tessera/functions/community"
)

// Reports and moderation (additions, issue 36, docs/moderation.md).

// report is POST /api/reports with a player's key: body {"player",
// "what": "name"|"message"|"player", "game", "seq" (a message: its game
// and seq), "note"}; 201 {"report": {"id", "at"}} when made now, 200 for
// a retry of the same report.
func (h *Handler) report(c *call, body []byte) {
	obj, err := parseObject(body)
	if err != nil {
		c.fail(err)
		return
	}
	f := fields{obj: obj, what: "the body"}
	var req community.ReportRequest
	var has bool
	req.Player, has = f.str("player")
	f.require("player", has)
	req.What, has = f.str("what")
	f.require("what", has)
	req.Game, _ = f.str("game")
	seq, hasSeq := f.int("seq", 1, 1<<31-1)
	req.Seq = int(seq)
	req.Note, _ = f.str("note")
	if err := f.done(); err != nil {
		c.fail(err)
		return
	}
	switch {
	case req.What != community.ReportName && req.What != community.ReportMessage && req.What != community.ReportPlayer:
		c.fail(badRequest("what must be name, message or player"))
		return
	case req.What == community.ReportMessage && (req.Game == "" || !hasSeq):
		c.fail(badRequest("a message's report needs its game and seq"))
		return
	case req.What != community.ReportMessage && (req.Game != "" || hasSeq):
		c.fail(badRequest("game and seq name a message: what must be message"))
		return
	case utf8.RuneCountInString(req.Note) > community.MaxReportNote:
		c.fail(badRequest("a note is at most %d characters", community.MaxReportNote))
		return
	}
	if err := plainText(req.Note, "note"); err != nil {
		c.fail(err)
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	r, made, err := h.com.File(c.r.Context(), hash, h.clientAddr(c.r), req)
	if err != nil {
		c.fail(err)
		return
	}
	status := http.StatusOK
	if made {
		status = http.StatusCreated
	}
	type filed struct {
		ID string `json:"id"`
		At string `json:"at"`
	}
	c.writeJSON(status, struct {
		Report filed `json:"report"`
	}{filed{r.ID, r.At.UTC().Format(time.RFC3339)}})
}

// clientAddr is the request's address as the rate limiter keys it (the
// deployment's Addr, else RemoteAddr's host, an IPv6 address cut to its
// /64): a report counts against its address's day (community.File).
func (h *Handler) clientAddr(r *http.Request) string {
	if h.limit != nil {
		return h.limit.cfg.Addr(r)
	}
	return remoteHost(r)
}

// operatorCall checks the request's bearer token against the operator's
// (a constant-time compare of digests): 404 when the deployment has none
// (the routes do not exist there), 401 for any other token.
func (h *Handler) operatorCall(c *call) bool {
	if h.operator == nil {
		c.fail(errNotFound)
		return false
	}
	token, _, ok := bearer(c.r)
	sum := sha256.Sum256([]byte(token))
	if !ok || subtle.ConstantTimeCompare(sum[:], h.operator) != 1 {
		c.fail(errUnauthorized)
		return false
	}
	return true
}

// queue is GET /api/reports with the operator token: the open reports,
// oldest first, at most 100 a page, with their context; ?after= is the
// previous page's next. {"reports": [...], "next": "..."} ("next" only
// when more may follow).
func (h *Handler) queue(c *call) {
	if !h.operatorCall(c) {
		return
	}
	rs, next, err := h.com.Queue(c.r.Context(), c.r.URL.Query().Get("after"))
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		Reports []*community.Report `json:"reports"`
		Next    string              `json:"next,omitempty"`
	}{rs, next})
}

// closeReport is DELETE /api/reports/{id} with the operator token: 204,
// the report out of the queue (again: 204).
func (h *Handler) closeReport(c *call, id string) {
	if !h.operatorCall(c) {
		return
	}
	if err := h.com.Close(c.r.Context(), id); err != nil {
		c.fail(err)
		return
	}
	c.noContent()
}

// moderate is PUT /api/players/{id}/moderation with the operator token:
// body {"name", "suspended"} (either or both); 200 {"id", "name",
// "suspended"}.
func (h *Handler) moderate(c *call, pid string, body []byte) {
	if !h.operatorCall(c) {
		return
	}
	obj, err := parseObject(body)
	if err != nil {
		c.fail(err)
		return
	}
	f := fields{obj: obj, what: "the body"}
	var m community.Moderation
	if name, ok := f.str("name"); ok {
		if name, err = cleanName(name); err != nil {
			c.fail(err)
			return
		}
		m.Name = &name
	}
	if s, ok := f.bool("suspended"); ok {
		m.Suspended = &s
	}
	if err := f.done(); err != nil {
		c.fail(err)
		return
	}
	if m.Name == nil && m.Suspended == nil {
		c.fail(badRequest("say a name, suspended, or both"))
		return
	}
	p, err := h.com.Moderate(c.r.Context(), pid, m)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Suspended bool   `json:"suspended"`
	}{p.ID, p.Name, p.Suspended != nil})
}
