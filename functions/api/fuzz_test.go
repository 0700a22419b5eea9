package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"tessera/engine"
	"tessera/functions/game"
)

// Fuzz targets for request decoding: any input is either refused as a 400
// or decoded into a value that meets every rule, and that value written
// back as JSON decodes to itself.

var moveSeeds = []string{
	`{"version":12,"moveId":"c0a8f4e2","type":"play","tile":[2,4],"end":"right"}`,
	`{"version":1,"type":"play","tile":[6,6]}`,
	`{"version":3,"type":"redeal"}`,
	`{"version":3,"type":"keep","moveId":null}`,
	`{"version":4.0,"type":"keep"}`,
	`{"version":4,"type":"keep","type":"keep"}`,
	`{"version":4,"type":"play","tile":[1,2],"end":"up"} x`,
	`{"version":9223372036854775807,"type":"play","tile":[0,0],"end":"lead"}`,
	"{\"version\":1,\"type\":\"keep\",\"moveId\":\"\xff\"}",
	`[`, `{"a":{"b":[[[[]]]]}}`, `{"version":-0,"type":"keep"}`,
}

func FuzzDecodeMove(f *testing.F) {
	for _, s := range moveSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := decodeMove(body)
		if err != nil {
			if status, _, _ := classify(err); status != 400 {
				t.Fatalf("refused with status %d: %v", status, err)
			}
			return
		}
		if req.Version < 0 {
			t.Fatalf("version %d accepted", req.Version)
		}
		if n := utf8.RuneCountInString(req.MoveID); req.MoveID != "" && (n < 1 || n > maxMoveID) {
			t.Fatalf("moveId of %d characters accepted", n)
		}
		if req.Move.Tile[0] > 6 || req.Move.Tile[1] > 6 || req.Move.Kind > engine.Keep {
			t.Fatalf("out-of-range move accepted: %+v", req.Move)
		}
		again, err := decodeMove(encodeMoveRequest(req))
		if err != nil || again != req {
			t.Fatalf("round trip: %+v -> %+v, %v", req, again, err)
		}
	})
}

// encodeMoveRequest writes a decoded move back as a request body.
func encodeMoveRequest(req moveRequest) []byte {
	m := map[string]any{"version": req.Version}
	if req.MoveID != "" {
		m["moveId"] = req.MoveID
	}
	switch req.Move.Kind {
	case engine.Play:
		m["type"] = "play"
		m["tile"] = []int{int(req.Move.Tile[0]), int(req.Move.Tile[1])}
		m["end"] = req.Move.End.String()
	case engine.Redeal:
		m["type"] = "redeal"
	case engine.Keep:
		m["type"] = "keep"
	}
	b, _ := json.Marshal(m)
	return b
}

var createSeeds = []string{
	`{"variant":"fiveup","players":4,"pairs":true,"target":250,"redeal":true,"name":"Ana","bots":[{"seat":1,"level":"easy"}]}`,
	`{"variant":"partnership","name":"Bea"}`,
	`{"variant":"fiveup","players":2,"name":" Carlo ","bots":[{"seat":1,"level":"easy"}]}`,
	`{"variant":"fiveup","players":3,"pairs":true,"name":"A"}`,
	`{"variant":"fiveup","name":"\u0000"}`,
	`{"variant":"fiveup","name":"A","bots":[{"seat":1,"level":"easy"},{"seat":1,"level":"easy"}]}`,
	`{"variant":"partnership","redeal":false,"pairs":true,"players":4,"target":1000,"name":"Dora"}`,
}

