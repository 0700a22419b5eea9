package engine

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// The binary encoding of a match (format 3), little-endian, varints as in
// encoding/binary:
//
//	magic "TS", format byte
//	variant, players, flags (1 pairs, 2 redeal), target uvarint
//	per seat: flags (1 taken), name, bot (each uvarint length + bytes)
//	seed (16 bytes), first leader (1 byte)
//	hands uvarint; per hand:
//	  deals uvarint; per deal: the canonical deal's code (7-11 bytes,
//	    see dealcode.go), answers uvarint, one byte each (seat | 4 if redeal)
//	  plays uvarint, one byte each (tile index * 5 + end)
//	  seat changes uvarint; per change: the action index uvarint, one byte
//	    (seat | kind << 2)
//	CRC-32 (IEEE) of all the above
//
// Everything else (scores, log, the current hand, who is away) is rebuilt
// by Replay.
//
// Format 2 had no seat changes (nobody could be away); Decode reads it.
//
// Format 1 was the same but for one more field per seat, after the bot: an
// opaque token hash (uvarint length + bytes) that the service kept there.
// Decode still reads it (and ignores the hashes); UpgradeFormat1 turns it
// into format 2 and hands the hashes back to the service that owns them.
const (
	formatVersion = 3
	format2       = 2
	format1       = 1
	// maxField bounds a name, bot level or token hash in bytes.
	maxField = 256
)

