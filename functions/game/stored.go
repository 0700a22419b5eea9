package game

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"tessera/engine"
	"tessera/engine/rating"
	"tessera/functions/store"
)

// A stored game is the engine's match with what the API keeps per seat
// beside it: who holds the seat (the hash of its token) and which moveIds
// it has applied. The rules know neither. Format 4, the format of release
// 0.1.0 (the formats before it were never released and are no longer
// read; a later format keeps reading this one, proven by
// testdata/stored-0.1.0.json):
//
//	format byte (storedFormat)
//	uvarint length, then the engine's bytes (engine.Encode)
//	seat count byte; per seat:
//	  token hash length byte (0 or hashBytes), then the hash
//	  moveId count byte (0..16), then that many digests of moveIDDigest
//	  bytes, oldest first
//	per seat: since varint (Unix seconds it has had to act; 0: it need not),
//	  reminded byte (0 or 1)
//	moveTime uvarint (seconds; 0: no clock)
//	next, previous: a length byte (0 or idBytes) and the game id's bytes
//	series: finished matches before this one uvarint; a team count byte,
//	  each team's wins uvarint
//	event times: count uvarint; per entry: the last seq it covers uvarint,
//	  Unix seconds varint (see Meta.EventTimes)
//	checksum: 4 bytes, the CRC-32C of the game id, the version (8 bytes,
//	  big-endian) and every byte before it (sealStored adds it, openStored
//	  checks it). The store keeps the version beside the state and the id
//	  as its key, so a flipped byte anywhere in the state, a version
//	  changed behind the API's back and one game's value stored under
//	  another's id all fail it.
//
// The moveIds let a retried move be recognised (API.md: the last 16 of each
// seat at least). They are kept as short digests: the chance that a new
// moveId's digest equals one of the seat's 16 remembered ones is 16/2^32,
// and a collision would only make the server answer that seat's own move as
// already applied. Short digests keep the item small (DESIGN.md: DynamoDB
// bills reads per 4 KB and writes per 1 KB).
//
// Format 5 adds the room (API.md "Community") after the event times,
// before the checksum:
//
//	flags byte: 1 open, 2 rated, 4 settling (the end's settling is due),
//	  8 settled, 16 the ratings' result is kept (below)
//	createdAt varint (Unix nanoseconds), settleAt varint (Unix seconds the
//	  settling fell due; 0 none); the league's id and the tournament's
//	  (as next)
//	per seat: player id (a length byte, 0 or idBytes, and its bytes);
//	  rating, reliability, ratingAfter: uvarint each, the value + 1 (0:
//	  none); a byte, 1 when its time ran out in this match; a byte of
//	  feats (trophies.go); the trophies it earned, a uint16 mask,
//	  big-endian; with flag 16, the seat's μ and σ before and after the match:
//	  four float64, big-endian
//	with flag 32 (a seat's key is on vacation), per seat: when its vacation
//	  ends, Unix seconds varint (0: none)
//	with flag 64, the seq of the table talk's latest message uvarint
//	with flag 128 (a seat's rating was provisional when it sat down), a
//	  byte per seat: 1 when its rating was provisional
//
// Format 6 adds the hints (hint.go) after them, before the checksum:
//
//	a byte, 1 when the game's league allows hints (LeagueHints)
//	hints asked: count uvarint (at most MaxHints); per hint: the seat
//	  byte, the seq uvarint
//
// Format 7 adds, after them, before the checksum (docs/store.md):
//
//	the game's version as API.md counts it uvarint (a change adds one; a
//	  note, which is a write of its own at the store's next version,
//	  keeps it): the store's version counts writes, this one changes
//	settledAt varint (Unix seconds the end's settling was done; 0: not
//	  yet, or before format 7)
//
// The reminded byte counts the seat's reminders this turn (0, 1 or 2).
//
// Formats 4, 5 and 6 are still read (as games of none of these; a game
// of format 6 or before has had no note since it was written, so its
// version is the store's).
const (
	StoredFormat  = 7
	StoredFormat6 = 6
	StoredFormat5 = 5
	StoredFormat4 = 4
	moveIDDigest  = 4
	KeptMoveIDs   = 16
)

// Settling states of a finished game (settle.go).
const (
	SettleNone    = 0 // not finished, or finished before format 5
	SettlePending = 1 // finished; its settling is due (the sweep finishes it)
	SettleDone    = 2
)

const (
	flagOpen        = 1
	flagRated       = 2
	flagSettling    = 4
	flagSettled     = 8
	flagResult      = 16
	flagVacation    = 32
	flagChat        = 64
	flagProvisional = 128
)

