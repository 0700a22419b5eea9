package engine

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"
)

// testdata/format1.json holds engine encodings of format 1, cut out of the
// API's testdata/stored-format1.json (games written by the code before
// format 2), with the token hashes the service had put in their seats, in
// seat order.
type format1Case struct {
	Name        string   `json:"name"`
	Encoding    string   `json:"encoding"`
	TokenHashes []string `json:"tokenHashes"`
}

func format1Cases(t *testing.T) []format1Case {
	t.Helper()
	b, err := os.ReadFile("testdata/format1.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []format1Case
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	return cases
}

func TestUpgradeFormat1(t *testing.T) {
	for _, c := range format1Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			old, err := hex.DecodeString(c.Encoding)
			if err != nil {
				t.Fatal(err)
			}
			direct, err := Decode(old)
			if err != nil {
				t.Fatalf("Decode(format 1) = %v", err)
			}
			cur, hashes, err := UpgradeFormat1(old)
			if err != nil {
				t.Fatalf("UpgradeFormat1 = %v", err)
			}
			if cur[2] != format2 {
				t.Errorf("upgraded format = %d, want %d", cur[2], format2)
			}
			var got []string
			for s, h := range hashes {
				if direct.Seat(s).Taken && direct.Seat(s).Bot == "" {
					got = append(got, hex.EncodeToString(h))
				} else if h != nil {
					t.Errorf("seat %d (not a person's) has hash %x", s, h)
				}
			}
			if !reflect.DeepEqual(got, c.TokenHashes) {
				t.Errorf("hashes = %v, want %v", got, c.TokenHashes)
			}
			upgraded, err := Decode(cur)
			if err != nil {
				t.Fatalf("Decode(upgraded) = %v", err)
			}
			if !reflect.DeepEqual(upgraded, direct) {
				t.Error("the upgraded encoding decodes to another match than the original")
			}
			re, err := Decode(Encode(upgraded))
			if err != nil || !reflect.DeepEqual(re, upgraded) {
				t.Errorf("Decode(Encode(upgraded)) = %v: another match", err)
			}
			if cur := Encode(upgraded); cur[2] != formatVersion {
				t.Errorf("Encode writes format %d, want %d", cur[2], formatVersion)
			}
			if _, _, err := UpgradeFormat1(cur); !errors.Is(err, ErrCorrupt) {
				t.Errorf("UpgradeFormat1(format 2) = %v, want ErrCorrupt", err)
			}
			bad := append([]byte(nil), old...)
			bad[len(bad)/2] ^= 0x40
			if _, _, err := UpgradeFormat1(bad); !errors.Is(err, ErrCorrupt) {
				t.Errorf("UpgradeFormat1(flipped byte) = %v, want ErrCorrupt", err)
			}
		})
	}
}
