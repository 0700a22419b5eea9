// Package mail writes and sends the site's email (issue 46: the
// confirmation of an address and the digest of games waiting): a message
// as RFC 5322 with one text/plain part in UTF-8, quoted-printable, and an
// SMTP sender for the local server. It knows nothing of games.
package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"time"
)

// Message is one mail to one address.
type Message struct {
	To      string
	Subject string
	Body    string // plain text, lines separated by "\n"
	// Unsubscribe, when set, is the one-click address (RFC 8058): the
	// mail carries List-Unsubscribe and List-Unsubscribe-Post.
	Unsubscribe string
	Lang        string // Content-Language: "en" or "it"
}

// Sender sends a message; an error means it was not handed over.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// ErrInvalid is an address that is not one plain mailbox.
var ErrInvalid = errors.New("not an email address")

// MaxAddress is the longest address accepted (RFC 5321's path limit less
// the brackets).
const MaxAddress = 254

// Valid returns the address in its plain form ("ana@example.com"): one
// mailbox with a local part and a domain with a dot, no display name, no
// comments, no spaces, at most MaxAddress bytes.
func Valid(addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	if addr == "" || len(addr) > MaxAddress || strings.ContainsAny(addr, " \t\r\n<>()\",;") {
		return "", ErrInvalid
	}
	a, err := mail.ParseAddress(addr)
	if err != nil || a.Name != "" || a.Address != addr {
		return "", ErrInvalid
	}
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || local == "" || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", ErrInvalid
	}
	return addr, nil
}

// Mask shows an address as its owner recognises it and nobody else can
// use it: "a***@example.com".
func Mask(addr string) string {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || local == "" {
		return "***"
	}
	r := []rune(local)
	return string(r[0]) + "***@" + domain
}

// BuildNow is Build dated by the clock now (nil: time.Now): what each
// transport sends.
func BuildNow(from string, m Message, now func() time.Time) ([]byte, error) {
	if now == nil {
		now = time.Now
	}
	return Build(from, m, now())
}

// Build writes m from from, dated now, as the bytes an SMTP DATA carries
// (CRLF line ends). The Message-ID is random at from's domain.
func Build(from string, m Message, now time.Time) ([]byte, error) {
	if _, err := Valid(m.To); err != nil {
		return nil, fmt.Errorf("to: %w", err)
	}
	fromAddr, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("from %q: %w", from, err)
	}
	_, domain, _ := strings.Cut(fromAddr.Address, "@")
	id := make([]byte, 12)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	h := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	h("From", fromAddr.String())
	h("To", "<"+m.To+">")
	h("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	h("Date", now.UTC().Format(time.RFC1123Z))
	h("Message-ID", "<"+hex.EncodeToString(id)+"@"+domain+">")
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "quoted-printable")
	if m.Lang != "" {
		h("Content-Language", m.Lang)
	}
	h("Auto-Submitted", "auto-generated")
	if m.Unsubscribe != "" {
		h("List-Unsubscribe", "<"+m.Unsubscribe+">")
		h("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	b.WriteString("\r\n")
	w := quotedprintable.NewWriter(&b)
	if _, err := w.Write([]byte(strings.ReplaceAll(m.Body, "\n", "\r\n"))); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	b.WriteString("\r\n")
	return b.Bytes(), nil
}
