package api

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"tessera/engine/bot"
	"tessera/functions/community"
	"tessera/functions/game"
	"tessera/functions/mail"
)

// Config is what the handler is built from.
type Config struct {
	Store  game.Store            // required: the services are built over it
	Logger *slog.Logger          // nil: discard
	Now    func() time.Time      // nil: time.Now
	Rand   io.Reader             // nil: crypto/rand.Reader (game ids, tokens, seeds); must be safe for concurrent use
	Bots   map[string]bot.Player // nil: bot.Levels()
	Push   *PushConfig           // nil: no push notifications
	// RateLimit is the per-address limit (429); nil or a PerSecond of 0:
	// none. The local server sets it; on AWS, API Gateway throttles.
	RateLimit *RateLimit
	// AfterEnd is game.Config.AfterEnd (tests only).
	AfterEnd func(gameID string)
	// OperatorToken is the moderators' bearer token (set at deploy, never
	// in the repository; docs/moderation.md); "" turns the moderation
	// routes off (404).
	OperatorToken string
	// Mail and DigestAfter are game.Config's: the mail sender (nil: email
	// off) and how long a turn waits before a digest (0: 24 h).
	Mail        mail.Sender
	DigestAfter time.Duration
}

// Handler serves every endpoint of API.md over the game service.
type Handler struct {
	svc   *game.Service
	com   *community.Service
	log   *slog.Logger
	push  *PushConfig
	limit *limiter // nil: no rate limit
	// operator is the SHA-256 of the operator token, nil for none: the
	// token itself is not kept.
	operator []byte
}

// New returns the API handler. It panics when cfg.Store is nil: that is a
// wiring mistake no request can recover from.
func New(cfg Config) *Handler {
	if cfg.Store == nil {
		panic("api: Config.Store is required")
	}
	svc := game.New(game.Config{Store: cfg.Store, Logger: cfg.Logger, Now: cfg.Now, Rand: cfg.Rand, Bots: cfg.Bots, Push: cfg.Push, AfterEnd: cfg.AfterEnd,
		ViewJSON: pushedView, Mail: cfg.Mail, DigestAfter: cfg.DigestAfter})
	h := &Handler{svc: svc, com: community.New(svc), log: svc.Log(), push: cfg.Push}
	if cfg.RateLimit != nil {
		h.limit = newLimiter(*cfg.RateLimit)
	}
	if cfg.OperatorToken != "" {
		sum := sha256.Sum256([]byte(cfg.OperatorToken))
		h.operator = sum[:]
	}
	return h
}

// Service is the game service the handler serves: its Sweep is what the
// local server's ticker, the Lambda clock and the Worker's Cron Trigger
// each call.
func (h *Handler) Service() *game.Service { return h.svc }

// route is one of the endpoints.
type route int

const (
	routeNone route = iota
	routeCreate
	routePoll
	routeSeats
	routeMoves
	routeMe
	routeMePush
	routePushKey
	routeRematch
	routeProfile
	routePlayer
	routeLobby
	routeBoard
	routeLeagues
	routeLeague
	routeLeagueMembers
	routeLeagueMember
	routeLeagueInvite
	routeTournaments
	routeTournament
	routeEntries
	routeStart
	routeVacation
	routeChat
	routeWatch
	routeHint
	routeNotes
	routeReview
	routeMutes
	routeBlocks
	routeReports
	routeReport
	routeModeration
	routeExport
	routeEmail
	routeEmailConfirm
	routeUnsubscribe
)

