package store_test

import (
	"fmt"
	"testing"
	"time"

	"tessera/functions/store"
	"tessera/functions/store/memory"
)

// Benchmarks of Load and Save per adapter and state size. 512 B is about a
// four-seat game in the engine's compact encoding; 8 KB is the contract's
// "large" blob.
//
//	go test -run '^$' -bench . -benchmem ./functions/store/

var benchSizes = []int{512, 8 << 10}

func benchStores(b *testing.B) map[string]store.Store {
	return map[string]store.Store{
		"memory": memory.New(),
		"bolt":   openBolt(b),
	}
}

func BenchmarkLoad(b *testing.B) {
	for _, name := range []string{"memory", "bolt"} {
		for _, size := range benchSizes {
			b.Run(fmt.Sprintf("%s/%dB", name, size), func(b *testing.B) {
				s := benchStores(b)[name]
				if err := s.Create(b.Context(), "g1", make([]byte, size), time.Now(), time.Time{}, time.Time{}); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := s.Load(b.Context(), "g1"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkSave(b *testing.B) {
	for _, name := range []string{"memory", "bolt"} {
		for _, size := range benchSizes {
			b.Run(fmt.Sprintf("%s/%dB", name, size), func(b *testing.B) {
				s := benchStores(b)[name]
				state := make([]byte, size)
				now := time.Now()
				if err := s.Create(b.Context(), "g1", state, now, time.Time{}, time.Time{}); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(size))
				version := int64(1)
				for b.Loop() {
					if err := s.Save(b.Context(), "g1", state, version, now, time.Time{}, time.Time{}); err != nil {
						b.Fatal(err)
					}
					version++
				}
			})
		}
	}
}
