package push

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// device is a browser's side of a subscription: its private key and auth.
type device struct {
	priv *ecdh.PrivateKey
	auth []byte
}

func newDevice(t testing.TB, endpoint string) (*device, Subscription) {
	t.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, AuthLen)
	rand.Read(auth)
	return &device{priv, auth}, Subscription{Endpoint: endpoint, P256dh: priv.PublicKey().Bytes(), Auth: auth}
}

// decrypt is RFC 8291 from the receiving side, written from the RFC apart
// from Encrypt: it reads the header, derives the keys from the device's
// private key, opens the record and strips the delimiter.
func (d *device) decrypt(t testing.TB, body []byte) []byte {
	t.Helper()
	if len(body) < 21 {
		t.Fatalf("body of %d bytes", len(body))
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if rs < 18 || idlen != 65 {
		t.Fatalf("rs %d idlen %d", rs, idlen)
	}
	keyid, record := body[21:21+idlen], body[21+idlen:]
	if uint32(len(record)) > rs {
		t.Fatalf("record of %d bytes is over rs %d", len(record), rs)
	}
	as, err := ecdh.P256().NewPublicKey(keyid)
	if err != nil {
		t.Fatalf("keyid: %v", err)
	}
	secret, err := d.priv.ECDH(as)
	if err != nil {
		t.Fatal(err)
	}
	prkKey, _ := hkdf.Extract(sha256.New, secret, d.auth)
	keyInfo := append(append([]byte("WebPush: info\x00"), d.priv.PublicKey().Bytes()...), keyid...)
	ikm, _ := hkdf.Expand(sha256.New, prkKey, string(keyInfo), 32)
	prk, _ := hkdf.Extract(sha256.New, ikm, salt)
	cek, _ := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	nonce, _ := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		t.Fatalf("the record does not open: %v", err)
	}
	end := bytes.LastIndexByte(plain, 2)
	if end < 0 || bytes.Count(plain[end+1:], []byte{0}) != len(plain)-end-1 {
		t.Fatalf("no last-record delimiter in %x", plain)
	}
	return plain[:end]
}

func TestEncryptOpensOnTheDevice(t *testing.T) {
	for _, payload := range [][]byte{[]byte(`{"kind":"turn"}`), {}, bytes.Repeat([]byte("x"), MaxPayload)} {
		d, sub := newDevice(t, "https://push.example/x")
		body, err := Encrypt(sub, payload)
		if err != nil {
			t.Fatalf("Encrypt(%d bytes) = %v", len(payload), err)
		}
		if len(body) > 4096 {
			t.Errorf("body of %d bytes for a %d-byte payload, over 4096", len(body), len(payload))
		}
		if got := d.decrypt(t, body); !bytes.Equal(got, payload) {
			t.Errorf("decrypted %q, want %q", got, payload)
		}
		again, _ := Encrypt(sub, payload)
		if bytes.Equal(again[:16], body[:16]) || bytes.Equal(again[21:86], body[21:86]) {
			t.Error("two messages share a salt or a key")
		}
	}
}

func TestEncryptRefuses(t *testing.T) {
	_, sub := newDevice(t, "https://push.example/x")
	bad := []struct {
		name string
		sub  Subscription
		n    int
	}{
		{"a payload over MaxPayload", sub, MaxPayload + 1},
		{"a p256dh that is not a point", Subscription{P256dh: bytes.Repeat([]byte{4}, 65), Auth: sub.Auth}, 1},
		{"an auth of 15 bytes", Subscription{P256dh: sub.P256dh, Auth: sub.Auth[:15]}, 1},
	}
	for _, c := range bad {
		if _, err := Encrypt(c.sub, make([]byte, c.n)); err == nil {
			t.Errorf("%s: Encrypt = nil error", c.name)
		}
	}
}

func TestKeysRoundTrip(t *testing.T) {
	k, err := GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	k2, err := ParseKeys(k.Bytes())
	if err != nil || k2.PublicKey() != k.PublicKey() {
		t.Fatalf("ParseKeys(Bytes()) = %v, %v", k2, err)
	}
	pub, _ := base64.RawURLEncoding.DecodeString(k.PublicKey())
	if len(pub) != PublicKeyLen || pub[0] != 4 {
		t.Fatalf("public key of %d bytes, first %x", len(pub), pub[0])
	}
	if _, err := ParseKeys(make([]byte, 32)); err == nil {
		t.Error("ParseKeys(zero) = nil error")
	}
}