// allowed is each route's methods.
var allowed = [...][]string{routeCreate: {http.MethodPost}, routePoll: {http.MethodGet},
	routeSeats: {http.MethodPost}, routeMoves: {http.MethodPost}, routeMe: {http.MethodGet, http.MethodDelete},
	routeMePush: {http.MethodPut, http.MethodDelete}, routePushKey: {http.MethodGet}, routeRematch: {http.MethodPost},
	routeProfile: {http.MethodPut}, routePlayer: {http.MethodGet}, routeLobby: {http.MethodGet}, routeBoard: {http.MethodGet},
	routeLeagues: {http.MethodPost}, routeLeague: {http.MethodGet}, routeLeagueMembers: {http.MethodPost},
	routeLeagueMember: {http.MethodDelete}, routeLeagueInvite: {http.MethodPost},
	routeTournaments: {http.MethodPost}, routeTournament: {http.MethodGet}, routeEntries: {http.MethodPost, http.MethodDelete},
	routeStart: {http.MethodPost}, routeVacation: {http.MethodPost, http.MethodDelete}, routeChat: {http.MethodGet, http.MethodPost},
	routeWatch: {http.MethodPut, http.MethodDelete}, routeHint: {http.MethodPost}, routeNotes: {http.MethodGet},
	routeReview: {http.MethodGet}, routeMutes: {http.MethodPut, http.MethodDelete}, routeBlocks: {http.MethodPut, http.MethodDelete},
	routeReports: {http.MethodGet, http.MethodPost}, routeReport: {http.MethodDelete}, routeModeration: {http.MethodPut},
	routeExport: {http.MethodGet}, routeEmail: {http.MethodPut, http.MethodDelete}, routeEmailConfirm: {http.MethodPost},
	routeUnsubscribe: {http.MethodPost}}

var routeNames = [...]string{routeNone: "none", routeCreate: "create", routePoll: "poll",
	routeSeats: "seats", routeMoves: "moves", routeMe: "me", routeMePush: "mePush", routePushKey: "pushKey", routeRematch: "rematch",
	routeProfile: "profile", routePlayer: "player", routeLobby: "lobby", routeBoard: "leaderboard",
	routeLeagues: "leagues", routeLeague: "league", routeLeagueMembers: "leagueMembers", routeLeagueMember: "leagueMember",
	routeLeagueInvite: "leagueInvite", routeTournaments: "tournaments", routeTournament: "tournament",
	routeEntries: "entries", routeStart: "start", routeVacation: "vacation", routeChat: "chat", routeWatch: "watch",
	routeHint: "hint", routeNotes: "notes", routeReview: "review", routeMutes: "mutes", routeBlocks: "blocks",
	routeReports: "reports", routeReport: "report", routeModeration: "moderation", routeExport: "export",
	routeEmail: "email", routeEmailConfirm: "emailConfirm", routeUnsubscribe: "unsubscribe"}

// gameRoutes are the routes under /api/games/{id}/.
var gameRoutes = map[string]route{"seats": routeSeats, "moves": routeMoves, "rematch": routeRematch, "chat": routeChat,
	"watch": routeWatch, "hint": routeHint, "notes": routeNotes, "review": routeReview}

// parseRoute finds the route of an (escaped) path and the game id in it.
// The id is any non-empty segment here; whether it can name a game is
// checked later, at the 404 step of API.md's order.
func parseRoute(path string) (route, string) {
	switch path {
	case "/api/games":
		return routeCreate, ""
	case "/api/me":
		return routeMe, ""
	case "/api/me/push":
		return routeMePush, ""
	case "/api/me/export":
		return routeExport, ""
	case "/api/me/email":
		return routeEmail, ""
	case "/api/me/email/confirm":
		return routeEmailConfirm, ""
	case "/api/me/email/unsubscribe":
		return routeUnsubscribe, ""
	case "/api/push":
		return routePushKey, ""
	}
	rest, ok := strings.CutPrefix(path, "/api/games/")
	if !ok {
		return communityRoute(path)
	}
	id, sub, hasSub := strings.Cut(rest, "/")
	if id == "" {
		return routeNone, ""
	}
	if !hasSub {
		return routePoll, id
	}
	if rt, ok := gameRoutes[sub]; ok {
		return rt, id
	}
	return routeNone, ""
}

