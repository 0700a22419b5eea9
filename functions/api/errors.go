package api

import (
	"errors"
	"fmt"
	"strings"

	"tessera/engine"
	"tessera/functions/game"
)

// Error codes of API.md, plus "internal" for the 500 nobody should see.
const (
	codeBadRequest       = "bad_request"
	codeUnauthorized     = "unauthorized"
	codeNotFound         = "not_found"
	codeMethodNotAllowed = "method_not_allowed"
	codeStaleVersion     = "stale_version"
	codeSeatTaken        = "seat_taken"
	codeGameFull         = "game_full"
	codeNotYourTurn      = "not_your_turn"
	codeNotFinished      = "not_finished"
	codeTooLarge         = "too_large"
	codeIllegalMove      = "illegal_move"
	codeLimitReached     = "limit_reached"
	codeNotEligible      = "not_eligible"
	codeRateLimited      = "rate_limited"
	codeUnavailable      = "unavailable"
	codeInternal         = "internal"
)

// Errors of the handler itself; the engine's and the store's come as their
// own sentinels.
var (
	errBadRequest   = errors.New("bad request")
	errUnauthorized = game.ErrUnauthorized
	errNotFound     = errors.New("not found")
	errTooLarge     = errors.New("request body too large")
	errStale        = game.ErrStale
	errNotFinished  = game.ErrNotFinished
)

// apiError is an answer that is not a success: what status() made of an
// error, the message a client may read, and for a stale version the view
// to send along.
type apiError struct {
	status  int
	code    string
	message string
	game    *viewAnswer
	allow   string // 405 only
	retry   string // Retry-After of a 429
}

// classify maps every sentinel the handler meets to its status code and
// error code: the one place where errors become HTTP (STYLE.md #4). The
// second result reports whether the error's own text may be shown to the
// client; internal and store errors never are.
func classify(err error) (status int, code string, public bool) {
	switch {
	case errors.Is(err, errTooLarge):
		return 413, codeTooLarge, true
	case errors.Is(err, errBadRequest), errors.Is(err, engine.ErrBadInput):
		return 400, codeBadRequest, true
	case errors.Is(err, errNotFound), errors.Is(err, game.ErrNotFound):
		return 404, codeNotFound, false
	case errors.Is(err, errUnauthorized):
		return 401, codeUnauthorized, false
	case errors.Is(err, errNotFinished):
		return 409, codeNotFinished, true
	case errors.Is(err, errStale), errors.Is(err, game.ErrConflict):
		return 409, codeStaleVersion, false
	case errors.Is(err, engine.ErrSeatTaken):
		return 409, codeSeatTaken, true
	case errors.Is(err, engine.ErrGameFull):
		return 409, codeGameFull, true
	case errors.Is(err, engine.ErrNotYourTurn):
		return 409, codeNotYourTurn, true
	case errors.Is(err, engine.ErrIllegalMove):
		return 422, codeIllegalMove, true
	case errors.Is(err, engine.ErrLimit), errors.Is(err, game.ErrLimitReached):
		return 409, codeLimitReached, true
	case errors.Is(err, game.ErrNotEligible):
		return 409, codeNotEligible, true
	case errors.Is(err, game.ErrUnavailable):
		return 503, codeUnavailable, false
	}
	// Anything else (a corrupt stored state, a failing random source, an
	// unexpected store error) is ours to fix, but a store error we do not
	// know is treated as the store being unavailable: the request may be
	// retried and nothing was applied.
	if errors.Is(err, engine.ErrCorrupt) || errors.Is(err, game.ErrCorruptStore) || errors.Is(err, game.ErrInternal) {
		return 500, codeInternal, false
	}
	return 503, codeUnavailable, false
}

// defaultMessages are shown when an error's own text is not.
var defaultMessages = map[string]string{
	codeNotFound:     "There is no such game.",
	codeUnauthorized: "The seat token is missing, malformed or not this game's.",
	codeStaleVersion: "The game has changed since that version; here is the current state.",
	codeUnavailable:  "The game store is unavailable; try again in a moment.",
	codeInternal:     "Something went wrong on the server.",
}

// notFoundMessage names what a route's 404 did not find: a game for the
// game routes, else the route's own thing (a player, a league, a
// tournament, a report).
func notFoundMessage(r route) string {
	switch r {
	case routePlayer, routeMutes, routeBlocks, routeModeration:
		return "There is no such player."
	case routeLeague, routeLeagueMembers, routeLeagueMember, routeLeagueInvite:
		return "There is no such league."
	case routeTournament, routeEntries, routeStart:
		return "There is no such tournament."
	case routeReport:
		return "There is no such report."
	}
	return defaultMessages[codeNotFound]
}

// toAPIError turns err into the answer a client gets.
func toAPIError(err error) *apiError {
	status, code, public := classify(err)
	msg := defaultMessages[code]
	if public {
		msg = publicMessage(err)
	}
	return &apiError{status: status, code: code, message: msg}
}

// publicMessage is the error's text without the sentinels' prefixes, as a
// sentence: "illegal move: tile 2-4 does not match the right end (5)"
// becomes "Tile 2-4 does not match the right end (5)."
func publicMessage(err error) string {
	s := err.Error()
	for _, prefix := range []string{
		engine.ErrBadInput.Error() + ": ", engine.ErrIllegalMove.Error() + ": ",
		engine.ErrNotYourTurn.Error() + ": ", engine.ErrSeatTaken.Error() + ": ",
		engine.ErrGameFull.Error() + ": ", errBadRequest.Error() + ": ",
		errTooLarge.Error() + ": ",
	} {
		s = strings.TrimPrefix(s, prefix)
	}
	if s == "" {
		return "The request was refused."
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// badRequest is a 400 with a reason.
func badRequest(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errBadRequest}, a...)...)
}
