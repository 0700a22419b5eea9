package api

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tessera/functions/game"
)

// The table talk (API.md "Chat"): POST and GET /api/games/{id}/chat, for
// the game's seats only. The service keeps it (game/chat.go).

// decodeChat reads POST's body: a trimmed text or a reaction, and an
// optional messageId.
func decodeChat(body []byte) (game.ChatRequest, error) {
	obj, err := parseObject(body)
	if err != nil {
		return game.ChatRequest{}, err
	}
	f := fields{obj: obj, what: "the body"}
	text, hasText := f.str("text")
	reaction, hasReaction := f.str("reaction")
	id, hasID := f.str("messageId")
	if err := f.done(); err != nil {
		return game.ChatRequest{}, err
	}
	var req game.ChatRequest
	switch {
	case hasText == hasReaction:
		return req, badRequest("send either text or a reaction")
	case hasText:
		text = strings.TrimFunc(text, unicode.IsSpace)
		if n := utf8.RuneCountInString(text); n < 1 || n > game.MaxChatText {
			return req, badRequest("text must be 1 to %d characters", game.MaxChatText)
		}
		if err := plainText(text, "text"); err != nil {
			return req, err
		}
		req.Text = text
	case !slices.Contains(game.Reactions, reaction):
		return req, badRequest("reaction must be one of %s", strings.Join(game.Reactions, ", "))
	default:
		req.Reaction = reaction
	}
	if hasID {
		if n := utf8.RuneCountInString(id); n < 1 || n > maxMoveID {
			return req, badRequest("messageId must be 1 to %d characters", maxMoveID)
		}
		req.MessageID = id
	}
	return req, nil
}

// chat is POST and GET /api/games/{id}/chat.
func (h *Handler) chat(c *call, body []byte) {
	var req game.ChatRequest
	after := 0
	if c.r.Method == http.MethodPost {
		var err error
		if req, err = decodeChat(body); err != nil {
			c.fail(err)
			return
		}
	} else if vs, ok := c.r.URL.Query()["after"]; ok {
		n, err := strconv.Atoi(vs[0])
		if len(vs) != 1 || err != nil || n < 0 || strings.TrimLeft(vs[0], "0123456789") != "" {
			c.fail(badRequest("after must be a whole number of 0 or more"))
			return
		}
		after = n
	}
	// The service reads the game (404) and finds the token's seat (401).
	token, _, _ := bearer(c.r)
	if c.r.Method == http.MethodGet {
		msgs, err := h.svc.ReadChat(c.r.Context(), c.gameID, token, after)
		if err != nil {
			c.fail(err)
			return
		}
		c.writeJSON(http.StatusOK, struct {
			Messages []game.ChatMessage `json:"messages"`
		}{msgs})
		return
	}
	msg, fresh, err := h.svc.SendChat(c.r.Context(), c.op().Host, c.gameID, token, req)
	if err != nil {
		c.fail(err)
		return
	}
	status := http.StatusOK
	if fresh {
		status = http.StatusCreated
	}
	c.writeJSON(status, struct {
		Message game.ChatMessage `json:"message"`
	}{msg})
}

// plainText refuses a text a person wrote (a message, a report's note)
// that holds a control character (a new line is allowed) or bytes that are
// not UTF-8.
func plainText(s, what string) error {
	for _, r := range s {
		if r != '\n' && (unicode.IsControl(r) || r == utf8.RuneError) {
			return badRequest("%s holds a control character", what)
		}
	}
	return nil
}
