package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"tessera/functions/game"
	"tessera/functions/store/memory"
)

// The VAPID contact of every push is the site's one public origin, which
// the deploy stores (game.SaveSite), never the Host header of the request
// that caused the push (attack kit D8): here Bea joins through a request
// whose Host an attacker chose, and Ana's push is still signed by the site.
func TestPushesAreSignedByTheSiteNotTheRequestsHost(t *testing.T) {
	var (
		mu   sync.Mutex
		subs []string
	)
	device := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Authorization: vapid t=<JWT>, k=<key> (RFC 8292)
		auth := r.Header.Get("Authorization")
		jwt, _, _ := strings.Cut(strings.TrimPrefix(auth, "vapid t="), ",")
		parts := strings.Split(jwt, ".")
		var claims struct{ Sub string }
		if len(parts) == 3 {
			b, _ := base64.RawURLEncoding.DecodeString(parts[1])
			json.Unmarshal(b, &claims)
		}
		mu.Lock()
		subs = append(subs, claims.Sub)
		mu.Unlock()
		w.WriteHeader(http.StatusCreated)
	}))
	defer device.Close()

	for _, tc := range []struct {
		name, site, want string
	}{
		{"the site's origin stored", "https://d111111abcdef8.cloudfront.net/", "https://d111111abcdef8.cloudfront.net"},
		{"none stored: the request's host (the local server without PUBLIC_URL)", "", "https://attacker.example"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			subs = nil
			mu.Unlock()
			mem := memory.New()
			if tc.site != "" {
				if err := game.SaveSite(context.Background(), mem, tc.site, fixedNow); err != nil {
					t.Fatal(err)
				}
				// Again: unchanged, no error.
				if err := game.SaveSite(context.Background(), mem, tc.site, fixedNow); err != nil {
					t.Fatal(err)
				}
			}
			s := newServer(t, mem, 211)
			s.h = New(Config{Store: mem, Rand: seededReader(211), Push: &PushConfig{Insecure: true}})
			dev := `{"endpoint":"` + device.URL + `/push/1","keys":{"p256dh":"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4","auth":"BTBZMqHH6r4Tts7J_aSIgg"}}`
			if r := s.do("PUT", "/api/me/push", dev, keyAna); r.status != 204 {
				t.Fatalf("PUT: %d %s", r.status, r.body)
			}
			id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `"}`)
			req := httptest.NewRequest("POST", "/api/games/"+id+"/seats", strings.NewReader(`{"name":"Bea","key":"`+keyBea+`"}`))
			req.Host = "attacker.example"
			rec := httptest.NewRecorder()
			s.h.ServeHTTP(rec, req)
			if rec.Code != 201 {
				t.Fatalf("join: %d %s", rec.Code, rec.Body)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(subs) == 0 {
				t.Fatal("Ana's device got no push")
			}
			for _, sub := range subs {
				if sub != tc.want {
					t.Errorf("VAPID sub %q, want %q", sub, tc.want)
				}
			}
		})
	}
}

func TestTheSitesOriginIsAnHTTPSOrigin(t *testing.T) {
	for _, bad := range []string{"", "http://d1.cloudfront.net", "https://", "https://d1.cloudfront.net/g/x", "https://d1.cloudfront.net?x=1", "https://u@d1.cloudfront.net"} {
		if err := game.SaveSite(context.Background(), memory.New(), bad, fixedNow); err == nil {
			t.Errorf("SaveSite(%q) = nil, want an error", bad)
		}
	}
}
