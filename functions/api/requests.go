package api

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/push"
)

// The three request bodies of API.md, decoded strictly: every rule of
// "Strict input" that can be checked without the game is checked here, so a
// decoded request is well-formed and only the game can still refuse it.

// maxNameLen is a name's length in code points after trimming.
const maxNameLen = 24

// maxMoveID is a moveId's length in characters (code points).
const maxMoveID = 64

// botRequest is one entry of a create's bots.
type botRequest = game.BotSeat

// createRequest is POST /api/games, with the defaults filled in.
type createRequest = game.CreateRequest

// decodeCreate reads a create body: the options present are laid over the
// variant's defaults, and engine.Options.Validate alone decides whether the
// result is a game (RULES.md's rules are the engine's). levels says which
// bot levels exist.
func decodeCreate(body []byte, levels func(string) bool) (createRequest, error) {
	obj, err := parseObject(body)
	if err != nil {
		return createRequest{}, err
	}
	f := fields{obj: obj, what: "the body"}
	var req createRequest
	table := f.table()
	name, hasName := f.str("name")
	f.require("name", hasName)
	key := f.key()
	moveTime, _ := f.int("moveTime", game.MinMoveTime, game.MaxMoveTime)
	open, _ := f.bool("open")
	rated, _ := f.bool("rated")
	league, _ := f.str("league")
	bots, hasBots := f.array("bots")
	if f.err != nil {
		return createRequest{}, f.err
	}
	if err := f.done(); err != nil {
		return createRequest{}, err
	}
	o, err := table.options()
	if err != nil {
		return createRequest{}, err
	}
	req.Options, req.Key, req.MoveTime = o, key, moveTime
	if req.Name, err = cleanName(name); err != nil {
		return createRequest{}, err
	}
	if hasBots {
		if req.Bots, err = decodeBots(bots, o.Players, levels); err != nil {
			return createRequest{}, err
		}
	}
	req.Open, req.Rated, req.League = open, rated, league
	// The room's rules are the service's (CreateRequest.Check), which
	// checks them again in Create: any transport keeps them.
	return req, req.Check()
}

// decodeBots reads the bots array: each seat 1..players-1 at most once, each
// level one the server offers.
func decodeBots(arr []any, players int, levels func(string) bool) ([]botRequest, error) {
	if len(arr) > players-1 {
		return nil, badRequest("more bots than free seats")
	}
	out := make([]botRequest, 0, len(arr))
	var used [game.MaxSeats]bool
	for i, v := range arr {
		obj, ok := v.(object)
		if !ok {
			return nil, badRequest("bots[%d] must be an object", i)
		}
		f := fields{obj: obj, what: "a bot"}
		seat, hasSeat := f.int("seat", 1, int64(players-1))
		f.require("seat", hasSeat)
		level, hasLevel := f.str("level")
		f.require("level", hasLevel)
		if err := f.done(); err != nil {
			return nil, err
		}
		if !levels(level) {
			return nil, badRequest("unknown bot level %q", level)
		}
		if used[seat] {
			return nil, badRequest("seat %d is given two bots", seat)
		}
		used[seat] = true
		out = append(out, botRequest{Seat: int(seat), Level: level})
	}
	return out, nil
}

// seatRequest is POST /api/games/{id}/seats. Seat is -1 for "any".
type seatRequest = game.SeatRequest

func decodeSeat(body []byte) (seatRequest, error) {
	obj, err := parseObject(body)
	if err != nil {
		return seatRequest{}, err
	}
	f := fields{obj: obj, what: "the body"}
	name, hasName := f.str("name")
	f.require("name", hasName)
	seat, hasSeat := f.int("seat", 0, game.MaxSeats-1)
	key := f.key()
	if err := f.done(); err != nil {
		return seatRequest{}, err
	}
	req := seatRequest{Seat: -1, Key: key}
	if hasSeat {
		req.Seat = int(seat)
	}
	if req.Name, err = cleanName(name); err != nil {
		return seatRequest{}, err
	}
	return req, nil
}

// moveRequest is POST /api/games/{id}/moves.
type moveRequest = game.MoveRequest

