package push

import (
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
	"fmt"
	"io"
	"math/big"
	"net/url"
	"time"
)

// Sizes of RFC 8291's keys.
const (
	PublicKeyLen = 65 // an uncompressed P-256 point
	AuthLen      = 16 // the subscription's auth secret
	saltLen      = 16
	// recordSize is the rs of the one record a message is (RFC 8188: the
	// record with its 16-byte tag and delimiter): 4096, as browsers send.
	recordSize = 4096
	// MaxPayload is the most a message may carry: push services take at
	// most 4096 bytes of body, less the 86-byte header, the tag and the
	// delimiter.
	MaxPayload = 4096 - 86 - 16 - 1
)

// Keys is a deployment's VAPID key pair (P-256).
type Keys struct {
	priv *ecdsa.PrivateKey
	pub  []byte // uncompressed point
}

// GenerateKeys draws a new pair.
func GenerateKeys() (*Keys, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("push: generate VAPID keys: %w", err)
	}
	return ParseKeys(k.Bytes())
}

// ParseKeys rebuilds the pair from its private scalar (Keys.Bytes).
func ParseKeys(raw []byte) (*Keys, error) {
	priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), raw)
	if err != nil {
		return nil, fmt.Errorf("push: VAPID private key: %w", err)
	}
	pub, err := priv.PublicKey.Bytes()
	if err != nil {
		return nil, fmt.Errorf("push: VAPID public key: %w", err)
	}
	return &Keys{priv: priv, pub: pub}, nil
}

// Bytes is the private scalar, what a store keeps.
func (k *Keys) Bytes() []byte {
	b, _ := k.priv.Bytes() // never fails for a key that parsed
	return b
}

// PublicKey is the public key as base64url, the applicationServerKey a
// page passes to pushManager.subscribe.
func (k *Keys) PublicKey() string { return base64.RawURLEncoding.EncodeToString(k.pub) }

// Subscription is where a device receives messages: its push service's
// endpoint, and its keys (RFC 8291's ua_public and auth_secret).
type Subscription struct {
	Endpoint string
	P256dh   []byte // PublicKeyLen bytes
	Auth     []byte // AuthLen bytes
}

// Encrypt seals payload for sub as one aes128gcm record (RFC 8291 section
// 3, RFC 8188), with a fresh key pair and salt.
func Encrypt(sub Subscription, payload []byte) ([]byte, error) {
	if len(payload) > MaxPayload {
		return nil, fmt.Errorf("push: payload of %d bytes, at most %d", len(payload), MaxPayload)
	}
	if len(sub.Auth) != AuthLen {
		return nil, errors.New("push: auth secret is not 16 bytes")
	}
	ua, err := ecdh.P256().NewPublicKey(sub.P256dh)
	if err != nil {
		return nil, fmt.Errorf("push: p256dh: %w", err)
	}
	as, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("push: ephemeral key: %w", err)
	}
	secret, err := as.ECDH(ua)
	if err != nil {
		return nil, fmt.Errorf("push: ECDH: %w", err)
	}
	asPublic := as.PublicKey().Bytes()
	// IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" 0 ua_public as_public, 32)
	info := "WebPush: info\x00" + string(sub.P256dh) + string(asPublic)
	ikm, err := hkdf.Key(sha256.New, secret, sub.Auth, info, 32)
	if err != nil {
		return nil, err
	}
	salt := make([]byte, saltLen)
	if _, err := io.ReadFull(rand.Reader, salt); err != nil {
		return nil, fmt.Errorf("push: salt: %w", err)
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	// Header: salt, rs, idlen, keyid (the ephemeral public key); then the
	// one record: payload and the last-record delimiter 2, no padding.
	out := make([]byte, 0, saltLen+4+1+len(asPublic)+len(payload)+1+gcm.Overhead())
	out = append(out, salt...)
	out = binary.BigEndian.AppendUint32(out, recordSize)
	out = append(out, byte(len(asPublic)))
	out = append(out, asPublic...)
	plain := append(append(make([]byte, 0, len(payload)+1), payload...), 2)
	return gcm.Seal(out, nonce, plain, nil), nil
}

// vapidLifetime is how long a VAPID token is valid (RFC 8292: at most 24 h).
const vapidLifetime = 12 * time.Hour

// Authorization is the VAPID header for a message to endpoint (RFC 8292
// section 3): a JWT for the endpoint's origin signed with ES256, and the
// public key. subject is a mailto: or https: contact for the push service.
func (k *Keys) Authorization(endpoint, subject string, now time.Time) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("push: endpoint %q has no origin", endpoint)
	}
	claims, err := json.Marshal(struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}{u.Scheme + "://" + u.Host, now.Add(vapidLifetime).Unix(), subject})
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	signed := enc.EncodeToString([]byte(`{"typ":"JWT","alg":"ES256"}`)) + "." + enc.EncodeToString(claims)
	digest := sha256.Sum256([]byte(signed))
	rr, ss, err := ecdsa.Sign(rand.Reader, k.priv, digest[:])
	if err != nil {
		return "", fmt.Errorf("push: sign VAPID token: %w", err)
	}
	sig := make([]byte, 64) // JWS ES256: r and s, 32 bytes each
	fill(sig[:32], rr)
	fill(sig[32:], ss)
	return "vapid t=" + signed + "." + enc.EncodeToString(sig) + ", k=" + k.PublicKey(), nil
}

func fill(dst []byte, n *big.Int) { n.FillBytes(dst) }

// ValidPublicKey reports whether b is an uncompressed P-256 point, as a
// subscription's p256dh must be.
func ValidPublicKey(b []byte) bool {
	_, err := ecdh.P256().NewPublicKey(b)
	return err == nil && len(b) == PublicKeyLen
}
