package engine

import "errors"

// Sentinel errors. Callers match them with errors.Is; the wrapped message says
// why in words a player understands.
var (
	// ErrBadInput: a value out of range (a pip, an end, a seat, an option).
	ErrBadInput = errors.New("bad input")
	// ErrNotYourTurn: the seat may not act now (game not started or over,
	// another seat's turn, a play during the redeal question, a redeal
	// answer from a seat not asked).
	ErrNotYourTurn = errors.New("not your turn")
	// ErrIllegalMove: a well-formed move the rules forbid.
	ErrIllegalMove = errors.New("illegal move")
	// ErrSeatTaken: the named seat is taken while others are free.
	ErrSeatTaken = errors.New("seat taken")
	// ErrGameFull: every seat is taken.
	ErrGameFull = errors.New("game full")
	// ErrCorrupt: an encoded state that cannot be decoded or replayed.
	ErrCorrupt = errors.New("corrupt state")
	// ErrLimit: a move within the rules that a bound refuses (a seat's
	// away and back moves in one hand: MaxAskedChanges).
	ErrLimit = errors.New("limit reached")
)
