// Package engine is Tessera's rules core: tiles, the layout (line, spinner,
// arms, open ends, count), the two rule sets (Five Up and the partnership
// block game), the match state machine, the view for one seat, the record of
// every hand, replay and the compact binary encoding.
//
// The engine is pure: no I/O, no clock, no global randomness. Randomness comes
// in as a seed; every deal is derived from it and recorded, so a match can be
// replayed from its records alone. Illegal input is an ordinary error value
// (ErrIllegalMove, ErrNotYourTurn, ...), never a panic.
package engine
