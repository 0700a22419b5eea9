package bolt

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"tessera/functions/store"
)

func TestValueRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		item store.Item
	}{
		{"version 1 with a state", store.Item{Version: 1, State: []byte("state"), UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)}},
		{"empty state", store.Item{Version: 7, State: []byte{}, UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
		{"largest version", store.Item{Version: 1<<63 - 1, State: []byte{0}, UpdatedAt: time.Unix(0, 0).UTC()}},
		{"time before 1970", store.Item{Version: 2, State: []byte{1, 2}, UpdatedAt: time.Date(1900, 1, 1, 0, 0, 0, 999999999, time.UTC)}},
		{"time after 2262 (beyond UnixNano)", store.Item{Version: 3, State: []byte{3}, UpdatedAt: time.Date(3000, 1, 1, 0, 0, 0, 1, time.UTC)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			buf := encodeValue(c.item)
			if len(buf) != valueHeaderLen+len(c.item.State) {
				t.Errorf("len = %d, want %d", len(buf), valueHeaderLen+len(c.item.State))
			}
			got, err := decodeValue(buf)
			if err != nil {
				t.Fatalf("decodeValue = %v", err)
			}
			if got.Version != c.item.Version || !bytes.Equal(got.State, c.item.State) || got.UpdatedAt != c.item.UpdatedAt {
				t.Errorf("decodeValue = %+v, want %+v", got, c.item)
			}
		})
	}
}

func TestValueRejectsCorruptValues(t *testing.T) {
	valid := encodeValue(store.Item{Version: 1, State: []byte("x"), UpdatedAt: time.Unix(1, 0)})
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
		{"header cut short", valid[:valueHeaderLen-1]},
		{"unknown format", withByte(0, 3)},
		{"format 0", withByte(0, 0)},
		{"version 0", append([]byte{valueFormat, 0, 0, 0, 0, 0, 0, 0, 0}, valid[9:]...)},
		{"negative version", withByte(1, 0x80)},
		{"nanoseconds of a whole second", withByte(17, 0xff)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := decodeValue(c.buf); !errors.Is(err, errCorruptValue) {
				t.Errorf("decodeValue(% x) = %v, want errCorruptValue", c.buf, err)
			}
		})
	}
}

// FuzzValue: decoding never panics, and whatever decodes re-encodes to the
// same bytes.
func FuzzValue(f *testing.F) {
	f.Add(encodeValue(store.Item{Version: 1, State: []byte("state"), UpdatedAt: time.Unix(1700000000, 5)}))
	f.Add([]byte{})
	f.Add([]byte{valueFormat})
	f.Fuzz(func(t *testing.T, buf []byte) {
		item, err := decodeValue(buf)
		if err != nil {
			return
		}
		if again := encodeValue(item); !bytes.Equal(again, buf) {
			t.Fatalf("encode(decode(% x)) = % x", buf, again)
		}
	})
}

// Values written before due times (format 1) still read, with no due time.
func TestValueFormat1StillReads(t *testing.T) {
	v1 := []byte{valueFormat1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 5, 's', 't'}
	item, err := decodeValue(v1)
	if err != nil || item.Version != 3 || string(item.State) != "st" || !item.Due.IsZero() ||
		!item.UpdatedAt.Equal(time.Unix(9, 5)) {
		t.Fatalf("decodeValue(format 1) = %+v, %v", item, err)
	}
	due := time.Unix(1700000000, 0).UTC()
	back, err := decodeValue(encodeValue(store.Item{Version: 2, State: []byte("x"), UpdatedAt: time.Unix(1, 0), Due: due}))
	if err != nil || !back.Due.Equal(due) {
		t.Fatalf("due time round trip: %+v, %v", back, err)
	}
}
