package store_test

import (
	"path/filepath"
	"testing"

	"tessera/functions/store"
	"tessera/functions/store/bolt"
	"tessera/functions/store/memory"
	"tessera/functions/store/storetest"
	"tessera/internal/testenv"
)

// One dynalite serves every test of this package.
func TestMain(m *testing.M) { testenv.Main(m) }

func TestMemoryContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return memory.New() })
}

func TestBoltContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openBolt(t) })
}

func TestDynamoContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return storetest.NewDynalite(t) })
}

// openBolt opens a fresh file in the test's temporary directory.
func openBolt(t testing.TB) *bolt.Store {
	t.Helper()
	b, err := bolt.Open(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatalf("OpenBolt: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return b
}
