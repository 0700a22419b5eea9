package bolt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"tessera/functions/store"
)

// The bbolt value of one game: a small header (version, time of the last
// write, due time) before the opaque state:
//
//	offset  size  field
//	0       1     format (valueFormat)
//	1       8     version, big-endian
//	9       8     updatedAt, Unix seconds, big-endian two's complement
//	17      4     updatedAt, nanoseconds within the second, big-endian
//	21      8     due, Unix seconds, big-endian; 0 for none (format 2)
//	29      ...   state, to the end of the value
//
// Format 1 had no due time (its state starts at 21); it is still read.
const (
	valueFormat     = 2
	valueFormat1    = 1
	valueHeaderLen  = 29
	valueHeader1Len = 21
)

var errCorruptValue = errors.New("store: corrupt bbolt value")

// encodeValue lays out item as described above.
func encodeValue(item store.Item) []byte {
	buf := make([]byte, valueHeaderLen+len(item.State))
	buf[0] = valueFormat
	binary.BigEndian.PutUint64(buf[1:9], uint64(item.Version))
	binary.BigEndian.PutUint64(buf[9:17], uint64(item.UpdatedAt.Unix()))
	binary.BigEndian.PutUint32(buf[17:21], uint32(item.UpdatedAt.Nanosecond()))
	if !item.Due.IsZero() {
		binary.BigEndian.PutUint64(buf[21:29], uint64(item.Due.Unix()))
	}
	copy(buf[valueHeaderLen:], item.State)
	return buf
}

// decodeValue parses a value written by encodeValue. The returned state
// is a copy, so it outlives the bbolt transaction that produced buf.
func decodeValue(buf []byte) (store.Item, error) {
	item, err := decodeHeader(buf)
	if err != nil {
		return store.Item{}, err
	}
	item.State = store.CloneBytes(buf[headerLen(buf[0]):])
	return item, nil
}

// decodeHeader parses everything but the state; Save needs only the version
// and should not copy the state to learn it.
func decodeHeader(buf []byte) (store.Item, error) {
	if len(buf) < 1 || buf[0] != valueFormat && buf[0] != valueFormat1 {
		return store.Item{}, fmt.Errorf("%w: unknown format", errCorruptValue)
	}
	if n := headerLen(buf[0]); len(buf) < n {
		return store.Item{}, fmt.Errorf("%w: %d bytes, want at least %d", errCorruptValue, len(buf), n)
	}
	version := int64(binary.BigEndian.Uint64(buf[1:9]))
	if version < 1 {
		return store.Item{}, fmt.Errorf("%w: version %d", errCorruptValue, version)
	}
	nanos := binary.BigEndian.Uint32(buf[17:21])
	if nanos >= uint32(time.Second) {
		return store.Item{}, fmt.Errorf("%w: %d nanoseconds", errCorruptValue, nanos)
	}
	secs := int64(binary.BigEndian.Uint64(buf[9:17]))
	item := store.Item{Version: version, UpdatedAt: time.Unix(secs, int64(nanos)).UTC()}
	if buf[0] == valueFormat {
		if due := int64(binary.BigEndian.Uint64(buf[21:29])); due != 0 {
			item.Due = time.Unix(due, 0).UTC()
		}
	}
	return item, nil
}

func headerLen(format byte) int {
	if format == valueFormat1 {
		return valueHeader1Len
	}
	return valueHeaderLen
}
