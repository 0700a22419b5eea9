package bolt

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"time"

	"tessera/functions/store"
)

// The bbolt value of one item: a small header (version, time of the last
// write, due time, expiry) before the opaque state, and a checksum:
//
//	offset  size  field
//	0       1     format (valueFormat)
//	1       8     version, big-endian
//	9       8     updatedAt, Unix seconds, big-endian two's complement
//	17      4     updatedAt, nanoseconds within the second, big-endian
//	21      8     due, Unix seconds, big-endian; 0 for none
//	29      8     expires, Unix seconds, big-endian; 0 for never
//	37      ...   state
//	end-4   4     CRC-32C (Castagnoli) of the key, then of every byte above
//
// The checksum covers the key, so a value moved under another key (game B
// served under A's id) fails it as a flipped byte does. Format 3, written
// before 0.1.0, is the same without the expiry (its state starts at 29;
// every item expired store.TTL after its last write); it is still read,
// and rewritten as format 4 by its next write. Formats 1 and 2 were never
// released and are no longer read.
const (
	valueFormat     = 4
	valueFormat3    = 3
	valueHeaderLen  = 37
	valueHeader3Len = 29
	checksumLen     = 4
	// maxVersion is the largest version read back: versions count writes,
	// and a JavaScript number holds integers exactly up to 2^53.
	maxVersion = 1 << 53
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksum is the CRC-32C of key and then body.
func checksum(key string, body []byte) uint32 {
	return crc32.Update(crc32.Checksum([]byte(key), castagnoli), castagnoli, body)
}

// corrupt is a value that fails its checks.
func corrupt(format string, a ...any) error {
	return fmt.Errorf("%w: bbolt value: "+format, append([]any{store.ErrCorrupt}, a...)...)
}

// encodeValue lays out item, kept under key, as described above.
func encodeValue(key string, item store.Item) []byte {
	buf := make([]byte, valueHeaderLen+len(item.State), valueHeaderLen+len(item.State)+checksumLen)
	buf[0] = valueFormat
	binary.BigEndian.PutUint64(buf[1:9], uint64(item.Version))
	binary.BigEndian.PutUint64(buf[9:17], uint64(item.UpdatedAt.Unix()))
	binary.BigEndian.PutUint32(buf[17:21], uint32(item.UpdatedAt.Nanosecond()))
	if !item.Due.IsZero() {
		binary.BigEndian.PutUint64(buf[21:29], uint64(item.Due.Unix()))
	}
	if !item.Expires.IsZero() {
		binary.BigEndian.PutUint64(buf[29:37], uint64(item.Expires.Unix()))
	}
	copy(buf[valueHeaderLen:], item.State)
	return binary.BigEndian.AppendUint32(buf, checksum(key, buf))
}

// decodeValue parses a value kept under key. The returned state is a copy,
// so it outlives the bbolt transaction that produced buf.
func decodeValue(key string, buf []byte) (store.Item, error) {
	item, state, err := decodeHeader(key, buf)
	if err != nil {
		return store.Item{}, err
	}
	item.State = store.CloneBytes(state)
	return item, nil
}

// decodeHeader checks a value and parses everything but the state, which
// it returns in place (Save needs only the version and should not copy the
// state to learn it).
func decodeHeader(key string, buf []byte) (store.Item, []byte, error) {
	if len(buf) < 1 {
		return store.Item{}, nil, corrupt("empty")
	}
	var n int
	tail := checksumLen
	switch buf[0] {
	case valueFormat:
		n = valueHeaderLen
	case valueFormat3:
		n = valueHeader3Len
	default:
		return store.Item{}, nil, corrupt("unknown format %d", buf[0])
	}
	if len(buf) < n+tail {
		return store.Item{}, nil, corrupt("%d bytes, want at least %d", len(buf), n+tail)
	}
	body := buf[:len(buf)-tail]
	if got, want := binary.BigEndian.Uint32(buf[len(body):]), checksum(key, body); got != want {
		return store.Item{}, nil, corrupt("checksum %08x, want %08x", got, want)
	}
	version := int64(binary.BigEndian.Uint64(buf[1:9]))
	if version < 1 || version > maxVersion {
		return store.Item{}, nil, corrupt("version %d", version)
	}
	nanos := binary.BigEndian.Uint32(buf[17:21])
	if nanos >= uint32(time.Second) {
		return store.Item{}, nil, corrupt("%d nanoseconds", nanos)
	}
	secs := int64(binary.BigEndian.Uint64(buf[9:17]))
	item := store.Item{Version: version, UpdatedAt: time.Unix(secs, int64(nanos)).UTC()}
	if due := int64(binary.BigEndian.Uint64(buf[21:29])); due != 0 {
		item.Due = time.Unix(due, 0).UTC()
	}
	switch {
	case n == valueHeader3Len:
		item.Expires = time.Unix(item.UpdatedAt.Add(store.TTL).Unix(), 0).UTC()
	default:
		if exp := int64(binary.BigEndian.Uint64(buf[29:37])); exp != 0 {
			item.Expires = time.Unix(exp, 0).UTC()
		}
	}
	return item, buf[n : len(buf)-tail], nil
}
