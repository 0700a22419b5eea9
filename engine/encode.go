package engine

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// The binary encoding of a match (format 5), little-endian, varints as in
// encoding/binary:
//
//	magic "TS", format byte
//	variant, players, flags (1 pairs, 2 redeal), target uvarint
//	per seat: flags (1 taken), name, bot (each uvarint length + bytes)
//	seed (16 bytes), first leader (1 byte)
//	hands uvarint (H)
//	checkpoint hand uvarint (K: 0 when H is 0, else max(1, H-1))
//	past length uvarint, then the records of hands 1..K-1 (as below)
//	when K > 0, the checkpoint: the state at the start of hand K
//	  scores per team uvarint, away mask byte (bit per seat), leader byte,
//	  events before hand K uvarint,
//	  then the scores at the start of each hand 2..K-1, per team uvarint
//	  (the score sheet's running totals, which replay from K cannot give)
//	the records of hands K..H; per hand:
//	  deals uvarint; per deal: the canonical deal's code (7-11 bytes,
//	    see dealcode.go), answers uvarint, one byte each (seat | 4 if redeal)
//	  plays uvarint, one byte each (tile index * 5 + end)
//	  seat changes uvarint; per change: the action index uvarint, one byte
//	    (seat | kind << 2)
//	(format 5 only: CRC-32 (IEEE) of all the above)
//
// Everything else (scores, log, the current hand, who is away) is rebuilt
// by replaying from the checkpoint: Decode replays at most two hands, so a
// decode costs the same at the end of a long match as at its start
// (docs/encoding.md). Every record is still there: DecodeFull replays all
// of them from the first deal, which is the proof the checkpoint must agree
// with (TestCheckpointAgreesWithFullReplay).
//
// Format 6 is format 5 without the CRC-32 at its end: the service keeps
// the encoding inside a stored game that has a checksum of its own (over
// the game's id, version and every byte), so a second one told nothing
// more. Format 5, release 0.1.0's (CHANGELOG.md), is still read, its CRC
// checked; the formats before it were never released and are not read
// (functions/api/testdata/stored-0.1.0.json holds format 5).
const (
	formatVersion = 6
	format5       = 5
	// maxField bounds a name or bot level in bytes.
	maxField = 256
)

// Encode returns the compact binary encoding of the whole match.
func Encode(m *Match) []byte {
	b := make([]byte, 0, 256+len(m.past)+64*len(m.records))
	b = appendHeader(b, formatVersion, m.opts, m.seats)
	b = binary.LittleEndian.AppendUint64(b, m.seed[0])
	b = binary.LittleEndian.AppendUint64(b, m.seed[1])
	b = append(b, byte(m.firstLeader))
	hands := m.pastHands + len(m.records)
	b = binary.AppendUvarint(b, uint64(hands))
	if hands == 0 {
		b = binary.AppendUvarint(b, 0)
		return binary.AppendUvarint(b, 0)
	}
	k := max(1, hands-1)
	b = binary.AppendUvarint(b, uint64(k))
	// The records before the checkpoint: those kept from the decode, then
	// those this match added before hand k.
	fresh := k - 1 - m.pastHands // records of m.records before hand k
	var past []byte
	for _, rec := range m.records[:fresh] {
		past = appendHand(past, &rec, m.opts.Players)
	}
	b = binary.AppendUvarint(b, uint64(len(m.past)+len(past)))
	b = append(b, m.past...)
	b = append(b, past...)
	st := m.starts[fresh]
	for t := range m.opts.Teams() {
		b = binary.AppendUvarint(b, uint64(st.scores[t]))
	}
	b = append(b, st.away, byte(st.leader))
	b = binary.AppendUvarint(b, uint64(st.seq))
	for h := 2; h < k; h++ {
		sc := m.handStartScores(h)
		for t := range m.opts.Teams() {
			b = binary.AppendUvarint(b, uint64(sc[t]))
		}
	}
	for _, rec := range m.records[fresh:] {
		b = appendHand(b, &rec, m.opts.Players)
	}
	return b
}

