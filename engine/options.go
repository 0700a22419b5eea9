package engine

// Variant is a rule set.
type Variant uint8

// The variants are declared with their rule sets (fiveup.go, ...).

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
