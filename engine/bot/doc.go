// Package bot holds Tessera's computer players.
//
// A Player decides one move for one seat from that seat's view alone
// (engine.View: its own tiles, its legal moves, the board, every seat's tile
// count, the boneyard size, the scores and the public log) and a seed. It
// never sees another seat's tiles or the boneyard: the view does not hold
// them, and this package uses nothing of the engine but its exported,
// public-information API plus engine.NewSim for positions it invents itself.
//
// Three levels:
//
//   - easy: Easy, a uniformly random legal move.
//   - medium: a one-ply heuristic player. It scores every legal move by the
//     count it takes, the count it may leave the next opponent (weighted by
//     what that opponent can hold, read from passes and draws), the pips and
//     doubles it sheds, the numbers it keeps to follow with, blocking
//     opponents and not blocking a partner, and weighs points more near the
//     match target.
//   - hard: determinized Monte Carlo. It samples the hidden tiles
//     consistently with everything public (unseen tiles, each seat's count,
//     the boneyard size, the numbers each seat is known to lack), plays every
//     candidate move out to the end of the hand in each sampled world with a
//     fast version of the medium policy (the count taken, pips and doubles
//     shed, the next opponent's best reply in that world), and picks the move
//     with the best mean point difference for its team, counting a reached
//     target as a win or a loss. Its budget is a fixed number of playouts, so a decision depends
//     only on the view and the seed.
//
// Every player is deterministic for a given view and seed: randomness comes
// from the seed through math/rand/v2's PCG, and no decision depends on map
// iteration order or on the clock.
package bot
