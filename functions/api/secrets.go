package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"strings"

	"tessera/engine"
)

// Seat tokens, their hashes, game ids and match seeds: everything drawn from
// Config.Rand.

const (
	tokenBytes = 16 // 128 bits
	// tokenLen is a token's length in base64url without padding.
	tokenLen  = (tokenBytes*8 + 5) / 6
	hashBytes = 16 // SHA-256 truncated: what the stored game keeps per seat
	idBytes   = 10 // 80 bits
	idLen     = idBytes * 8 / 5
)

// idEncoding writes game ids in lowercase base32 without padding: URL-safe
// and easy to read aloud.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

func readRandom(r io.Reader, n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("%w: random source: %v", errInternal, err)
	}
	return b, nil
}

// newGameID draws a random game id of idLen characters.
func newGameID(r io.Reader) (string, error) {
	b, err := readRandom(r, idBytes)
	if err != nil {
		return "", err
	}
	return idEncoding.EncodeToString(b), nil
}

// validGameID reports whether id can name a game at all; others are 404
// without asking the store.
func validGameID(id string) bool {
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
	return token, hashToken(token), nil
}

// seatToken is the token of a seat being taken: the player's key when
// given, else a new one the server draws; with the hash to store.
func (h *Handler) seatToken(key string) (string, []byte, error) {
	if key != "" {
		return key, hashToken(key), nil
	}
	return newToken(h.rand)
}

// hashToken is what the server keeps of a token.
func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:hashBytes]
}

// newSeed draws a match's secret seed.
func newSeed(r io.Reader) (engine.Seed, error) {
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

// wellFormedKey reports whether s can be a seat token or a player key: 22
// to 64 characters of A-Z a-z 0-9 - _ (a token the server draws is 22 of
// them).
func wellFormedKey(s string) bool {
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
	if !found || !strings.EqualFold(scheme, "Bearer") || !wellFormedKey(tok) {
		return "", true, false
	}
	return tok, true, true
}

// seatOf returns the seat whose stored hash matches token, or -1. Every
// seat is compared, in constant time, whatever matches.
func seatOf(seats []seatAuth, token string) int { return seatOfHash(seats, hashToken(token)) }

// seatOfHash is seatOf for a token's hash.
func seatOfHash(seats []seatAuth, h []byte) int {
	found := -1
	for i := range seats {
		if subtle.ConstantTimeCompare(h, seats[i].tokenHash) == 1 {
			found = i
		}
	}
	return found
}