func FuzzDecodeCreate(f *testing.F) {
	for _, s := range createSeeds {
		f.Add([]byte(s))
	}
	levels := func(l string) bool { return l == "easy" || l == "hard" }
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := decodeCreate(body, levels)
		if err != nil {
			if status, _, _ := classify(err); status != 400 {
				t.Fatalf("refused with status %d: %v", status, err)
			}
			return
		}
		if err := req.Options.Validate(); err != nil {
			t.Fatalf("invalid options accepted: %+v: %v", req.Options, err)
		}
		if _, err := cleanName(req.Name); err != nil {
			t.Fatalf("name %q accepted: %v", req.Name, err)
		}
		seen := map[int]bool{}
		for _, b := range req.Bots {
			if b.Seat < 1 || b.Seat >= req.Options.Players || seen[b.Seat] || !levels(b.Level) {
				t.Fatalf("bots %+v accepted for %d players", req.Bots, req.Options.Players)
			}
			seen[b.Seat] = true
		}
		again, err := decodeCreate(encodeCreateRequest(req), levels)
		if err != nil || fmt.Sprint(again) != fmt.Sprint(req) {
			t.Fatalf("round trip: %+v -> %+v, %v", req, again, err)
		}
	})
}

// encodeCreateRequest writes a decoded create back as a request body.
func encodeCreateRequest(req createRequest) []byte {
	o := req.Options
	bots := []map[string]any{}
	for _, b := range req.Bots {
		bots = append(bots, map[string]any{"seat": b.Seat, "level": b.Level})
	}
	m := map[string]any{"variant": o.Variant.String(), "players": o.Players, "pairs": o.Pairs,
		"target": o.Target, "redeal": o.Redeal, "name": req.Name, "bots": bots}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(m)
	return buf.Bytes()
}

func FuzzDecodeState(f *testing.F) {
	m, _ := engine.NewMatch(engine.DefaultOptions(engine.FiveUp), engine.Seed{1, 2})
	st := game.NewStored(m, game.HashToken("a token"))
	st.Remember(0, "a")
	f.Add(game.EncodeStored(st))
	f.Add([]byte{game.StoredFormat, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := game.DecodeStored(b)
		if err != nil {
			return
		}
		// Varints may be written non-minimally, so the bytes may differ;
		// the decoded state may not.
		again, err := game.DecodeStored(game.EncodeStored(st))
		if err != nil || !bytes.Equal(again.Match, st.Match) || fmt.Sprint(again.Seats) != fmt.Sprint(st.Seats) {
			t.Fatalf("round trip of %x: %+v -> %+v, %v", b, st, again, err)
		}
	})
}

// FuzzDecodeDevice: a PUT /api/me/push body is refused as a 400 or is a
// device whose endpoint and keys meet API.md's rules.
func FuzzDecodeDevice(f *testing.F) {
	for _, s := range []string{sub("https://push.example/1"), sub("http://127.0.0.1:9/x"), `{"endpoint":"https://a.b","keys":{}}`,
		`{"endpoint":"https://a.b","keys":{"p256dh":"","auth":""},"expirationTime":1.5}`, `{}`, `[]`} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, insecure bool) {
		d, err := decodeDevice(body, insecure)
		if err != nil {
			if status, _, _ := classify(err); status != 400 {
				t.Fatalf("refused with status %d: %v", status, err)
			}
			return
		}
		if len(d.P256dh) != 65 || len(d.Auth) != 16 || !strings.HasPrefix(d.Endpoint, "http") {
			t.Fatalf("accepted %+v", d)
		}
		if !insecure && !strings.HasPrefix(d.Endpoint, "https://") {
			t.Fatalf("accepted %q without insecure", d.Endpoint)
		}
	})
}

// FuzzDecodePlayer: a stored player record decodes or is ErrCorrupt, never
// a panic, and what decodes writes back to itself.
func FuzzDecodePlayer(f *testing.F) {
	p := &game.Record{}
	p.AddGame("abcdefghijklmnop")
	p.PutDevice(game.Device{Endpoint: "https://push.example/1", P256dh: make([]byte, 65), Auth: make([]byte, 16)})
	f.Add(game.EncodePlayer(p))
	f.Add([]byte{game.PlayerFormat, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := game.DecodePlayer(b)
		if err != nil {
			return
		}
		again, err := game.DecodePlayer(game.EncodePlayer(p))
		if err != nil || fmt.Sprint(again) != fmt.Sprint(p) {
			t.Fatalf("round trip of %x: %+v -> %+v, %v", b, p, again, err)
		}
	})
}
