package store

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

func TestEnvelopeRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		item Item
	}{
		{"version 1 with a state", Item{Version: 1, State: []byte("state"), UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)}},
		{"empty state", Item{Version: 7, State: []byte{}, UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
		{"largest version", Item{Version: 1<<63 - 1, State: []byte{0}, UpdatedAt: time.Unix(0, 0).UTC()}},
		{"time before 1970", Item{Version: 2, State: []byte{1, 2}, UpdatedAt: time.Date(1900, 1, 1, 0, 0, 0, 999999999, time.UTC)}},
		{"time after 2262 (beyond UnixNano)", Item{Version: 3, State: []byte{3}, UpdatedAt: time.Date(3000, 1, 1, 0, 0, 0, 1, time.UTC)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			buf := encodeEnvelope(c.item)
			if len(buf) != envelopeHeaderLen+len(c.item.State) {
				t.Errorf("len = %d, want %d", len(buf), envelopeHeaderLen+len(c.item.State))
			}
			got, err := decodeEnvelope(buf)
			if err != nil {
				t.Fatalf("decodeEnvelope = %v", err)
			}
			if got.Version != c.item.Version || !bytes.Equal(got.State, c.item.State) || got.UpdatedAt != c.item.UpdatedAt {
				t.Errorf("decodeEnvelope = %+v, want %+v", got, c.item)
			}
		})
	}
}

func TestEnvelopeRejectsCorruptValues(t *testing.T) {
	valid := encodeEnvelope(Item{Version: 1, State: []byte("x"), UpdatedAt: time.Unix(1, 0)})
	withByte := func(i int, b byte) []byte {
		out := bytes.Clone(valid)
		out[i] = b
		return out
	}
	cases := []struct {
		name string
		buf  []byte
	}{
		{"empty value", nil},
		{"header cut short", valid[:envelopeHeaderLen-1]},
		{"unknown format", withByte(0, 2)},
		{"version 0", append([]byte{envelopeFormat, 0, 0, 0, 0, 0, 0, 0, 0}, valid[9:]...)},
		{"negative version", withByte(1, 0x80)},
		{"nanoseconds of a whole second", withByte(17, 0xff)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := decodeEnvelope(c.buf); !errors.Is(err, errCorruptEnvelope) {
				t.Errorf("decodeEnvelope(% x) = %v, want errCorruptEnvelope", c.buf, err)
			}
		})
	}
}

// FuzzEnvelope: decoding never panics, and whatever decodes re-encodes to the
// same bytes.
func FuzzEnvelope(f *testing.F) {
	f.Add(encodeEnvelope(Item{Version: 1, State: []byte("state"), UpdatedAt: time.Unix(1700000000, 5)}))
	f.Add([]byte{})
	f.Add([]byte{envelopeFormat})
	f.Fuzz(func(t *testing.T, buf []byte) {
		item, err := decodeEnvelope(buf)
		if err != nil {
			return
		}
		if again := encodeEnvelope(item); !bytes.Equal(again, buf) {
			t.Fatalf("encode(decode(% x)) = % x", buf, again)
		}
	})
}