// Encode returns the compact binary encoding of the whole match.
func Encode(m *Match) []byte {
	b := make([]byte, 0, 256+64*len(m.records))
	b = appendHeader(b, formatVersion, m.opts, m.seats)
	b = binary.LittleEndian.AppendUint64(b, m.seed[0])
	b = binary.LittleEndian.AppendUint64(b, m.seed[1])
	b = append(b, byte(m.firstLeader))
	b = binary.AppendUvarint(b, uint64(len(m.records)))
	for _, rec := range m.records {
		b = binary.AppendUvarint(b, uint64(len(rec.Deals)))
		for _, d := range rec.Deals {
			order, _ := dealOrder(&d.Order)
			b = appendDealCode(b, &order, m.opts.Players)
			b = binary.AppendUvarint(b, uint64(len(d.Answers)))
			for _, a := range d.Answers {
				v := byte(a.Seat)
				if a.Redeal {
					v |= 4
				}
				b = append(b, v)
			}
		}
		b = binary.AppendUvarint(b, uint64(len(rec.Plays)))
		for _, c := range rec.Plays {
			b = append(b, byte(c.Tile.index()*int(numEnds)+int(c.End)))
		}
		b = binary.AppendUvarint(b, uint64(len(rec.Changes)))
		for _, c := range rec.Changes {
			b = binary.AppendUvarint(b, uint64(c.At))
			b = append(b, byte(c.Seat)|byte(c.Kind)<<2)
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// appendHeader writes the magic, the format, the options and the seats.
func appendHeader(b []byte, format byte, o Options, seats []Seat) []byte {
	b = append(b, 'T', 'S', format, byte(o.Variant), byte(o.Players))
	var flags byte
	if o.Pairs {
		flags |= 1
	}
	if o.Redeal {
		flags |= 2
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(o.Target))
	for _, s := range seats {
		var f byte
		if s.Taken {
			f = 1
		}
		b = append(b, f)
		b = appendBytes(b, []byte(s.Name))
		b = appendBytes(b, []byte(s.Bot))
	}
	return b
}

func appendBytes(b, s []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decoder reads the encoding; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: truncated or invalid %s", ErrCorrupt, what)
	}
}

func (d *decoder) byte(what string) byte {
	if d.err != nil || len(d.b) < 1 {
		d.fail(what)
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *decoder) uvarint(what string, max uint64) int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > max {
		d.fail(what)
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *decoder) bytes(what string, n int) []byte {
	if d.err != nil || len(d.b) < n {
		d.fail(what)
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

// header decodes everything before the hands. For format 1 it also returns
// each seat's token hash (nil for none); format 2 has none.
func (d *decoder) header() (opts Options, seats []Seat, hashes [][]byte, format byte) {
	if string(d.bytes("magic", 2)) != "TS" {
		d.fail("header")
		return
	}
	format = d.byte("format")
	if format != formatVersion && format != format2 && format != format1 {
		d.fail("header")
		return
	}
	opts.Variant = Variant(d.byte("variant"))
	opts.Players = int(d.byte("players"))
	flags := d.byte("flags")
	opts.Pairs, opts.Redeal = flags&1 != 0, flags&2 != 0
	opts.Target = d.uvarint("target", MaxTarget)
	if d.err != nil || flags > 3 {
		d.fail("options")
		return
	}
	if err := opts.Validate(); err != nil {
		d.err = fmt.Errorf("%w: %v", ErrCorrupt, err)
		return
	}
	seats = make([]Seat, opts.Players)
	if format == format1 {
		hashes = make([][]byte, opts.Players)
	}
	for i := range seats {
		f := d.byte("seat")
		if f > 1 {
			d.fail("seat")
		}
		seats[i].Taken = f == 1
		seats[i].Name = string(d.bytes("name", d.uvarint("name", maxField)))
		seats[i].Bot = string(d.bytes("bot", d.uvarint("bot", maxField)))
		if format == format1 {
			if h := d.bytes("token hash", d.uvarint("token hash", maxField)); len(h) > 0 {
				hashes[i] = append([]byte(nil), h...)
			}
		}
	}
	return opts, seats, hashes, format
}

// checked strips and verifies the CRC.
func checked(b []byte) ([]byte, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: too short", ErrCorrupt)
	}
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	return body, nil
}

// UpgradeFormat1 turns an encoding of format 1 into the same match in a
// format without token hashes (format 2, which Decode reads; the next
// Encode writes the current one), and returns apart what format 1 kept per
// seat for the service (its token hash; nil for a seat without one). It
// reads only the header, without replaying the match. An encoding of
// another format is refused (ErrCorrupt), as is anything that is not a
// well-formed encoding.
func UpgradeFormat1(b []byte) (current []byte, hashes [][]byte, err error) {
	body, err := checked(b)
	if err != nil {
		return nil, nil, err
	}
	if len(body) < 3 || body[2] != format1 {
		return nil, nil, fmt.Errorf("%w: not an encoding of format 1", ErrCorrupt)
	}
	d := decoder{b: body}
	opts, seats, hashes, _ := d.header()
	if d.err != nil {
		return nil, nil, d.err
	}
	out := make([]byte, 0, len(b))
	out = appendHeader(out, format2, opts, seats)
	out = append(out, d.b...)
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out)), hashes, nil
}

// Decode rebuilds a match from its encoding. Corrupt or truncated input is
// an ErrCorrupt error, never a panic.
func Decode(b []byte) (*Match, error) {
	body, err := checked(b)
	if err != nil {
		return nil, err
	}
	d := decoder{b: body}
	opts, seats, _, format := d.header()
	var seed Seed
	if raw := d.bytes("seed", 16); raw != nil {
		seed = Seed{binary.LittleEndian.Uint64(raw), binary.LittleEndian.Uint64(raw[8:])}
	}
	first := int(d.byte("first leader"))
	// Every hand takes at least 10 bytes and every deal 9, which bounds
	// the counts by the input's length before anything is allocated.
	records := make([]HandRecord, d.uvarint("hands", uint64(len(d.b)/10)))
	for h := range records {
		deals := make([]DealRecord, d.uvarint("deals", uint64(len(d.b)/8)))
		for k := range deals {
			deals[k].Order = d.deal(opts.Players)
			answers := d.bytes("answers", d.uvarint("answers", 4))
			for _, a := range answers {
				if a&^7 != 0 || int(a&3) >= opts.Players {
					d.fail("answer")
				}
				deals[k].Answers = append(deals[k].Answers, Answer{Seat: int(a & 3), Redeal: a&4 != 0})
			}
		}
		plays := d.bytes("plays", d.uvarint("plays", NumTiles))
		records[h] = HandRecord{Deals: deals, Plays: make([]Choice, 0, len(plays))}
		for _, p := range plays {
			ti, e := int(p)/int(numEnds), End(int(p)%int(numEnds))
			if ti >= NumTiles {
				d.fail("play")
				break
			}
			records[h].Plays = append(records[h].Plays, Choice{Tile: tileOf[ti], End: e})
		}
		if format >= formatVersion {
			n := d.uvarint("seat changes", uint64(len(d.b)/2))
			for k := 0; k < n && d.err == nil; k++ {
				at := d.uvarint("seat change", 4*NumTiles)
				v := d.byte("seat change")
				if int(v&3) >= opts.Players || v>>2 > byte(BackAgain) {
					d.fail("seat change")
				}
				records[h].Changes = append(records[h].Changes, SeatChange{At: at, Seat: int(v & 3), Kind: ChangeKind(v >> 2)})
			}
		}
		if d.err != nil {
			return nil, d.err
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("trailing data")
	}
	if d.err != nil {
		return nil, d.err
	}
	return Replay(opts, seats, seed, first, records)
}

func (d *decoder) deal(players int) (order [NumTiles]Tile) {
	raw := d.bytes("deal", dealBytes[players])
	if raw == nil {
		return order
	}
	order, err := dealFromCode(raw, players)
	if err != nil && d.err == nil {
		d.err = err
	}
	return order
}
