package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"tessera/functions/store"
	"tessera/functions/store/memory"
	"tessera/functions/store/storetest"
)

// outcome classifies an error by the sentinel it carries.
func outcome(err error) string {
	for _, s := range []error{store.ErrNotFound, store.ErrExists, store.ErrConflict, store.ErrUnavailable} {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	if err != nil {
		return "other error: " + err.Error()
	}
	return "ok"
}

// A property test: random sequences of creates, loads and saves (with right,
// stale and future versions) give the same outcomes and items on every
// adapter, with Memory as the reference.
func TestAdaptersAgreeOnRandomOperations(t *testing.T) {
	const ops = 300
	ids := []string{"a", "b", "c", "d"}
	for seed := range uint64(3) {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			stores := []struct {
				name string
				s    store.Store
			}{
				{"memory", memory.New()},
				{"bolt", openBolt(t)},
				{"dynamo", storetest.NewDynalite(t)},
			}
			rng := rand.New(rand.NewPCG(seed, 99))
			version := map[string]int64{} // the reference's versions, to aim near them
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			covered := map[string]bool{} // "<op> ok" or "<op> failed", of the reference
			for i := range ops {
				id := ids[rng.IntN(len(ids))]
				state := make([]byte, rng.IntN(64))
				for j := range state {
					state[j] = byte(rng.UintN(256))
				}
				now = now.Add(time.Duration(rng.IntN(1e9)) * time.Nanosecond)
				expected := version[id] + int64(rng.IntN(3)) - 1 // stale, right or ahead
				op := rng.IntN(3)

				var results []string
				for k, st := range stores {
					var err error
					var item store.Item
					switch op {
					case 0:
						err = st.s.Create(t.Context(), id, state, now, time.Time{}, time.Time{})
					case 1:
						item, err = st.s.Load(t.Context(), id)
					case 2:
						err = st.s.Save(t.Context(), id, state, expected, now, time.Time{}, time.Time{})
					}
					if k == 0 {
						covered[fmt.Sprintf("%d %v", op, err == nil)] = true
					}
					results = append(results, fmt.Sprintf("%s v%d %x %s", outcome(err), item.Version, item.State, item.UpdatedAt.Format(time.RFC3339Nano)))
				}
				for k := 1; k < len(stores); k++ {
					if results[k] != results[0] {
						t.Fatalf("op %d (%d on %q, expected %d): %s = %q, %s = %q", i, op, id, expected, stores[0].name, results[0], stores[k].name, results[k])
					}
				}
				if item, err := stores[0].s.Load(t.Context(), id); err == nil {
					version[id] = item.Version
				}
			}
			for op := range 3 {
				for _, ok := range []bool{true, false} {
					if !covered[fmt.Sprintf("%d %v", op, ok)] {
						t.Errorf("no op %d with success %v; the run is too narrow to compare", op, ok)
					}
				}
			}
			// The final states agree too.
			for _, id := range ids {
				want, wantErr := stores[0].s.Load(t.Context(), id)
				for _, st := range stores[1:] {
					got, err := st.s.Load(t.Context(), id)
					if outcome(err) != outcome(wantErr) || got.Version != want.Version || !bytes.Equal(got.State, want.State) || !got.UpdatedAt.Equal(want.UpdatedAt) {
						t.Errorf("final %q: %s = %+v, %v; memory = %+v, %v", id, st.name, got, err, want, wantErr)
					}
				}
			}
		})
	}
}
