package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// The bbolt value of one game is a small binary envelope:
//
//	offset  size  field
//	0       1     format (envelopeFormat)
//	1       8     version, big-endian
//	9       8     updatedAt, Unix seconds, big-endian two's complement
//	17      4     updatedAt, nanoseconds within the second, big-endian
//	21      ...   state, to the end of the value
//
// A format byte lets a later layout coexist with files already written.
const (
	envelopeFormat    = 1
	envelopeHeaderLen = 21
)

var errCorruptEnvelope = errors.New("store: corrupt envelope")

// encodeEnvelope lays out item as described above.
func encodeEnvelope(item Item) []byte {
	buf := make([]byte, envelopeHeaderLen+len(item.State))
	buf[0] = envelopeFormat
	binary.BigEndian.PutUint64(buf[1:9], uint64(item.Version))
	binary.BigEndian.PutUint64(buf[9:17], uint64(item.UpdatedAt.Unix()))
	binary.BigEndian.PutUint32(buf[17:21], uint32(item.UpdatedAt.Nanosecond()))
	copy(buf[envelopeHeaderLen:], item.State)
	return buf
}

// decodeEnvelope parses a value written by encodeEnvelope. The returned state
// is a copy, so it outlives the bbolt transaction that produced buf.
func decodeEnvelope(buf []byte) (Item, error) {
	item, err := decodeHeader(buf)
	if err != nil {
		return Item{}, err
	}
	item.State = cloneBytes(buf[envelopeHeaderLen:])
	return item, nil
}

// decodeHeader parses everything but the state; Save needs only the version
// and should not copy the state to learn it.
func decodeHeader(buf []byte) (Item, error) {
	if len(buf) < envelopeHeaderLen {
		return Item{}, fmt.Errorf("%w: %d bytes, want at least %d", errCorruptEnvelope, len(buf), envelopeHeaderLen)
	}
	if buf[0] != envelopeFormat {
		return Item{}, fmt.Errorf("%w: format %d, want %d", errCorruptEnvelope, buf[0], envelopeFormat)
	}
	version := int64(binary.BigEndian.Uint64(buf[1:9]))
	if version < 1 {
		return Item{}, fmt.Errorf("%w: version %d", errCorruptEnvelope, version)
	}
	nanos := binary.BigEndian.Uint32(buf[17:21])
	if nanos >= uint32(time.Second) {
		return Item{}, fmt.Errorf("%w: %d nanoseconds", errCorruptEnvelope, nanos)
	}
	secs := int64(binary.BigEndian.Uint64(buf[9:17]))
	return Item{Version: version, UpdatedAt: time.Unix(secs, int64(nanos)).UTC()}, nil
}
