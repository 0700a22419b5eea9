package api

import (
	"strings"
	"testing"

	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

const (
	goodP256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
	goodAuth   = "BTBZMqHH6r4Tts7J_aSIgg"
)

func sub(endpoint string) string {
	return `{"endpoint":"` + endpoint + `","expirationTime":null,"keys":{"p256dh":"` + goodP256dh + `","auth":"` + goodAuth + `"}}`
}

func TestPushIsOffWithoutItsConfig(t *testing.T) {
	s := newServer(t, memory.New(), 301)
	for _, r := range []response{
		s.do("GET", "/api/push", "", ""),
		s.do("PUT", "/api/me/push", sub("https://push.example/1"), keyAna),
		s.do("DELETE", "/api/me/push", `{"endpoint":"https://push.example/1"}`, keyAna),
	} {
		if r.status != 404 || codeOf(r) != "not_found" {
			t.Errorf("with push off: %d %s, want 404 not_found", r.status, r.body)
		}
	}
}

func TestPushDevices(t *testing.T) { eachStore(t, testPushDevices) }

func testPushDevices(t *testing.T, mem store.Store) {
	s := newPushServer(t, mem, 302)
	s.h.(*Handler).push.Insecure = false
	if k := s.vapidKey(); len(k) != 87 {
		t.Fatalf("VAPID public key %q is not 65 bytes in base64url", k)
	}
	bad := []struct{ name, body string }{
		{"not JSON", `{`},
		{"http", sub("http://push.example/1")},
		{"loopback", sub("https://127.0.0.1/1")},
		{"private", sub("https://192.168.0.9/1")},
		{"not a URL", sub("push.example/1")},
		{"no endpoint", `{"keys":{"p256dh":"` + goodP256dh + `","auth":"` + goodAuth + `"}}`},
		{"no keys", `{"endpoint":"https://push.example/1"}`},
		{"an unknown key", `{"endpoint":"https://push.example/1","keys":{"p256dh":"` + goodP256dh + `","auth":"` + goodAuth + `"},"extra":1}`},
		{"an unknown key in keys", `{"endpoint":"https://push.example/1","keys":{"p256dh":"` + goodP256dh + `","auth":"` + goodAuth + `","x":"y"}}`},
		{"p256dh not a point", strings.Replace(sub("https://push.example/1"), goodP256dh, "B"+strings.Repeat("A", 86), 1)},
		{"p256dh of 64 bytes", strings.Replace(sub("https://push.example/1"), goodP256dh, goodP256dh[:85], 1)},
		{"p256dh not base64url", strings.Replace(sub("https://push.example/1"), goodP256dh, "+/"+goodP256dh[2:], 1)},
		{"auth of 15 bytes", strings.Replace(sub("https://push.example/1"), goodAuth, goodAuth[:20], 1)},
		{"expirationTime a string", strings.Replace(sub("https://push.example/1"), `"expirationTime":null`, `"expirationTime":"soon"`, 1)},
		{"endpoint a number", `{"endpoint":5,"keys":{"p256dh":"` + goodP256dh + `","auth":"` + goodAuth + `"}}`},
		{"a language the server has no texts in", strings.TrimSuffix(sub("https://push.example/1"), "}") + `,"lang":"fr"}`},
		{"lang a number", strings.TrimSuffix(sub("https://push.example/1"), "}") + `,"lang":1}`},
		{"lang in capitals", strings.TrimSuffix(sub("https://push.example/1"), "}") + `,"lang":"IT"}`},
	}
	for _, c := range bad {
		// 400 comes before 401: without a key as well.
		for _, key := range []string{keyAna, ""} {
			if r := s.do("PUT", "/api/me/push", c.body, key); r.status != 400 || codeOf(r) != "bad_request" {
				t.Errorf("PUT %s (key %q): %d %s, want 400", c.name, key, r.status, r.body)
			}
		}
	}
	for _, key := range []string{"", "short-key"} {
		if r := s.do("PUT", "/api/me/push", sub("https://push.example/1"), key); r.status != 401 {
			t.Errorf("PUT without a well-formed key %q: %d, want 401", key, r.status)
		}
		if r := s.do("DELETE", "/api/me/push", `{"endpoint":"https://push.example/1"}`, key); r.status != 401 {
			t.Errorf("DELETE without a well-formed key %q: %d, want 401", key, r.status)
		}
	}
	// A key that holds no seat yet may register; the same endpoint replaces.
	for i := 0; i < 3; i++ {
		if r := s.do("PUT", "/api/me/push", sub("https://push.example/same"), keyAna); r.status != 204 || len(r.body) != 0 {
			t.Fatalf("PUT: %d %s, want 204 without a body", r.status, r.body)
		}
	}
	if n := len(devicesOf(t, mem, keyAna)); n != 1 {
		t.Fatalf("the same endpoint three times: %d devices, want 1", n)
	}
	// Padded base64 is taken too (browsers differ).
	if r := s.do("PUT", "/api/me/push", strings.Replace(sub("https://push.example/padded"), goodAuth, goodAuth+"==", 1), keyAna); r.status != 204 {
		t.Errorf("padded auth: %d %s", r.status, r.body)
	}
	for i := 0; i < 12; i++ {
		s.do("PUT", "/api/me/push", sub("https://push.example/d"+itoa(int64(i))), keyAna)
	}
	ds := devicesOf(t, mem, keyAna)
	if len(ds) != game.MaxDevices || ds[0].Endpoint != "https://push.example/d2" || ds[9].Endpoint != "https://push.example/d11" {
		t.Fatalf("after 14 devices: %d, first %s: want the 10 newest", len(ds), ds[0].Endpoint)
	}
	for i := 0; i < 2; i++ {
		if r := s.do("DELETE", "/api/me/push", `{"endpoint":"https://push.example/d5"}`, keyAna); r.status != 204 {
			t.Fatalf("DELETE: %d %s, want 204 (also the second time)", r.status, r.body)
		}
	}
	if n := len(devicesOf(t, mem, keyAna)); n != game.MaxDevices-1 {
		t.Fatalf("after DELETE: %d devices", n)
	}
	if r := s.do("DELETE", "/api/me/push", `{"endpoint":"https://push.example/x","more":1}`, keyAna); r.status != 400 {
		t.Errorf("DELETE with an unknown key: %d, want 400", r.status)
	}
	if r := s.do("DELETE", "/api/me/push", "", keyBea); r.status != 400 {
		t.Errorf("DELETE without a body: %d, want 400", r.status)
	}
	for _, m := range []string{"GET", "POST", "PATCH"} {
		if r := s.do(m, "/api/me/push", "", keyAna); r.status != 405 || r.header.Get("Allow") != "PUT, DELETE" {
			t.Errorf("%s /api/me/push: %d Allow %q, want 405 with PUT, DELETE", m, r.status, r.header.Get("Allow"))
		}
	}
	for _, p := range []struct{ m, path, allow string }{{"POST", "/api/me", "GET, DELETE"}, {"PUT", "/api/push", "GET"}} {
		if r := s.do(p.m, p.path, "", keyAna); r.status != 405 || r.header.Get("Allow") != p.allow {
			t.Errorf("%s %s: %d Allow %q", p.m, p.path, r.status, r.header.Get("Allow"))
		}
	}
	if strings.Contains(s.logs.String(), "push.example") || strings.Contains(s.logs.String(), goodAuth) {
		t.Error("a device's endpoint or keys reached the log")
	}
}

func slicesContains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
