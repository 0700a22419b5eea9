package bolt

import (
	"bytes"
	"encoding/binary"
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
		{"largest version", store.Item{Version: maxVersion, State: []byte{0}, UpdatedAt: time.Unix(0, 0).UTC()}},
		{"time before 1970", store.Item{Version: 2, State: []byte{1, 2}, UpdatedAt: time.Date(1900, 1, 1, 0, 0, 0, 999999999, time.UTC)}},
		{"time after 2262 (beyond UnixNano)", store.Item{Version: 3, State: []byte{3}, UpdatedAt: time.Date(3000, 1, 1, 0, 0, 0, 1, time.UTC)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			buf := encodeValue("game", c.item)
			if len(buf) != valueHeaderLen+len(c.item.State)+checksumLen {
				t.Errorf("len = %d, want %d", len(buf), valueHeaderLen+len(c.item.State)+checksumLen)
			}
			got, err := decodeValue("game", buf)
			if err != nil {
				t.Fatalf("decodeValue = %v", err)
			}
			if got.Version != c.item.Version || !bytes.Equal(got.State, c.item.State) || got.UpdatedAt != c.item.UpdatedAt {
				t.Errorf("decodeValue = %+v, want %+v", got, c.item)
			}
		})
	}
}

// resealed is buf with byte i set to b and its checksum made right again:
// what the header checks alone must refuse.
func resealed(key string, buf []byte, i int, b byte) []byte {
	out := bytes.Clone(buf)
	out[i] = b
	body := out[:len(out)-checksumLen]
	binary.BigEndian.PutUint32(out[len(body):], checksum(key, body))
	return out
}

func TestValueRejectsCorruptValues(t *testing.T) {
	valid := encodeValue("game", store.Item{Version: 1, State: []byte("x"), UpdatedAt: time.Unix(1, 0)})
	flipped := func(i int) []byte {
		out := bytes.Clone(valid)
		out[i] ^= 0x01
		return out
	}
	huge := encodeValue("game", store.Item{Version: 1<<63 - 1, State: []byte("x"), UpdatedAt: time.Unix(1, 0)})
	cases := []struct {
		name string
		key  string
		buf  []byte
	}{
		{"empty value", "game", nil},
		{"header cut short", "game", valid[:valueHeaderLen-1]},
		{"checksum cut off", "game", valid[:len(valid)-checksumLen]},
		{"unknown format", "game", resealed("game", valid, 0, 5)},
		{"format 2 (never released)", "game", resealed("game", valid, 0, 2)},
		{"format 0", "game", resealed("game", valid, 0, 0)},
		{"a flipped version byte", "game", flipped(8)},
		{"a flipped time byte", "game", flipped(12)},
		{"a flipped due byte", "game", flipped(25)},
		{"a flipped state byte", "game", flipped(valueHeaderLen)},
		{"a flipped checksum byte", "game", flipped(len(valid) - 1)},
		{"another game's value (moved under this key)", "other", valid},
		{"version 0", "game", resealed("game", valid, 8, 0)},
		{"negative version", "game", resealed("game", valid, 1, 0x80)},
		{"a version past 2^53", "game", huge},
		{"nanoseconds of a whole second", "game", resealed("game", valid, 17, 0xff)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := decodeValue(c.key, c.buf); !errors.Is(err, store.ErrCorrupt) {
				t.Errorf("decodeValue(% x) = %v, want store.ErrCorrupt", c.buf, err)
			}
		})
	}
}

// FuzzValue: decoding never panics, and whatever decodes as the current
// format re-encodes to the same bytes.
func FuzzValue(f *testing.F) {
	f.Add(encodeValue("k", store.Item{Version: 1, State: []byte("state"), UpdatedAt: time.Unix(1700000000, 5)}))
	f.Add([]byte{})
	f.Add([]byte{valueFormat})
	f.Fuzz(func(t *testing.T, buf []byte) {
		item, err := decodeValue("k", buf)
		if err != nil || buf[0] != valueFormat {
			return
		}
		if again := encodeValue("k", item); !bytes.Equal(again, buf) {
			t.Fatalf("encode(decode(% x)) = % x", buf, again)
		}
	})
}

// A value of format 3 (the one written before 0.1.0, without the expiry)
// still reads, expiring store.TTL after its last write; formats 1 and 2
// (never released) are refused as corrupt.
func TestValueOldFormatsStillRead(t *testing.T) {
	v3 := []byte{valueFormat3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 5,
		0, 0, 0, 0, 0x65, 0x53, 0xf1, 0x00}
	v3 = append(v3, "st3"...)
	v3 = binary.BigEndian.AppendUint32(v3, checksum("k", v3))
	item, err := decodeValue("k", v3)
	if err != nil || item.Version != 4 || string(item.State) != "st3" || item.Due.Unix() != 0x6553f100 ||
		!item.UpdatedAt.Equal(time.Unix(9, 5)) || item.Expires.Unix() != time.Unix(9, 0).Add(store.TTL).Unix() {
		t.Fatalf("decodeValue(format 3) = %+v, %v", item, err)
	}
	for _, f := range []byte{1, 2} {
		old := append([]byte{f}, v3[1:]...)
		if _, err := decodeValue("k", old); !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("decodeValue(format %d) = %v, want ErrCorrupt", f, err)
		}
	}
	due, exp := time.Unix(1700000000, 0).UTC(), time.Unix(1800000000, 0).UTC()
	back, err := decodeValue("k", encodeValue("k", store.Item{Version: 2, State: []byte("x"), UpdatedAt: time.Unix(1, 0), Due: due, Expires: exp}))
	if err != nil || !back.Due.Equal(due) || !back.Expires.Equal(exp) {
		t.Fatalf("due time and expiry round trip: %+v, %v", back, err)
	}
	never, err := decodeValue("k", encodeValue("k", store.Item{Version: 1, UpdatedAt: time.Unix(1, 0)}))
	if err != nil || !never.Expires.IsZero() {
		t.Fatalf("an item that never expires reads back %+v, %v", never, err)
	}
}