// The VAPID header is a JWT for the endpoint's origin, signed ES256 with
// the key it names (RFC 8292), valid for at most 24 h.
func TestAuthorizationIsAValidVAPIDToken(t *testing.T) {
	k, _ := GenerateKeys()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	h, err := k.Authorization("https://push.example:8443/send/abc?x=1", "mailto:ops@example.org", now)
	if err != nil {
		t.Fatal(err)
	}
	tok, key, ok := strings.Cut(strings.TrimPrefix(h, "vapid t="), ", k=")
	if !strings.HasPrefix(h, "vapid t=") || !ok || key != k.PublicKey() {
		t.Fatalf("header %q", h)
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q", tok)
	}
	dec := base64.RawURLEncoding
	var head struct{ Typ, Alg string }
	var claims struct {
		Aud string
		Exp int64
		Sub string
	}
	hb, _ := dec.DecodeString(parts[0])
	cb, _ := dec.DecodeString(parts[1])
	if json.Unmarshal(hb, &head) != nil || json.Unmarshal(cb, &claims) != nil {
		t.Fatalf("header %s claims %s", hb, cb)
	}
	if head.Alg != "ES256" || claims.Aud != "https://push.example:8443" || claims.Sub != "mailto:ops@example.org" {
		t.Errorf("header %+v claims %+v", head, claims)
	}
	if exp := time.Unix(claims.Exp, 0); !exp.After(now) || exp.After(now.Add(24*time.Hour)) {
		t.Errorf("exp %v for now %v", exp, now)
	}
	sig, _ := dec.DecodeString(parts[2])
	pubBytes, _ := dec.DecodeString(key)
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pubBytes)
	if err != nil || len(sig) != 64 {
		t.Fatalf("key %v, signature of %d bytes", err, len(sig))
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Error("the signature does not verify")
	}
	digest[0] ^= 1
	if ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Error("the signature verifies another token")
	}
}

func TestCheckEndpoint(t *testing.T) {
	cases := []struct {
		url      string
		insecure bool
		ok       bool
	}{
		{"https://fcm.googleapis.com/fcm/send/abc", false, true},
		{"https://updates.push.services.mozilla.com/wpush/v2/gAAA", false, true},
		{"http://fcm.googleapis.com/fcm/send/abc", false, false},
		{"http://127.0.0.1:8090/notify/x", false, false},
		{"http://127.0.0.1:8090/notify/x", true, true},
		{"http://localhost:8090/notify/x", true, true},
		{"https://127.0.0.1/x", false, false},
		{"https://10.0.0.8/x", false, false},
		{"https://10.0.0.8/x", true, false},
		{"https://[::1]/x", false, false},
		{"https://[fd00::1]/x", false, false},
		{"https://169.254.169.254/latest/meta-data", false, false},
		{"https://[::ffff:192.168.1.1]/x", false, false},
		// IPv6 spellings of refused IPv4 addresses (attack kit D7).
		{"https://[::ffff:7f00:1]/x", false, false},
		{"https://[0:0:0:0:0:ffff:127.0.0.1]/x", false, false},
		{"https://[::127.0.0.1]/x", false, false},
		{"https://[::a00:8]/x", false, false},
		{"https://[64:ff9b::7f00:1]/x", false, false},
		{"https://[64:ff9b::10.0.0.8]/x", false, false},
		{"https://[64:ff9b:1::a9fe:a9fe]/x", false, false},
		{"https://[2002:7f00:1::1]/x", false, false},
		{"https://[2002:c0a8:101::]/x", false, false},
		{"https://[2001:0:a00:1::1]/x", false, false},
		{"https://[2001:0:808:808::80ff:fffe]/x", false, false},
		{"https://[fec0::1]/x", false, false},
		{"https://[64:ff9b::808:808]/x", false, true},
		{"https://[2002:808:808::1]/x", false, true},
		{"https://[2001:4860:4860::8888]/x", false, true},
		{"https://100.64.1.1/x", false, false},
		{"https://0.0.0.0/x", false, false},
		{"ftp://push.example/x", true, false},
		{"https:///x", false, false},
		{"https://user:pw@push.example/x", false, false},
		{"push.example/x", false, false},
		{"https://push.example/" + strings.Repeat("a", MaxEndpoint), false, false},
	}
	for _, c := range cases {
		err := CheckEndpoint(c.url, c.insecure)
		if (err == nil) != c.ok {
			t.Errorf("CheckEndpoint(%.60q, insecure %v) = %v, want ok %v", c.url, c.insecure, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrEndpoint) {
			t.Errorf("CheckEndpoint(%q) = %v, not ErrEndpoint", c.url, err)
		}
	}
}

// The client refuses the address it would dial, whatever name led there.
func TestClientRefusesLocalAddressesUnlessInsecure(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++; w.WriteHeader(201) }))
	defer srv.Close()
	name := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	for _, u := range []string{srv.URL, name} {
		if _, err := Client(false).Get(u); !errors.Is(err, ErrEndpoint) {
			t.Errorf("secure client GET %s = %v, want ErrEndpoint", u, err)
		}
	}
	if hits != 0 {
		t.Fatalf("the server was reached %d times", hits)
	}
	resp, err := Client(true).Get(name)
	if err != nil || resp.StatusCode != 201 {
		t.Fatalf("insecure client GET %s = %v, %v", name, resp, err)
	}
	resp.Body.Close()
}

