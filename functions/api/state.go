package api

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"tessera/engine"
)

// The stored state of a game is an envelope around the engine's encoding:
//
//	format byte (stateFormat)
//	uvarint length, then the engine's bytes (engine.Encode)
//	seat count byte; per seat: a count byte (0..16), then that many
//	  moveId digests of moveIDDigest bytes, oldest first
//
// The moveIds let a retried move be recognised (API.md: the last 16 of each
// seat at least). They are kept as short digests: the chance that a new
// moveId's digest equals one of the seat's 16 remembered ones is 16/2^32,
// and a collision would only make the server answer that seat's own move as
// already applied. Short digests keep the item small (DESIGN.md: DynamoDB
// bills reads per 4 KB and writes per 1 KB).
const (
	stateFormat  = 1
	moveIDDigest = 4
	keptMoveIDs  = 16
)

// moveDigest is a remembered moveId.
type moveDigest [moveIDDigest]byte

func digestMoveID(id string) moveDigest {
	sum := sha256.Sum256([]byte(id))
	var d moveDigest
	copy(d[:], sum[:])
	return d
}

// gameState is what the envelope holds: the engine's bytes and the moveIds.
type gameState struct {
	match []byte
	moves [][]moveDigest // per seat, oldest first
}

// applied reports whether seat already made the move named id.
func (s *gameState) applied(seat int, id string) bool {
	if id == "" || seat < 0 || seat >= len(s.moves) {
		return false
	}
	d := digestMoveID(id)
	for _, m := range s.moves[seat] {
		if m == d {
			return true
		}
	}
	return false
}

// remember records id as seat's latest applied move, forgetting the oldest
// beyond keptMoveIDs.
func (s *gameState) remember(seat int, id string) {
	if id == "" {
		return
	}
	ms := append(s.moves[seat], digestMoveID(id))
	if len(ms) > keptMoveIDs {
		ms = append(ms[:0:0], ms[len(ms)-keptMoveIDs:]...)
	}
	s.moves[seat] = ms
}

// encodeState lays out the envelope.
func encodeState(s *gameState) []byte {
	n := 1 + binary.MaxVarintLen64 + len(s.match) + 1
	for _, ms := range s.moves {
		n += 1 + len(ms)*moveIDDigest
	}
	b := make([]byte, 0, n)
	b = append(b, stateFormat)
	b = binary.AppendUvarint(b, uint64(len(s.match)))
	b = append(b, s.match...)
	b = append(b, byte(len(s.moves)))
	for _, ms := range s.moves {
		b = append(b, byte(len(ms)))
		for _, d := range ms {
			b = append(b, d[:]...)
		}
	}
	return b
}

// decodeState parses an envelope. The engine's bytes are not checked here
// (engine.Decode and engine.DecodeSeats do that); the result shares b.
func decodeState(b []byte) (*gameState, error) {
	bad := func(what string) error {
		return fmt.Errorf("%w: state envelope: %s", engine.ErrCorrupt, what)
	}
	if len(b) < 1 || b[0] != stateFormat {
		return nil, bad("unknown format")
	}
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, bad("engine length")
	}
	s := &gameState{match: b[k : k+int(n) : k+int(n)]}
	b = b[k+int(n):]
	if len(b) < 1 || b[0] > maxSeats {
		return nil, bad("seat count")
	}
	s.moves = make([][]moveDigest, b[0])
	b = b[1:]
	for i := range s.moves {
		if len(b) < 1 || b[0] > keptMoveIDs || len(b)-1 < int(b[0])*moveIDDigest {
			return nil, bad("moveIds")
		}
		cnt := int(b[0])
		b = b[1:]
		ms := make([]moveDigest, cnt)
		for j := range ms {
			copy(ms[j][:], b[j*moveIDDigest:])
		}
		s.moves[i] = ms
		b = b[cnt*moveIDDigest:]
	}
	if len(b) != 0 {
		return nil, bad("trailing data")
	}
	return s, nil
}

// newState wraps a match that has no moves yet.
func newState(m *engine.Match) *gameState {
	return &gameState{match: engine.Encode(m), moves: make([][]moveDigest, m.Options().Players)}
}
