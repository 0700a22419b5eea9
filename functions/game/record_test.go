package game

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tessera/engine"
	"tessera/internal/testenv"
)

func TestPlayerRecordRoundTrip(t *testing.T) {
	p := &Record{}
	for i := 0; i < MaxPlayerGames+5; i++ {
		id, _ := NewGameID(testenv.Seeded(uint64(i)))
		p.AddGame(id)
	}
	first := p.Games[0]
	if p.AddGame(first) || len(p.Games) != MaxPlayerGames {
		t.Fatalf("games: %d, re-adding the first changed it", len(p.Games))
	}
	for i := 0; i < 12; i++ {
		p.PutDevice(Device{Endpoint: "https://push.example/" + strings.Repeat("e", 300) + itoa(int64(i)),
			P256dh: make([]byte, 65), Auth: make([]byte, 16)})
	}
	if len(p.Devices) > MaxDevices || p.DeviceBytes() > MaxDeviceBytes {
		t.Fatalf("%d devices of %d bytes", len(p.Devices), p.DeviceBytes())
	}
	// Ten devices of the longest endpoints all fit (API.md: at most ten;
	// attack kit D6: 1,000-byte endpoints kept only three).
	long := &Record{}
	for i := 0; i < MaxDevices; i++ {
		long.PutDevice(Device{Endpoint: "https://push.example/" + strings.Repeat("l", 990) + itoa(int64(i)),
			P256dh: make([]byte, 65), Auth: make([]byte, 16)})
	}
	if len(long.Devices) != MaxDevices {
		t.Fatalf("%d devices of 1,000-byte endpoints kept, want %d", len(long.Devices), MaxDevices)
	}
	if back, err := DecodePlayer(EncodePlayer(long)); err != nil || len(back.Devices) != MaxDevices {
		t.Fatalf("ten long devices do not round-trip: %v", err)
	}
	// A record of format 1 (release 0.1.0: devices without a language)
	// still reads, its devices in English.
	old := []byte{PlayerFormat1, 0, 1, 3, 'h', 't', 's'}
	old = append(append(old, make([]byte, 65)...), make([]byte, 16)...)
	if back, err := DecodePlayer(old); err != nil || len(back.Devices) != 1 || back.Devices[0].Endpoint != "hts" || back.Devices[0].Lang != LangEN {
		t.Fatalf("a format 1 record: %+v, %v", back, err)
	}
	it := &Record{}
	it.PutDevice(Device{Endpoint: "https://push.example/it", P256dh: make([]byte, 65), Auth: make([]byte, 16), Lang: LangIT})
	if back, err := DecodePlayer(EncodePlayer(it)); err != nil || back.Devices[0].Lang != LangIT {
		t.Fatalf("a device's language does not round-trip: %+v, %v", back, err)
	}
	// The email block (format 5) round-trips, the longest address and
	// origin included; a format 4 record (none) still reads.
	m := MailState{Addr: strings.Repeat("a", 240) + "@example.com", Lang: LangIT, Origin: "https://" + strings.Repeat("o", 190),
		Confirmed: true, Digest: true, Confirm: bytes.Repeat([]byte{1}, mailNonce), Unsub: bytes.Repeat([]byte{2}, mailNonce),
		SentDay: 20794, Sent: 3, LastPush: 1796900000, LastDigest: 1796800000, Check: 1796990000}
	mailed := &Record{Mail: m}
	if back, err := DecodePlayer(EncodePlayer(mailed)); err != nil || !reflect.DeepEqual(back.Mail, m) {
		t.Fatalf("the email does not round-trip: %+v, %v", back, err)
	}
	four := EncodePlayer(&Record{Player: "", Vac: Vacation{Budget: 3, BudgetSet: true}})
	four = four[:len(four)-len((&MailState{}).append(nil))]
	four[0] = 4
	if back, err := DecodePlayer(four); err != nil || back.Vac.Budget != 3 || back.Mail.Addr != "" {
		t.Fatalf("a format 4 record: %+v, %v", back, err)
	}
	if last := p.Devices[len(p.Devices)-1].Endpoint; !strings.HasSuffix(last, "e11") {
		t.Errorf("the newest device was dropped: %s", last[len(last)-5:])
	}
	b := EncodePlayer(p)
	if len(b) > 1+2+MaxPlayerGames*IDBytes+1+MaxDeviceBytes {
		t.Errorf("record of %d bytes", len(b))
	}
	q, err := DecodePlayer(b)
	if err != nil || len(q.Games) != len(p.Games) || q.Games[0] != first || len(q.Devices) != len(p.Devices) ||
		q.Devices[0].Endpoint != p.Devices[0].Endpoint {
		t.Fatalf("round trip: %v", err)
	}
	for i := range b {
		if _, err := DecodePlayer(b[:i]); err == nil {
			t.Fatalf("a record cut to %d bytes decodes", i)
		}
	}
	if _, err := DecodePlayer(append(b, 0)); err == nil {
		t.Fatal("a record with trailing data decodes")
	}
}

