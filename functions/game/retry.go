package game

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"tessera/functions/store"
)

// Every optimistic write of the service (a game, a player record, a
// profile, a leaderboard entry, a league, a tournament, a game's talk)
// is retried by one helper, retry, with a limit for its kind. A write
// "loses a race" when its condition fails: store.ErrConflict (somebody
// saved the item in between) or store.ErrExists (somebody created it
// first). Anything else ends the retries at once.
type WriteKind struct {
	name     string
	attempts int
	// backOff: wait a random, doubling time between attempts. Writes
	// that commute with any other (adding a game to a record, counting a
	// match in a profile) back off, so that many writers at once spread
	// out; a game's writes do not (the next attempt must see the game as
	// it now is, and a person is waiting for the answer).
	backOff bool
	// exhausted is what the last lost race becomes: store.ErrUnavailable
	// (try again later) unless the kind says otherwise.
	exhausted error
}

// The kinds and their limits (docs/settling.md "Retries"); the
// community's (leagues, tournaments) are here too, so that every limit
// is in one place.
var (
	// gameWrites: a change of a game that commutes with the change it
	// lost to (a seat taken beside another, a timeout or a vacation
	// after a move, a settling mark): reload and apply again.
	gameWrites = WriteKind{name: "game", attempts: 5}
	// gameIDs: a new game's random id that exists already.
	gameIDs = WriteKind{name: "new game id", attempts: 5, exhausted: ErrInternal}
	// recordWrites: adding a game or a device commutes with any other
	// change (attack kit D3: 16 keyed creates at once with one key lost
	// 8 in a row); with the back-off, at most about 2 s in all.
	recordWrites = WriteKind{name: "player record", attempts: 40, backOff: true}
	// profileWrites: 32 rated games of one player ending at once.
	ProfileWrites    = WriteKind{name: "profile", attempts: 40, backOff: true}
	BoardWrites      = WriteKind{name: "leaderboard entry", attempts: 40, backOff: true}
	LeagueWrites     = WriteKind{name: "league", attempts: 40, backOff: true}
	TournamentWrites = WriteKind{name: "tournament", attempts: 40, backOff: true}
	ReportWrites     = WriteKind{name: "report", attempts: 40, backOff: true}
	chatWrites       = WriteKind{name: "table talk", attempts: 20, backOff: true}
	// vapidWrites: the key pair made once; a lost race reads the winner's.
	vapidWrites = WriteKind{name: "VAPID keys", attempts: 2}
)

// ErrUnchanged, from a change function, ends an update that has nothing
// to write: the update answers what it read, and writes nothing.
var ErrUnchanged = errors.New("unchanged")

// isLostRace reports whether err is a failed condition of an optimistic
// write, which another attempt may win.
func isLostRace(err error) bool {
	return errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrExists)
}

// Retry runs write until it ends other than by losing a race, at most
// k.attempts times. write gets the attempt's number (0 first) and must
// read afresh what it writes on every attempt but the first when the
// caller already holds it.
func Retry(ctx context.Context, k WriteKind, write func(attempt int) error) error {
	for attempt := 0; ; attempt++ {
		err := write(attempt)
		if !isLostRace(err) {
			return err
		}
		if !k.again(ctx, attempt) {
			return k.lost()
		}
	}
}

// again reports whether a write of kind k whose attempt (0 first) lost a
// race is tried once more, after the kind's back-off: a loop's own
// Retry, for a write that keeps what it read between attempts (update).
func (k WriteKind) again(ctx context.Context, attempt int) bool {
	if attempt+1 >= k.attempts {
		return false
	}
	if k.backOff {
		backOff(ctx, attempt)
	}
	return true
}

// lost is the error of a write of kind k whose every attempt lost a race.
func (k WriteKind) lost() error {
	exhausted := k.exhausted
	if exhausted == nil {
		exhausted = store.ErrUnavailable
	}
	return fmt.Errorf("%w: %s: %d writes in a row lost a race", exhausted, k.name, k.attempts)
}

// backOff waits before retry attempt+1 of a write that lost a race: a
// random time below 2^attempt ms, at most 64 ms, so writers that collided
// spread out.
func backOff(ctx context.Context, attempt int) {
	d := time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 6)))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
