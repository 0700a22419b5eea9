package game

import (
	"encoding/json"
	"fmt"
	"slices"

	"tessera/engine"
)

// What the game service and the community share of their items.

// The JSON items (a game's talk; the community's profiles, leagues and tournaments) are a format byte and
// the JSON of their value: EncodeJSONItem and DecodeJSONItem.
func EncodeJSONItem(format byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append([]byte{format}, b...), nil
}

// DecodeJSONItem reads an item of format (what names it in errors); one
// without an id is corrupt.
func DecodeJSONItem[T any](b []byte, format byte, what string, id func(*T) string) (*T, error) {
	if len(b) < 1 || b[0] != format {
		return nil, fmt.Errorf("%w: %s: unknown format", engine.ErrCorrupt, what)
	}
	var v T
	if err := json.Unmarshal(b[1:], &v); err != nil || id(&v) == "" {
		return nil, fmt.Errorf("%w: %s: %v", engine.ErrCorrupt, what, err)
	}
	return &v, nil
}

// PoolOf is the rating pool of a game's options (API.md "Ratings"), ""
// for a rule set that has none.
func PoolOf(o engine.Options) string {
	if p := RatingPool(o); p != nil {
		return p.Name
	}
	return ""
}

// RatingPool is the pool (the registry's value: engine.Pool) of a game
// with options o; nil for one never rated.
func RatingPool(o engine.Options) *engine.Pool {
	if r := o.Rules(); r != nil && r.Pool != nil {
		return r.Pool(o)
	}
	return nil
}

// AppendCapped appends v, keeping the last n.
func AppendCapped[T any](s []T, v T, n int) []T {
	s = append(s, v)
	if len(s) > n {
		s = slices.Clone(s[len(s)-n:])
	}
	return s
}

// KnownVariant reports whether name is a rule set the server plays.
func KnownVariant(name string) bool {
	for _, r := range engine.RuleSets() {
		if r.Name == name {
			return true
		}
	}
	return false
}