// call is one request being answered, with what its log line reports.
type call struct {
	w       http.ResponseWriter
	r       *http.Request
	route   route
	gameID  string
	seat    int // -1 until known
	version int64
	think   game.Thinking // the computer players' costly decisions
	status  int
	code    string
	cause   error // the internal error behind a 5xx, for the log
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	reqID := requestID(r)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Request-Id", reqID)
	c := &call{w: w, r: r, seat: -1}
	defer func() {
		if p := recover(); p != nil {
			c.cause = errors.New("panic")
			h.log.Error("panic", "requestId", reqID, "panic", p, "stack", string(debug.Stack()))
			if c.status == 0 {
				c.fail(game.ErrInternal)
			}
		}
		h.logCall(c, reqID, time.Since(start))
	}()
	rt, id := parseRoute(r.URL.EscapedPath())
	var member string // a league member's player id
	if rt == routeNone {
		rt, id, member = leagueRoute(r.URL.EscapedPath())
	}
	if rt == routeNone {
		rt, id = tournamentRoute(r.URL.EscapedPath())
	}
	c.route, c.gameID = rt, id
	if h.limit != nil {
		addr := h.limit.cfg.Addr(r)
		if wait, ok := h.limit.allow(addr, rt, r.Method); !ok {
			c.failWith(&apiError{status: http.StatusTooManyRequests, code: codeRateLimited,
				message: "Too many requests from your address; try again in a moment.", retry: retryAfter(wait)})
			return
		}
		defer func() { h.limit.charge(addr, c.think.Hard) }()
	}
	if rt == routeNone {
		c.fail(errNotFound)
		return
	}
	if !slices.Contains(allowed[rt], r.Method) {
		methods := strings.Join(allowed[rt], ", ")
		c.failWith(&apiError{status: 405, code: codeMethodNotAllowed,
			message: "Use " + strings.Join(allowed[rt], " or ") + " on this path.", allow: methods})
		return
	}
	switch rt {
	case routePoll:
		h.poll(c)
		return
	case routeMe:
		if r.Method == http.MethodDelete {
			h.forget(c)
		} else {
			h.me(c)
		}
		return
	case routeExport:
		h.export(c)
		return
	case routeUnsubscribe:
		h.unsubscribe(c)
		return
	case routeEmail:
		if r.Method == http.MethodDelete {
			h.deleteEmail(c)
			return
		}
	case routePushKey:
		h.pushKey(c)
		return
	case routePlayer:
		h.player(c, id)
		return
	case routeLobby:
		h.lobby(c)
		return
	case routeBoard:
		h.leaderboard(c, id)
		return
	case routeLeague:
		h.league(c, id)
		return
	case routeLeagueMember:
		h.removeMember(c, id, member)
		return
	case routeTournament:
		h.tournament(c, id)
		return
	case routeNotes:
		h.notes(c)
		return
	case routeReports:
		if r.Method == http.MethodGet {
			h.queue(c)
			return
		}
	case routeReport:
		h.closeReport(c, id)
		return
	case routeReview:
		h.review(c)
		return
	case routeChat:
		if r.Method == http.MethodGet {
			h.chat(c, nil)
			return
		}
	}
	body, err := readBody(r)
	if err != nil {
		c.fail(err)
		return
	}
	switch rt {
	case routeCreate:
		h.create(c, body)
	case routeSeats:
		h.takeSeat(c, body)
	case routeMoves:
		h.move(c, body)
	case routeRematch:
		h.rematch(c, body)
	case routeProfile:
		h.putProfile(c, body)
	case routeVacation:
		h.vacation(c, body)
	case routeChat:
		h.chat(c, body)
	case routeWatch:
		h.watch(c, body)
	case routeHint:
		h.hint(c, body)
	case routeMutes, routeBlocks:
		h.listed(c, id, body)
	case routeReports:
		h.report(c, body)
	case routeModeration:
		h.moderate(c, id, body)
	case routeLeagues:
		h.createLeague(c, body)
	case routeLeagueMembers:
		h.joinLeague(c, id, body)
	case routeLeagueInvite:
		h.rotateInvite(c, id, body)
	case routeTournaments:
		h.createTournament(c, body)
	case routeEntries:
		h.entries(c, id, body)
	case routeStart:
		h.startTournament(c, id, body)
	case routeEmail:
		h.putEmail(c, body)
	case routeEmailConfirm:
		h.confirmEmail(c, body)
	case routeMePush:
		if r.Method == http.MethodPut {
			h.putDevice(c, body)
		} else {
			h.deleteDevice(c, body)
		}
	}
}

