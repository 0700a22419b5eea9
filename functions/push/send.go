package push

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"time"
)

// MaxEndpoint bounds an endpoint URL in bytes; real ones are 150-400.
const MaxEndpoint = 1024

// ErrEndpoint is an endpoint the server will not send to.
var ErrEndpoint = errors.New("push: endpoint refused")

// CheckEndpoint accepts an https URL with a host and no user info (http
// too when insecure). A host that is an IP literal of a refused range is
// refused here already; names are checked when dialled (Client).
func CheckEndpoint(raw string, insecure bool) error {
	if len(raw) > MaxEndpoint {
		return fmt.Errorf("%w: longer than %d bytes", ErrEndpoint, MaxEndpoint)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Opaque != "" {
		return fmt.Errorf("%w: not an absolute URL with a host", ErrEndpoint)
	}
	if u.Scheme != "https" && !(insecure && u.Scheme == "http") {
		return fmt.Errorf("%w: must be https", ErrEndpoint)
	}
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil && refused(ip, insecure) {
		return fmt.Errorf("%w: a private or local address", ErrEndpoint)
	}
	return nil
}

// refused reports whether the server must not connect to ip: loopback,
// private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local, CGNAT
// (100.64/10), unspecified or multicast, and site-local (fec0::/10). An
// IPv6 address that carries an IPv4 one (IPv4-mapped in any spelling,
// IPv4-compatible, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16,
// Teredo 2001::/32) is refused when that IPv4 address is. insecure allows
// loopback only.
func refused(ip netip.Addr, insecure bool) bool {
	ip = ip.Unmap()
	if ip.IsLoopback() {
		return !insecure
	}
	if ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() ||
		cgnat.Contains(ip) || siteLocal.Contains(ip) || !ip.IsValid() || ip.Is4() && ip.As4()[0] == 0 {
		return true
	}
	for _, v4 := range embedded(ip) {
		if refused(v4, insecure) {
			return true
		}
	}
	return false
}

var (
	cgnat      = netip.MustParsePrefix("100.64.0.0/10")
	siteLocal  = netip.MustParsePrefix("fec0::/10")
	compatible = netip.MustParsePrefix("::/96")
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	teredo     = netip.MustParsePrefix("2001::/32")
)

// embedded lists the IPv4 addresses an IPv6 address carries by one of the
// transition schemes (RFC 4291 IPv4-compatible, RFC 6052 NAT64, RFC 3056
// 6to4, RFC 4380 Teredo: its server, and its client, stored inverted).
func embedded(ip netip.Addr) []netip.Addr {
	if !ip.Is6() {
		return nil
	}
	b := ip.As16()
	v4 := func(x []byte) netip.Addr { return netip.AddrFrom4([4]byte{x[0], x[1], x[2], x[3]}) }
	switch {
	case compatible.Contains(ip), nat64.Contains(ip), nat64Local.Contains(ip):
		return []netip.Addr{v4(b[12:16])}
	case sixToFour.Contains(ip):
		return []netip.Addr{v4(b[2:6])}
	case teredo.Contains(ip):
		client := [4]byte{b[12] ^ 0xff, b[13] ^ 0xff, b[14] ^ 0xff, b[15] ^ 0xff}
		return []netip.Addr{v4(b[4:8]), v4(client[:])}
	}
	return nil
}

// Doer sends one HTTP request: an *http.Client, or on js/wasm the
// runtime's fetch (Client).
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Sender sends messages for one deployment.
type Sender struct {
	Keys    *Keys
	Client  Doer             // Client(insecure)
	Subject string           // VAPID sub: mailto: or https: contact
	Now     func() time.Time // nil: time.Now
	TTL     time.Duration    // how long a push service keeps an undelivered message; 0: 1 day
}

// ErrGone is a push service's 404 or 410: the subscription is no more. A
// 401 or 403 is ErrGone too (errors.Is), wrapped in ErrKeyRejected: the
// service refuses our VAPID key for that subscription (it was made for
// another key), so it can never deliver there; the page subscribes again
// with the current key (docs/push.md).
var (
	ErrGone        = errors.New("push: subscription expired or unsubscribed")
	ErrKeyRejected = fmt.Errorf("push: the push service refused the VAPID key: %w", ErrGone)
)

// Send encrypts payload for sub and posts it. ErrGone means the device
// should be forgotten; other errors are passing (the message is lost).
func (s *Sender) Send(ctx context.Context, sub Subscription, payload []byte) error {
	now, ttl := time.Now, s.TTL
	if s.Now != nil {
		now = s.Now
	}
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	body, err := Encrypt(sub, payload)
	if err != nil {
		return err
	}
	auth, err := s.Keys.Authorization(sub.Endpoint, s.Subject, now())
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sub.Endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrEndpoint, err)
	}
	req.Header.Set("Content-Encoding", "aes128gcm")
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("TTL", strconv.Itoa(int(ttl/time.Second)))
	req.Header.Set("Urgency", "normal")
	req.Header.Set("Authorization", auth)
	resp, err := s.Client.Do(req)
	if err != nil {
		return fmt.Errorf("push: send: %w", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return ErrGone
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return ErrKeyRejected
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return fmt.Errorf("push: the push service answered %d", resp.StatusCode)
	}
	return nil
}
