package api

import (
	"encoding/json"
	"strconv"
	"strings"

	"tessera/functions/game"
)

// What every endpoint that reads a stored game shares.

// etag names a view: it changes with the version and differs by seat; a
// seat's changes with the table talk's latest seq too (its view's chat),
// everyone's with the hints asked (its hints).
func etag(version int64, seat int, m *game.Meta) string {
	who := "x"
	if seat >= 0 {
		who = "s" + strconv.Itoa(seat)
		if m.Chat > 0 {
			who += "-c" + strconv.Itoa(m.Chat)
		}
	}
	if len(m.Hints) > 0 {
		who += "-h" + strconv.Itoa(len(m.Hints))
	}
	return `"v` + strconv.FormatInt(version, 10) + "-" + who + `"`
}

// notModified reports whether If-None-Match names tag (RFC 9110: a list,
// weak tags compared weakly, "*" matching any current representation).
func notModified(header []string, tag string) bool {
	for _, h := range header {
		for _, t := range strings.Split(h, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == tag {
				return true
			}
		}
	}
	return false
}

// seatAnswer is the 201 of a create or a seat taken.
type seatAnswer struct {
	Game  *viewAnswer `json:"game"`
	Seat  int         `json:"seat"`
	Token string      `json:"token"`
}

// appendJSON appends what json.Marshal writes for a (TestSeatAnswerJSON).
func (a seatAnswer) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"game":`...)
	if a.Game == nil {
		b = append(b, "null"...)
	} else {
		var err error
		if b, err = a.Game.appendJSON(b); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(a.Seat), 10)
	b = append(b, `,"token":`...)
	tok, err := json.Marshal(a.Token)
	if err != nil {
		return nil, err
	}
	b = append(b, tok...)
	return append(b, '}'), nil
}
