// Package smtpmail sends the site's mail through an SMTP server (the
// local server's -smtp). Apart from package mail, so the Worker, which
// has no email, links neither net/smtp nor crypto/tls (its module's size:
// functions/workertest).
package smtpmail

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	netmail "net/mail"
	"net/smtp"
	"time"

	"tessera/functions/mail"
)

// SMTP sends through an SMTP server at Addr (host:port) as From, with
// STARTTLS when the server offers it; no authentication (a relay on the
// machine or the network, as the local server's -smtp says).
type SMTP struct {
	Addr string
	From string
	Now  func() time.Time // nil: time.Now
	// Timeout bounds one message (dial to QUIT); 0: 30 s.
	Timeout time.Duration
}

// Send hands m to the server.
func (s SMTP) Send(ctx context.Context, m mail.Message) error {
	data, err := mail.BuildNow(s.From, m, s.Now)
	if err != nil {
		return err
	}
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	host, _, _ := net.SplitHostPort(s.Addr)
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	defer c.Close()
	// STARTTLS when offered, but not to a relay on this machine (where
	// nothing travels and a test server's certificate is its own).
	if ok, _ := c.Extension("STARTTLS"); ok && !loopback(host) {
		if err := c.StartTLS(&tls.Config{ServerName: host}); err != nil {
			return fmt.Errorf("smtp: starttls: %w", err)
		}
	}
	from, _ := netmail.ParseAddress(s.From)
	if err := c.Mail(from.Address); err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if err := c.Rcpt(m.To); err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	return c.Quit()
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
