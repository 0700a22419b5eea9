package engine

import "fmt"

// Variant is a rule set.
type Variant uint8

const (
	FiveUp      Variant = 1 // "fiveup"
	Partnership Variant = 2 // "partnership"
)

// Options are a match's rule options, as in API.md's create request.
type Options struct {
	Variant Variant
	Players int
	Pairs   bool
	Target  int
	Redeal  bool
}

// MaxTarget is the highest target a match may be played to.
const MaxTarget = 1000

// DefaultOptions returns the defaults of a rule set.
func DefaultOptions(v Variant) Options {
	if v == Partnership {
		return Options{Variant: Partnership, Players: 4, Pairs: true, Target: 50}
	}
	return Options{Variant: FiveUp, Players: 4, Target: 250, Redeal: true}
}

// Validate checks the options against RULES.md; the error wraps ErrBadInput.
func (o Options) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrBadInput}, a...)...)
	}
	if o.Target < 1 || o.Target > MaxTarget {
		return bad("target must be 1..%d", MaxTarget)
	}
	switch o.Variant {
	case FiveUp:
		if o.Players < 2 || o.Players > 4 {
			return bad("fiveup is played by 2 to 4 players")
		}
		if o.Pairs && o.Players != 4 {
			return bad("pairs need 4 players")
		}
	case Partnership:
		if o.Players != 4 || !o.Pairs {
			return bad("partnership is played by 4 players in pairs")
		}
		if o.Redeal {
			return bad("partnership has no redeal")
		}
	default:
		return bad("unknown variant")
	}
	return nil
}

// Teams is the number of teams (scores).
func (o Options) Teams() int {
	if o.Pairs {
		return 2
	}
	return o.Players
}

// TeamOf is the team of a seat: seats 0 and 2 are team 0, 1 and 3 team 1 in
// pair play; otherwise every seat is its own team.
func (o Options) TeamOf(seat int) int {
	if o.Pairs {
		return seat % 2
	}
	return seat
}
