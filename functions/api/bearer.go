package api

import (
	"net/http"
	"strings"

	"tessera/functions/game"
)

// bearer reads the Authorization header. present is false when there is
// none; ok is false when there is one but it is not "Bearer <token>" with a
// token or key of the right shape.
func bearer(r *http.Request) (token string, present, ok bool) {
	values, present := r.Header["Authorization"]
	if !present {
		return "", false, false
	}
	if len(values) != 1 {
		return "", true, false
	}
	scheme, tok, found := strings.Cut(values[0], " ")
	if !found || !strings.EqualFold(scheme, "Bearer") || !game.WellFormedKey(tok) {
		return "", true, false
	}
	return tok, true, true
}