// readBody reads at most maxBody bytes; more is 413.
func readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength > maxBody {
		return nil, errTooLarge
	}
	if r.Body == nil {
		return nil, badRequest("the body is empty")
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, badRequest("the body could not be read")
	}
	if len(body) > maxBody {
		return nil, errTooLarge
	}
	return body, nil
}

// requestIDKey is the context key of WithRequestID.
type requestIDKey struct{}

// WithRequestID names the request in the handler's logs and X-Request-Id
// answer: a deployment that has its own id for a request (API Gateway's,
// see package lambdaapp) sets it with a middleware.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// requestID names the request in the logs: the deployment's id
// (WithRequestID), else a well-formed X-Request-Id, else a new one.
func requestID(r *http.Request) string {
	if id, _ := r.Context().Value(requestIDKey{}).(string); id != "" {
		return id
	}
	if id := r.Header.Get("X-Request-Id"); plainID(id) {
		return id
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// plainID accepts a client's request id only when it cannot disturb a log.
func plainID(s string) bool {
	if len(s) < 1 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.:", c) >= 0) {
			return false
		}
	}
	return true
}

// logCall writes the request's one log line. It holds ids, the seat
// number, the version and codes: never a token, a hash or a tile.
func (h *Handler) logCall(c *call, reqID string, took time.Duration) {
	attrs := []any{"requestId", reqID, "route", routeNames[c.route], "method", c.r.Method,
		"status", c.status, "ms", float64(took.Microseconds()) / 1000}
	if game.ValidGameID(c.gameID) {
		attrs = append(attrs, "gameId", c.gameID)
	}
	if c.seat >= 0 {
		attrs = append(attrs, "seat", c.seat)
	}
	if c.version > 0 {
		attrs = append(attrs, "version", c.version)
	}
	if c.code != "" {
		attrs = append(attrs, "code", c.code)
	}
	switch {
	case c.status >= 500:
		if c.cause != nil {
			attrs = append(attrs, "cause", game.LogCause(c.cause))
		}
		h.log.Error("request failed", attrs...)
	default:
		h.log.Info("request", attrs...)
	}
}

// writeJSON answers status with v as JSON. A view, and a seat's answer
// holding one, are written by hand (viewjson.go: the same bytes as
// json.Marshal, several times faster); anything else by encoding/json.
func (c *call) writeJSON(status int, v any) {
	var b []byte
	var err error
	switch x := v.(type) {
	case *viewAnswer:
		b, err = x.appendJSON(make([]byte, 0, 4096))
	case seatAnswer:
		b, err = x.appendJSON(make([]byte, 0, 4096))
	default:
		b, err = json.Marshal(v)
	}
	if err != nil {
		c.cause = err
		status = 500
		b = []byte(`{"error":{"code":"internal","message":"Something went wrong on the server."}}`)
	}
	c.status = status
	c.w.Header().Set("Content-Type", "application/json; charset=utf-8")
	c.w.WriteHeader(status)
	_, _ = c.w.Write(append(b, '\n'))
}

// fail answers err as API.md's error body.
func (c *call) fail(err error) {
	e := toAPIError(err)
	if e.code == codeNotFound {
		e.message = notFoundMessage(c.route)
	}
	if e.status >= 500 {
		c.cause = err
	}
	var stale *game.StaleError
	if errors.As(err, &stale) {
		e.game = answerOf(stale.Now)
		c.version = stale.Now.Meta.Version
	}
	c.failWith(e)
}

// errorBody is {"error": {...}} with, for stale_version, the current game.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Game *viewAnswer `json:"game,omitempty"`
}

func (c *call) failWith(e *apiError) {
	c.code = e.code
	if e.allow != "" {
		c.w.Header().Set("Allow", e.allow)
	}
	switch {
	case e.retry != "":
		c.w.Header().Set("Retry-After", e.retry)
	case e.status == http.StatusServiceUnavailable:
		c.w.Header().Set("Retry-After", "1")
	}
	var body errorBody
	body.Error.Code, body.Error.Message, body.Game = e.code, e.message, e.game
	c.writeJSON(e.status, body)
}