// A message reaches the push service with RFC 8030's headers; 404 and 410
// are ErrGone, 401 and 403 ErrKeyRejected (gone too); a hanging service ends with the context.
func TestSend(t *testing.T) {
	k, _ := GenerateKeys()
	var got *http.Request
	var body []byte
	status := 201
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			<-hang
			return
		}
		got, body = r, mustRead(r.Body)
		w.WriteHeader(status)
	}))
	defer srv.Close()
	defer close(hang)
	s := &Sender{Keys: k, Client: Client(true), Subject: "mailto:ops@example.org"}
	d, sub := newDevice(t, srv.URL+"/push/1")
	if err := s.Send(t.Context(), sub, []byte("hello")); err != nil {
		t.Fatalf("Send = %v", err)
	}
	if got.Method != "POST" || got.Header.Get("Content-Encoding") != "aes128gcm" || got.Header.Get("TTL") != "86400" ||
		!strings.HasPrefix(got.Header.Get("Authorization"), "vapid t=") {
		t.Errorf("request %s %v", got.Method, got.Header)
	}
	if m := d.decrypt(t, body); string(m) != "hello" {
		t.Errorf("the service got %q", m)
	}
	for _, st := range []int{404, 410} {
		status = st
		if err := s.Send(t.Context(), sub, []byte("x")); !errors.Is(err, ErrGone) {
			t.Errorf("status %d: Send = %v, want ErrGone", st, err)
		}
	}
	for _, st := range []int{401, 403} {
		status = st
		if err := s.Send(t.Context(), sub, []byte("x")); !errors.Is(err, ErrKeyRejected) || !errors.Is(err, ErrGone) {
			t.Errorf("status %d: Send = %v, want ErrKeyRejected (an ErrGone)", st, err)
		}
	}
	status = 500
	if err := s.Send(t.Context(), sub, []byte("x")); err == nil || errors.Is(err, ErrGone) {
		t.Errorf("status 500: Send = %v, want a passing error", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, hung := newDevice(t, srv.URL+"/hang")
	start := time.Now()
	if err := s.Send(ctx, hung, []byte("x")); err == nil {
		t.Error("a hanging service: Send = nil error")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("a hanging service held Send for %v", took)
	}
}

func mustRead(r io.Reader) []byte { b, _ := io.ReadAll(r); return b }

func BenchmarkEncryptAndSign(b *testing.B) {
	k, _ := GenerateKeys()
	_, sub := newDevice(b, "https://push.example/x")
	payload := []byte(`{"game":"k3x9q2m7abcdefgh","version":13,"kind":"turn","title":"Your turn — Five Up with Bea and Carlo","body":"Bea played 6-1 for 5. You need 5 to reach 250."}`)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Encrypt(sub, payload); err != nil {
			b.Fatal(err)
		}
		if _, err := k.Authorization(sub.Endpoint, "mailto:ops@example.org", now); err != nil {
			b.Fatal(err)
		}
	}
}