// Who hears of a change, and what: a turn to the seat that must now act,
// the end to everyone, nothing to the seat that caused it or a computer.
func TestWhoIsTold(t *testing.T) {
	o := engine.Options{Variant: engine.FiveUp, Players: 3, Target: 5, Redeal: false}
	for k := uint64(0); k < 40; k++ {
		m, _ := engine.NewMatch(o, engine.Seed{k, 9})
		st := &Stored{Seats: make([]SeatAuth, 3)}
		for s, n := range []string{"Ana", "Bea", ""} {
			seat := engine.Seat{Name: n}
			if n == "" {
				seat = engine.Seat{Name: "Bot 2", Bot: "easy"}
			} else {
				st.Seats[s].TokenHash = HashToken(n + "-0123456789abcdefghijk")
			}
			m.TakeSeat(s, seat)
		}
		for m.Status() == engine.StatusPlaying {
			actor := m.ToAct()[0]
			b := Snapshot(m)
			var mv engine.Move
			if m.Confirming(actor) {
				mv = engine.Move{Kind: engine.Keep}
			} else {
				mv = m.AppendLegal(actor, nil)[0]
			}
			if err := m.Apply(actor, mv); err != nil {
				t.Fatal(err)
			}
			msgs := Messages("g", 7, m, st, b, st.Seats[actor].TokenHash)
			if _, ok := msgs[actor]; ok {
				t.Fatalf("the mover (seat %d) is told: %+v", actor, msgs[actor])
			}
			if _, ok := msgs[2]; ok {
				t.Fatal("a computer seat is told")
			}
			for s, msg := range msgs {
				switch msg.Kind {
				case "end":
					if m.Status() != engine.StatusFinished || !strings.HasPrefix(msg.Title, "Match over") || !strings.Contains(msg.Body, "won") {
						t.Fatalf("end message %+v", msg)
					}
				case "turn":
					if !slicesContains(m.ToAct(), s) || msg.Version != 7 || msg.Game != "g" {
						t.Fatalf("seat %d told it is its turn; to act %v", s, m.ToAct())
					}
				default:
					t.Fatalf("kind %q", msg.Kind)
				}
			}
			if m.Status() == engine.StatusFinished {
				other := 1 - actor
				if actor == 2 {
					other = 0
				}
				if msgs[other].Kind != "end" && st.Seats[other].TokenHash != nil {
					t.Fatalf("seat %d is not told the match ended: %+v", other, msgs)
				}
			}
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func slicesContains(xs []int, x int) bool { return slices.Contains(xs, x) }

// A push's payload is API.md's five fields, in the device's language,
// and nothing else (the other languages' words stay on the server).
func TestPushPayloadIsAPIsFields(t *testing.T) {
	m := inEveryLang("g", 3, "turn", func(l lang) (string, string) { return "t" + langNames[l], "b" + langNames[l] })
	b, err := json.Marshal(m.In(LangIT))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"game":"g","version":3,"kind":"turn","title":"tit","body":"bit"}`; got != want {
		t.Fatalf("payload %s, want %s", got, want)
	}
}

// The push texts' words are the page's catalogs' (frontend/words): every
// key they use is in every language, so no push shows a bare key.
func TestPushKeysAreInEveryCatalog(t *testing.T) {
	for l := range numLangs {
		for _, k := range append(slices.Clone(pushKeys), mailKeys...) {
			if !cat[l].Has(k) {
				t.Errorf("%s: no %q", langNames[l], k)
			}
		}
		for _, v := range engine.RuleSets() {
			if !cat[l].Has("variant." + v.Name) {
				t.Errorf("%s: no title for %s", langNames[l], v.Name)
			}
		}
		for _, r := range Reactions {
			if !cat[l].Has("chat.r." + r) {
				t.Errorf("%s: no reaction %s", langNames[l], r)
			}
		}
	}
}
