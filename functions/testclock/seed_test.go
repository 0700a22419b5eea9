package testclock

import (
	"bytes"
	"io"
	"testing"
)

// The same seed is the same stream (so a browser test's deals repeat); another
// seed is another; no number, no stream (the server keeps crypto/rand).
func TestSeededStreamsRepeat(t *testing.T) {
	read := func(r io.Reader) []byte {
		b := make([]byte, 48)
		if _, err := io.ReadFull(r, b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := read(Seeded(1)), read(Seeded(1)), read(Seeded(2))
	if !bytes.Equal(a, b) {
		t.Errorf("seed 1 twice: %x and %x", a, b)
	}
	if bytes.Equal(a, c) {
		t.Errorf("seeds 1 and 2 give the same bytes %x", a)
	}
	env := map[string]string{SeedEnv: "1"}
	if got := read(FromEnv(func(k string) string { return env[k] })); !bytes.Equal(got, a) {
		t.Errorf("FromEnv(%s=1) = %x, want seed 1's %x", SeedEnv, got, a)
	}
	for _, v := range []string{"", "x", "-1"} {
		env[SeedEnv] = v
		if r := FromEnv(func(k string) string { return env[k] }); r != nil {
			t.Errorf("FromEnv(%s=%q) = a stream, want none", SeedEnv, v)
		}
	}
}
