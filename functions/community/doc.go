// Package community is what players build around games: leagues (a
// group of friends with a table by month) and tournaments (round robin
// and Swiss). It implements game.Community, the hooks the game service
// calls at its seams (a game made in a league, a seat taken in one, a
// match's end settled, the sweep's due items), and the game service never
// imports it. Its items (a league, a tournament) are its own, in the same
// store, each with its own lifetime; every write goes through game.Retry.
// No net/http: package api serves it.
package community