// moveDigest is a remembered moveId.
type moveDigest [moveIDDigest]byte

func digestMoveID(id string) moveDigest {
	sum := sha256.Sum256([]byte(id))
	var d moveDigest
	copy(d[:], sum[:])
	return d
}

// storedGame is what the store keeps for a game.
type Stored struct {
	Match    []byte     // engine.Encode
	Seats    []SeatAuth // by seat
	MoveTime int64      // seconds a seat has to act; 0: no clock
	Next     string     // the rematch's id
	Previous string     // the id of the game this one is the rematch of
	// seriesMatches and seriesWins count the chain's finished matches
	// before this one.
	SeriesMatches int
	SeriesWins    []int
	Times         []EventTime // oldest first
	// The end's settling (format 5: SettleNone, SettlePending,
	// SettleDone), when it fell due, and whether the seats' Before and
	// After ratings are kept.
	Settle    int
	SettleAt  int64
	HasResult bool
	// Chat is the seq of the table talk's latest message (chat.go; 0:
	// none), noted without a new version.
	Chat int
	// Room is what the community keeps in a game (format 5).
	Room
	// LeagueHints: the game's league allows hints; Hints are the hints
	// asked, oldest first (format 6, hint.go), noted without a new
	// version.
	LeagueHints bool
	Hints       []HintMark
	// Version is the game's version (API.md): 1 when made, one more with
	// every change (change.go); a note (write.go) keeps it, while the
	// store's version of the item counts every write (format 7).
	Version int64
	// SettledAt is when the end's settling was done (Unix seconds; 0: not
	// yet): a profile forgets having counted the game only well after it
	// (Forgettable).
	SettledAt int64
}

// Room is the community's part of a stored game: listed in the room
// (open), rated, when created, and the league or tournament it is a game
// of ("" none).
type Room struct {
	Open, Rated bool
	CreatedAt   int64
	League      string
	Tournament  string
}

// SeatAuth is what the API keeps of one seat.
type SeatAuth struct {
	TokenHash []byte       // nil for a free or computer seat
	Moves     []moveDigest // oldest first
	Since     int64        // Unix seconds it has had to act; 0: it need not
	Reminded  int          // its reminders for this turn that went out (0, 1: a quarter left, 2: a tenth)
	// Vacation is when the vacation of the key holding the seat ends
	// (Unix seconds; 0: none): vacation.go.
	Vacation int64
	TimedOut bool // its time ran out at least once in this match
	// SeatRoom is what the community keeps of the seat.
	SeatRoom
}

// SeatRoom is the community's part of a seat. Player is the public id of
// the key holding the seat ("" for none); Rating and Reliability are what
// its profile showed when it sat down (rated games; -1 for none),
// RatingAfter its shown rating after the match (-1 until settled); Before
// and After the model's values (Stored.HasResult).
type SeatRoom struct {
	Player      string
	Rating      int
	Reliability int
	RatingAfter int
	Provisional bool   // Rating was provisional (fewer rated matches in its pool than the room's bar)
	Feats       byte   // what it did in this match that earns trophies (trophies.go)
	Trophies    uint16 // the trophies it earned at the match's end (a mask of TrophyIDs)
	Before      rating.Rating
	After       rating.Rating
}

// Applied reports whether seat already made the move named id.
func (s *Stored) Applied(seat int, id string) bool {
	if id == "" || seat < 0 || seat >= len(s.Seats) {
		return false
	}
	d := digestMoveID(id)
	for _, m := range s.Seats[seat].Moves {
		if m == d {
			return true
		}
	}
	return false
}

// Remember records id as seat's latest applied move, forgetting the oldest
// beyond keptMoveIDs.
func (s *Stored) Remember(seat int, id string) {
	if id == "" {
		return
	}
	ms := append(s.Seats[seat].Moves, digestMoveID(id))
	if len(ms) > KeptMoveIDs {
		ms = append(ms[:0:0], ms[len(ms)-KeptMoveIDs:]...)
	}
	s.Seats[seat].Moves = ms
}