// appendHand writes one hand's record.
func appendHand(b []byte, rec *HandRecord, players int) []byte {
	b = binary.AppendUvarint(b, uint64(len(rec.Deals)))
	for _, d := range rec.Deals {
		order, _ := dealOrder(&d.Order)
		b = appendDealCode(b, &order, players)
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
	return b
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

// header decodes everything before the hands.
func (d *decoder) header() (opts Options, seats []Seat) {
	if string(d.bytes("magic", 2)) != "TS" {
		d.fail("header")
		return
	}
	if f := d.byte("format"); f != formatVersion && f != format5 {
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
	for i := range seats {
		f := d.byte("seat")
		if f > 1 {
			d.fail("seat")
		}
		seats[i].Taken = f == 1
		seats[i].Name = string(d.bytes("name", d.uvarint("name", maxField)))
		seats[i].Bot = string(d.bytes("bot", d.uvarint("bot", maxField)))
	}
	return opts, seats
}

// checked strips and verifies format 5's CRC; an encoding of another
// format is returned as it is.
func checked(b []byte) ([]byte, error) {
	if len(b) < 3 || b[0] != 'T' || b[1] != 'S' || b[2] != format5 {
		return b, nil
	}
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: too short", ErrCorrupt)
	}
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	return body, nil
}

// Decode rebuilds a match from its encoding, replaying from its checkpoint.
// Corrupt or truncated input is an ErrCorrupt error, never a panic.
func Decode(b []byte) (*Match, error) { return decode(b, false) }

// DecodeFull rebuilds a match from its encoding by replaying every record
// from the first deal, ignoring the checkpoint: slower at the end of a long
// match, and the proof that the checkpoint agrees with the records.
func DecodeFull(b []byte) (*Match, error) { return decode(b, true) }

func decode(b []byte, full bool) (*Match, error) {
	body, err := checked(b)
	if err != nil {
		return nil, err
	}
	d := decoder{b: body}
	opts, seats := d.header()
	var seed Seed
	if raw := d.bytes("seed", 16); raw != nil {
		seed = Seed{binary.LittleEndian.Uint64(raw), binary.LittleEndian.Uint64(raw[8:])}
	}
	first := int(d.byte("first leader"))
	// Every hand takes at least 10 bytes, which bounds the count by the
	// input's length before anything is allocated.
	hands := d.uvarint("hands", uint64(len(d.b)/10))
	k := d.uvarint("checkpoint", uint64(hands))
	if d.err == nil && k != min(hands, max(1, hands-1)) {
		d.fail("checkpoint")
	}
	past := d.bytes("past records", d.uvarint("past records", uint64(len(d.b))))
	var cp checkpoint
	if k > 0 {
		cp.Hand = k
		cp.Scores = make([]int, opts.Teams())
		for t := range cp.Scores {
			cp.Scores[t] = d.uvarint("checkpoint score", MaxTarget)
		}
		cp.Away = d.byte("checkpoint away")
		cp.Leader = int(d.byte("checkpoint leader"))
		cp.Seq = d.uvarint("checkpoint events", 1<<31)
		if k > 1 {
			cp.Starts = make([][4]int, 1, k) // hand 1 starts at 0
		}
		for h := 2; h < k; h++ {
			var sc [4]int
			for t := range opts.Teams() {
				sc[t] = d.uvarint("sheet score", MaxTarget)
			}
			cp.Starts = append(cp.Starts, sc)
		}
	}
	if !full && k > 0 {
		records := d.hands(hands-k+1, opts)
		if err := d.end(); err != nil {
			return nil, err
		}
		return resume(opts, seats, seed, first, cp, past, records)
	}
	rest := d.hands(hands-max(k, 1)+1, opts)
	if err := d.end(); err != nil {
		return nil, err
	}
	if k == 0 {
		return Replay(opts, seats, seed, first, nil)
	}
	p := decoder{b: past}
	records := p.hands(k-1, opts)
	if err := p.end(); err != nil {
		return nil, err
	}
	return Replay(opts, seats, seed, first, append(records, rest...))
}

// end reports the first error, or data left after the records.
func (d *decoder) end() error {
	if d.err == nil && len(d.b) != 0 {
		d.fail("trailing data")
	}
	return d.err
}

// hands reads n hands' records.
func (d *decoder) hands(n int, opts Options) []HandRecord {
	if d.err != nil || n < 0 || n > len(d.b)/10+1 {
		d.fail("hands")
		return nil
	}
	records := make([]HandRecord, n)
	for h := range records {
		// Every deal takes at least 8 bytes.
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
		n := d.uvarint("seat changes", uint64(len(d.b)/2))
		for k := 0; k < n && d.err == nil; k++ {
			at := d.uvarint("seat change", 4*NumTiles)
			v := d.byte("seat change")
			if int(v&3) >= opts.Players || v>>2 > byte(BackAgain) {
				d.fail("seat change")
			}
			records[h].Changes = append(records[h].Changes, SeatChange{At: at, Seat: int(v & 3), Kind: ChangeKind(v >> 2)})
		}
		if d.err != nil {
			return nil
		}
	}
	return records
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
