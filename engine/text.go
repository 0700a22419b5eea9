package engine

import "fmt"

// The names of End, Variant, Status and Phase are API.md's words. Each type
// reads and writes them as text (encoding.TextMarshaler and
// TextUnmarshaler), so the view carries the types themselves and JSON
// writes the names; nobody else keeps a copy of the words.

var (
	statusNames = []string{StatusOpen: "open", StatusPlaying: "playing", StatusFinished: "finished"}
	phaseNames  = []string{PhaseConfirm: "confirm", PhasePlay: "play", PhaseOver: "over"}
)

// name is names[i], or "" when i has none.
func name(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return ""
	}
	return names[i]
}

// marshalName writes names[i], refusing a value without a name.
func marshalName(what string, names []string, i int) ([]byte, error) {
	if n := name(names, i); n != "" {
		return []byte(n), nil
	}
	return nil, fmt.Errorf("%w: %s %d has no name", ErrBadInput, what, i)
}

// unmarshalName finds text among names; the error wraps ErrBadInput.
func unmarshalName(what string, names []string, text []byte) (int, error) {
	for i, n := range names {
		if n != "" && n == string(text) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown %s %q", ErrBadInput, what, text)
}

func (e End) String() string {
	if n := name(endNames[:], int(e)); n != "" {
		return n
	}
	return fmt.Sprintf("end(%d)", uint8(e))
}

// MarshalText writes the end's name ("lead", "left", ...).
func (e End) MarshalText() ([]byte, error) { return marshalName("end", endNames[:], int(e)) }

// UnmarshalText reads an end's name; anything else wraps ErrBadInput.
func (e *End) UnmarshalText(text []byte) error {
	i, err := unmarshalName("end", endNames[:], text)
	if err == nil {
		*e = End(i)
	}
	return err
}

// variantNames is each rule set's Name, indexed by Variant.
var variantNames = func() []string {
	names := make([]string, len(ruleSets))
	for v, r := range ruleSets {
		if r != nil {
			names[v] = r.Name
		}
	}
	return names
}()

func (v Variant) String() string {
	if n := name(variantNames, int(v)); n != "" {
		return n
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// MarshalText writes the rule set's name ("fiveup", ...).
func (v Variant) MarshalText() ([]byte, error) { return marshalName("variant", variantNames, int(v)) }

// UnmarshalText reads a rule set's name; anything else wraps ErrBadInput.
func (v *Variant) UnmarshalText(text []byte) error {
	i, err := unmarshalName("variant", variantNames, text)
	if err == nil {
		*v = Variant(i)
	}
	return err
}

func (s Status) String() string {
	if n := name(statusNames, int(s)); n != "" {
		return n
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// MarshalText writes "open", "playing" or "finished".
func (s Status) MarshalText() ([]byte, error) { return marshalName("status", statusNames, int(s)) }

// UnmarshalText reads a status's name; anything else wraps ErrBadInput.
func (s *Status) UnmarshalText(text []byte) error {
	i, err := unmarshalName("status", statusNames, text)
	if err == nil {
		*s = Status(i)
	}
	return err
}

func (p Phase) String() string {
	if n := name(phaseNames, int(p)); n != "" {
		return n
	}
	return fmt.Sprintf("phase(%d)", uint8(p))
}

// MarshalText writes "confirm", "play" or "over".
func (p Phase) MarshalText() ([]byte, error) { return marshalName("phase", phaseNames, int(p)) }

// UnmarshalText reads a phase's name; anything else wraps ErrBadInput.
func (p *Phase) UnmarshalText(text []byte) error {
	i, err := unmarshalName("phase", phaseNames, text)
	if err == nil {
		*p = Phase(i)
	}
	return err
}