// EncodeStored lays out format 7 without its checksum (sealStored).
func EncodeStored(s *Stored) []byte {
	n := 1 + binary.MaxVarintLen64 + len(s.Match) + 1
	for _, a := range s.Seats {
		n += 2 + len(a.TokenHash) + len(a.Moves)*moveIDDigest
	}
	b := make([]byte, 0, n)
	b = append(b, StoredFormat)
	b = binary.AppendUvarint(b, uint64(len(s.Match)))
	b = append(b, s.Match...)
	b = append(b, byte(len(s.Seats)))
	for _, a := range s.Seats {
		b = append(b, byte(len(a.TokenHash)))
		b = append(b, a.TokenHash...)
		b = append(b, byte(len(a.Moves)))
		for _, d := range a.Moves {
			b = append(b, d[:]...)
		}
	}
	for _, a := range s.Seats {
		b = binary.AppendVarint(b, a.Since)
		b = append(b, byte(a.Reminded))
	}
	b = binary.AppendUvarint(b, uint64(s.MoveTime))
	b = appendID(b, s.Next)
	b = appendID(b, s.Previous)
	b = binary.AppendUvarint(b, uint64(s.SeriesMatches))
	b = append(b, byte(len(s.SeriesWins)))
	for _, w := range s.SeriesWins {
		b = binary.AppendUvarint(b, uint64(w))
	}
	b = binary.AppendUvarint(b, uint64(len(s.Times)))
	for _, t := range s.Times {
		b = binary.AppendUvarint(b, uint64(t.UpTo))
		b = binary.AppendVarint(b, t.At.Unix())
	}
	var flags byte
	for _, f := range []struct {
		on   bool
		flag byte
	}{{s.Open, flagOpen}, {s.Rated, flagRated}, {s.Settle == SettlePending, flagSettling},
		{s.Settle == SettleDone, flagSettled}, {s.HasResult, flagResult}, {s.onVacation(), flagVacation}, {s.Chat > 0, flagChat}, {s.anyProvisional(), flagProvisional}} {
		if f.on {
			flags |= f.flag
		}
	}
	b = append(b, flags)
	b = binary.AppendVarint(b, s.CreatedAt)
	b = binary.AppendVarint(b, s.SettleAt)
	b = appendID(b, s.League)
	b = appendID(b, s.Tournament)
	for _, a := range s.Seats {
		b = appendID(b, a.Player)
		for _, v := range []int{a.Rating, a.Reliability, a.RatingAfter} {
			b = binary.AppendUvarint(b, uint64(max(v, -1)+1))
		}
		if a.TimedOut {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = append(b, a.Feats)
		b = binary.BigEndian.AppendUint16(b, a.Trophies)
		if s.HasResult {
			for _, f := range []float64{a.Before.Mu, a.Before.Sigma, a.After.Mu, a.After.Sigma} {
				b = binary.BigEndian.AppendUint64(b, math.Float64bits(f))
			}
		}
	}
	if s.onVacation() {
		for _, a := range s.Seats {
			b = binary.AppendVarint(b, a.Vacation)
		}
	}
	if s.Chat > 0 {
		b = binary.AppendUvarint(b, uint64(s.Chat))
	}
	if s.anyProvisional() {
		for _, a := range s.Seats {
			if a.Provisional {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		}
	}
	if s.LeagueHints {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(s.Hints)))
	for _, h := range s.Hints {
		b = append(b, byte(h.Seat))
		b = binary.AppendUvarint(b, uint64(h.Seq))
	}
	b = binary.AppendUvarint(b, uint64(s.Version))
	return binary.AppendVarint(b, s.SettledAt)
}

// anyProvisional reports whether a seat's rating was provisional.
func (s *Stored) anyProvisional() bool {
	for _, a := range s.Seats {
		if a.Provisional {
			return true
		}
	}
	return false
}

// onVacation reports whether a seat's key is on vacation.
func (s *Stored) onVacation() bool {
	for _, a := range s.Seats {
		if a.Vacation != 0 {
			return true
		}
	}
	return false
}

func appendID(b []byte, id string) []byte {
	if id == "" {
		return append(b, 0)
	}
	raw, _ := IDEncoding.DecodeString(id) // ids kept here are valid
	return append(append(b, byte(len(raw))), raw...)
}

// storedReader reads a stored game; the first error sticks.
type storedReader struct {
	b   []byte
	err error
}

func (r *storedReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %w: %s", engine.ErrCorrupt, errStoredCheck, what)
	}
}