func decodeMove(body []byte) (moveRequest, error) {
	obj, err := parseObject(body)
	if err != nil {
		return moveRequest{}, err
	}
	f := fields{obj: obj, what: "the body"}
	var req moveRequest
	version, hasVersion := f.int("version", 0, maxVersion)
	f.require("version", hasVersion)
	moveID, hasMoveID := f.str("moveId")
	kind, hasKind := f.str("type")
	f.require("type", hasKind)
	tile, hasTile := f.take("tile")
	end, hasEnd := f.str("end")
	// An addition (issue 45, docs/watch.md): the push endpoint of the page
	// that moves, so its watch is not pushed the move it has the answer to.
	device, hasDevice := f.str("device")
	if err := f.done(); err != nil {
		return moveRequest{}, err
	}
	if hasDevice {
		if device == "" || len(device) > push.MaxEndpoint {
			return moveRequest{}, badRequest("device must be a push endpoint of 1 to %d bytes", push.MaxEndpoint)
		}
		req.Device = device
	}
	req.Version = version
	if hasMoveID {
		if n := utf8.RuneCountInString(moveID); n < 1 || n > maxMoveID {
			return moveRequest{}, badRequest("moveId must be 1 to %d characters", maxMoveID)
		}
		req.MoveID = moveID
	}
	switch kind {
	case "play":
		req.Move.Kind = engine.Play
	case "redeal":
		req.Move.Kind = engine.Redeal
	case "keep":
		req.Move.Kind = engine.Keep
	case "away":
		req.Move.Kind = engine.Away
	case "back":
		req.Move.Kind = engine.Back
	default:
		return moveRequest{}, badRequest("unknown move type %q", kind)
	}
	// tile and end are checked whatever the type, so that a malformed one
	// is refused, but only a play uses them.
	if hasTile {
		if req.Move.Tile, err = decodeTile(tile); err != nil {
			return moveRequest{}, err
		}
	} else if req.Move.Kind == engine.Play {
		return moveRequest{}, badRequest("a play needs a tile")
	}
	req.Move.End = engine.EndLead
	if hasEnd {
		if err := req.Move.End.UnmarshalText([]byte(end)); err != nil {
			return moveRequest{}, badRequest("unknown end %q", end)
		}
	}
	if req.Move.Kind != engine.Play {
		req.Move.Tile, req.Move.End = engine.Tile{}, engine.EndLead
	}
	return req, nil
}

// decodeTile reads [a, b] with pips 0..6.
func decodeTile(v any) (engine.Tile, error) {
	arr, ok := v.([]any)
	if !ok || len(arr) != 2 {
		return engine.Tile{}, badRequest("tile must be an array of two pip numbers")
	}
	var pips [2]int64
	for i, p := range arr {
		n, err := intValue(p, "a pip", 0, 6)
		if err != nil {
			return engine.Tile{}, err
		}
		pips[i] = n
	}
	return engine.NewTile(int(pips[0]), int(pips[1]))
}

// cleanName applies API.md's Names rule: no control character (category Cc)
// anywhere, then trimmed of surrounding white space, 1-24 code points. On
// top of it (docs/api-decisions.md, "Names"): no bidirectional embedding,
// override or isolate control (U+202A-U+202E, U+2066-U+2069), which would
// reorder the page's own sentences around the name, and at least one
// visible character (a name of only zero-width or blank characters shows
// as nothing).
func cleanName(s string) (string, error) { return cleanNameOf(s, maxNameLen) }

// cleanNameOf is cleanName with another longest length (a league's name:
// 40).
func cleanNameOf(s string, maxLen int) (string, error) {
	for _, r := range s {
		if unicode.Is(unicode.Cc, r) {
			return "", badRequest("a name may not hold control characters")
		}
		if r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 {
			return "", badRequest("a name may not hold text direction controls")
		}
	}
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n < 1 || n > maxLen {
		return "", badRequest("a name must be 1 to %d characters after trimming", maxLen)
	}
	if !strings.ContainsFunc(s, visible) {
		return "", badRequest("a name must hold at least one visible character")
	}
	if deniedName(s) {
		return "", badRequest("that name is not allowed here; choose another")
	}
	return s, nil
}

// visible reports whether r shows as something: a letter, digit,
// punctuation or symbol, and not one of the characters that render blank
// (Hangul fillers, the blank Braille pattern). Format characters (Cf: zero
// width spaces and joiners, marks of direction), combining marks alone and
// white space are not.
func visible(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800:
		return false
	}
	return unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S)
}

// key takes the optional player key: 400 unless well-formed (API.md
// "Players").
func (f *fields) key() string {
	key, ok := f.str("key")
	if ok && !game.WellFormedKey(key) {
		f.fail(badRequest("a key is 22 to 64 characters of A-Z a-z 0-9 - _"))
		return ""
	}
	return key
}

// tableFields are a table's options as a body names them (a create, a
// tournament): the variant, and players, pairs, target and redeal where
// given.
type tableFields struct {
	variant                                    string
	players, target                            int64
	pairs, redeal                              bool
	hasPlayers, hasPairs, hasTarget, hasRedeal bool
}

// table reads the table's fields (variant required).
func (f *fields) table() tableFields {
	var t tableFields
	var hasVariant bool
	t.variant, hasVariant = f.str("variant")
	f.require("variant", hasVariant)
	// The bounds only keep the numbers within an int; Validate judges them.
	t.players, t.hasPlayers = f.int("players", math.MinInt32, math.MaxInt32)
	t.pairs, t.hasPairs = f.bool("pairs")
	t.target, t.hasTarget = f.int("target", math.MinInt32, math.MaxInt32)
	t.redeal, t.hasRedeal = f.bool("redeal")
	return t
}

// options lays the fields given over the variant's defaults;
// engine.Options.Validate alone decides whether the result is a game.
func (t tableFields) options() (engine.Options, error) {
	var variant engine.Variant
	if err := variant.UnmarshalText([]byte(t.variant)); err != nil {
		return engine.Options{}, badRequest("unknown variant %q", t.variant)
	}
	o := engine.DefaultOptions(variant)
	if t.hasPlayers {
		o.Players = int(t.players)
	}
	if t.hasPairs {
		o.Pairs = t.pairs
	}
	if t.hasRedeal {
		o.Redeal = t.redeal
	}
	if t.hasTarget {
		o.Target = int(t.target)
	}
	if err := o.Validate(); err != nil {
		return engine.Options{}, err
	}
	return o, nil
}
