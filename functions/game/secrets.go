package game

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"

	"tessera/engine"
)

// Seat tokens, their hashes, game ids and match seeds: everything drawn from
// Config.Rand.

const (
	tokenBytes = 16 // 128 bits
	// tokenLen is a token's length in base64url without padding.
	tokenLen  = (tokenBytes*8 + 5) / 6
	HashBytes = 16 // SHA-256 truncated: what the stored game keeps per seat
	IDBytes   = 10 // 80 bits
	idLen     = IDBytes * 8 / 5
)

// IDEncoding writes game ids in lowercase base32 without padding: URL-safe
// and easy to read aloud.
var IDEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

func readRandom(r io.Reader, n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("%w: random source: %v", ErrInternal, err)
	}
	return b, nil
}

// NewGameID draws a random game id of idLen characters.
func NewGameID(r io.Reader) (string, error) {
	b, err := readRandom(r, IDBytes)
	if err != nil {
		return "", err
	}
	return IDEncoding.EncodeToString(b), nil
}

// ValidGameID reports whether id can name a game at all; others are 404
// without asking the store.
func ValidGameID(id string) bool {
	if len(id) != idLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// newToken draws a seat token and returns it with the hash to store.
func newToken(r io.Reader) (token string, hash []byte, err error) {
	b, err := readRandom(r, tokenBytes)
	if err != nil {
		return "", nil, err
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token), nil
}

// SeatToken is the token of a seat being taken: the player's key when
// given, else a new one the server draws; with the hash to store.
func (h *Service) SeatToken(key string) (string, []byte, error) {
	if key != "" {
		return key, HashToken(key), nil
	}
	return newToken(h.rand)
}

// HashToken is what the server keeps of a token.
func HashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:HashBytes]
}

// NewSeed draws a match's secret seed.
func NewSeed(r io.Reader) (engine.Seed, error) {
	b, err := readRandom(r, 16)
	if err != nil {
		return engine.Seed{}, err
	}
	return engine.Seed{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}, nil
}

// Player keys (API.md "Players"): a seat token the client chose.
const (
	minKeyLen = 22
	maxKeyLen = 64
)

// WellFormedKey reports whether s can be a seat token or a player key: 22
// to 64 characters of A-Z a-z 0-9 - _ (a token the server draws is 22 of
// them).
func WellFormedKey(s string) bool {
	if len(s) < minKeyLen || len(s) > maxKeyLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// SeatOf returns the seat whose stored hash matches token, or -1. Every
// seat is compared, in constant time, whatever matches.
func SeatOf(seats []SeatAuth, token string) int { return SeatOfHash(seats, HashToken(token)) }

// SeatOfHash is seatOf for a token's hash.
func SeatOfHash(seats []SeatAuth, h []byte) int {
	found := -1
	for i := range seats {
		if subtle.ConstantTimeCompare(h, seats[i].TokenHash) == 1 {
			found = i
		}
	}
	return found
}