// next takes n bytes (they share the input).
func (r *storedReader) next(what string, n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.fail(what)
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// uvarint takes an unsigned varint of at most max.
func (r *storedReader) uvarint(what string, max uint64) int64 {
	v, n := binary.Uvarint(r.b)
	if r.err != nil || n <= 0 || v > max {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return int64(v)
}

// varint takes a signed varint.
func (r *storedReader) varint(what string) int64 {
	v, n := binary.Varint(r.b)
	if r.err != nil || n <= 0 {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// id takes a game id written by appendID.
func (r *storedReader) id(what string) string {
	n := r.count(what, IDBytes)
	if n != 0 && n != IDBytes {
		r.fail(what)
	}
	raw := r.next(what, n)
	if r.err != nil || n == 0 {
		return ""
	}
	return IDEncoding.EncodeToString(raw)
}

// count takes a count byte of at most max.
func (r *storedReader) count(what string, max int) int {
	b := r.next(what, 1)
	if b == nil || int(b[0]) > max {
		r.fail(what)
		return 0
	}
	return int(b[0])
}

// DecodeStored parses format 7, 6, 5 or 4 without its checksum (Version
// 0 for a format before 7: OpenStored knows it). The engine's
// bytes are not checked here (engine.Decode does that); the result may
// share b.
func DecodeStored(b []byte) (*Stored, error) {
	r := &storedReader{b: b}
	format := r.count("format", StoredFormat)
	if r.err == nil && format != StoredFormat && format != StoredFormat6 && format != StoredFormat5 && format != StoredFormat4 {
		r.fail("unknown format")
	}
	n, k := binary.Uvarint(r.b)
	if r.err == nil && (k <= 0 || n > uint64(len(r.b)-k)) {
		r.fail("engine length")
	}
	if r.err != nil {
		return nil, r.err
	}
	r.b = r.b[k:]
	s := &Stored{Match: r.next("engine bytes", int(n))}
	s.Seats = make([]SeatAuth, r.count("seat count", MaxSeats))
	for i := range s.Seats {
		if h := r.next("token hash", r.count("token hash", HashBytes)); len(h) > 0 {
			s.Seats[i].TokenHash = h
		}
		cnt := r.count("moveIds", KeptMoveIDs)
		raw := r.next("moveIds", cnt*moveIDDigest)
		if r.err != nil {
			return nil, r.err
		}
		s.Seats[i].Moves = make([]moveDigest, cnt)
		for j := range s.Seats[i].Moves {
			copy(s.Seats[i].Moves[j][:], raw[j*moveIDDigest:])
		}
	}
	for i := range s.Seats {
		s.Seats[i].Since = r.varint("since")
		s.Seats[i].Reminded = r.count("reminded", 2)
	}
	s.MoveTime = r.uvarint("moveTime", MaxMoveTime)
	s.Next, s.Previous = r.id("next"), r.id("previous")
	s.SeriesMatches = int(r.uvarint("series", 1<<31))
	s.SeriesWins = make([]int, r.count("series teams", MaxSeats))
	for i := range s.SeriesWins {
		s.SeriesWins[i] = int(r.uvarint("series wins", 1<<31))
	}
	s.Times = make([]EventTime, r.uvarint("event times", uint64(len(r.b))))
	for i := range s.Times {
		s.Times[i].UpTo = int(r.uvarint("event time", 1<<31))
		s.Times[i].At = time.Unix(r.varint("event time"), 0).UTC()
	}
	for i := range s.Seats {
		s.Seats[i].Rating, s.Seats[i].Reliability, s.Seats[i].RatingAfter = -1, -1, -1
	}
	if format >= StoredFormat5 {
		flags := r.count("flags", 255)
		s.Open, s.Rated, s.HasResult = flags&flagOpen != 0, flags&flagRated != 0, flags&flagResult != 0
		switch {
		case flags&flagSettling != 0:
			s.Settle = SettlePending
		case flags&flagSettled != 0:
			s.Settle = SettleDone
		}
		s.CreatedAt, s.SettleAt = r.varint("createdAt"), r.varint("settleAt")
		s.League, s.Tournament = r.id("league"), r.id("tournament")
		for i := range s.Seats {
			a := &s.Seats[i]
			a.Player = r.id("player")
			a.Rating = int(r.uvarint("rating", 1<<31)) - 1
			a.Reliability = int(r.uvarint("reliability", 101)) - 1
			a.RatingAfter = int(r.uvarint("rating after", 1<<31)) - 1
			a.TimedOut = r.count("timed out", 1) == 1
			a.Feats = byte(r.count("feats", 255))
			if t := r.next("trophies", 2); t != nil {
				a.Trophies = binary.BigEndian.Uint16(t)
			}
			if s.HasResult {
				f := make([]float64, 4)
				for j := range f {
					f[j] = math.Float64frombits(binary.BigEndian.Uint64(r.next("result", 8)))
				}
				if r.err == nil {
					a.Before, a.After = rating.Rating{Mu: f[0], Sigma: f[1]}, rating.Rating{Mu: f[2], Sigma: f[3]}
				}
			}
		}
		if flags&flagVacation != 0 {
			for i := range s.Seats {
				s.Seats[i].Vacation = r.varint("vacation")
			}
		}
		if flags&flagChat != 0 {
			s.Chat = int(r.uvarint("chat", 1<<31))
		}
		if flags&flagProvisional != 0 {
			for i := range s.Seats {
				s.Seats[i].Provisional = r.count("provisional", 1) == 1
			}
		}
	}
	if format >= StoredFormat6 {
		s.LeagueHints = r.count("league hints", 1) == 1
		s.Hints = make([]HintMark, r.uvarint("hints", MaxHints))
		for i := range s.Hints {
			s.Hints[i] = HintMark{Seat: r.count("hint seat", len(s.Seats)-1), Seq: int(r.uvarint("hint seq", 1<<31))}
		}
		if len(s.Hints) == 0 {
			s.Hints = nil
		}
	}
	if format >= StoredFormat {
		s.Version = r.uvarint("version", MaxStoredVersion)
		s.SettledAt = r.varint("settledAt")
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing data")
	}
	if r.err != nil {
		return nil, r.err
	}
	return s, nil
}

// NewStored wraps a match that has no moves yet; hash is the creator's, in
// seat 0.
func NewStored(m *engine.Match, hash []byte) *Stored {
	s := &Stored{Match: engine.Encode(m), Seats: make([]SeatAuth, m.Options().Players)}
	for i := range s.Seats {
		s.Seats[i].Rating, s.Seats[i].Reliability, s.Seats[i].RatingAfter = -1, -1, -1
	}
	s.Seats[0].TokenHash = hash
	return s
}

// errStoredCheck is a stored game that fails the API's own checks (its
// layout, checksum or version), whose messages name fields, never tiles:
// they are logged in full (logCause).
var errStoredCheck = errors.New("stored game")

// castagnoli is CRC-32C's table.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksumBytes is the size of the checksum.
const checksumBytes = 4

// storedChecksum is format 4's checksum of body, kept as game id at
// version.
func storedChecksum(id string, version int64, body []byte) uint32 {
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], uint64(version))
	c := crc32.Checksum([]byte(id), castagnoli)
	c = crc32.Update(c, castagnoli, v[:])
	return crc32.Update(c, castagnoli, body)
}

// SealStored is the state to store for s as game id at version.
func SealStored(id string, version int64, s *Stored) []byte {
	b := EncodeStored(s)
	return binary.BigEndian.AppendUint32(b, storedChecksum(id, version, b))
}

// MaxStoredVersion is the largest version the API accepts from the store:
// a version counts writes, and a page reads it as a JavaScript number,
// exact up to 2^53.
const MaxStoredVersion = 1 << 53

// OpenStored checks and parses the state of game id as loaded from the
// store. A value that fails (a checksum, a version out of range, a layout)
// is engine.ErrCorrupt: the API answers 500, and logs it with the game id.
func OpenStored(id string, item store.Item) (*Stored, error) {
	if item.Version < 1 || item.Version > MaxStoredVersion {
		return nil, fmt.Errorf("%w: %w: version %d", engine.ErrCorrupt, errStoredCheck, item.Version)
	}
	b := item.State
	if len(b) < 1+checksumBytes || b[0] != StoredFormat && b[0] != StoredFormat6 && b[0] != StoredFormat4 {
		return nil, fmt.Errorf("%w: %w: not a stored game of format %d", engine.ErrCorrupt, errStoredCheck, StoredFormat)
	}
	body := b[:len(b)-checksumBytes]
	if binary.BigEndian.Uint32(b[len(body):]) != storedChecksum(id, item.Version, body) {
		return nil, fmt.Errorf("%w: %w: the checksum does not match (a damaged value, or another game's)", engine.ErrCorrupt, errStoredCheck)
	}
	s, err := DecodeStored(body)
	if err != nil {
		return nil, err
	}
	if b[0] < StoredFormat {
		s.Version = item.Version // no note was written before format 7
	}
	if s.Version < 1 || s.Version > item.Version {
		return nil, fmt.Errorf("%w: %w: game version %d at the store's %d", engine.ErrCorrupt, errStoredCheck, s.Version, item.Version)
	}
	return s, nil
}

// Replay rebuilds the match s holds: engine.ErrCorrupt when it does not
// decode or its seats do not match its players.
func (s *Stored) Replay() (*engine.Match, error) {
	m, err := engine.Decode(s.Match)
	if err != nil {
		return nil, err
	}
	if len(s.Seats) != m.Options().Players {
		return nil, fmt.Errorf("%w: stored game: %d seats for %d players",
			engine.ErrCorrupt, len(s.Seats), m.Options().Players)
	}
	return m, nil
}
