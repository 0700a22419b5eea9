// Package smtptest is an SMTP server for tests: it listens on a loopback
// port, speaks enough of RFC 5321 for a client to hand over mail (EHLO,
// HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) and keeps each message it
// accepts, parsed, for the test to read. It is real SMTP over TCP, so
// what it receives is what a relay would.
package smtptest

import (
	"bufio"
	"bytes"
	"io"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"time"
)

// Message is one mail as received.
type Message struct {
	From   string   // MAIL FROM
	To     []string // RCPT TO
	Raw    []byte   // the DATA, dot-unstuffed
	Header mail.Header
	Body   string // decoded (quoted-printable as the header says), "\n" line ends
}

// Server is a running server.
type Server struct {
	Addr string
	ln   net.Listener
	mu   sync.Mutex
	msgs []Message
	got  chan struct{}
	wg   sync.WaitGroup
}

// Start listens on 127.0.0.1 on a free port.
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: ln.Addr().String(), ln: ln, got: make(chan struct{}, 1)}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Close stops listening and waits for the sessions to end.
func (s *Server) Close() {
	s.ln.Close()
	s.wg.Wait()
}

// Messages are those received so far, oldest first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Wait returns once at least n messages have arrived, or after d with
// those there are.
func (s *Server) Wait(n int, d time.Duration) []Message {
	deadline := time.After(d)
	for {
		if m := s.Messages(); len(m) >= n {
			return m
		}
		select {
		case <-s.got:
		case <-deadline:
			return s.Messages()
		}
	}
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.session(c)
		}()
	}
}

func (s *Server) session(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	r := bufio.NewReader(c)
	say := func(line string) { io.WriteString(c, line+"\r\n") }
	say("220 smtptest ready")
	var from string
	var to []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			say("250-smtptest")
			say("250 8BITMIME")
		case "HELO":
			say("250 smtptest")
		case "MAIL":
			from, to = path(arg), nil
			say("250 ok")
		case "RCPT":
			if from == "" {
				say("503 MAIL first")
				continue
			}
			to = append(to, path(arg))
			say("250 ok")
		case "DATA":
			if len(to) == 0 {
				say("503 RCPT first")
				continue
			}
			say("354 end with <CRLF>.<CRLF>")
			raw, err := readData(r)
			if err != nil {
				return
			}
			s.keep(from, to, raw)
			from, to = "", nil
			say("250 queued")
		case "RSET":
			from, to = "", nil
			say("250 ok")
		case "NOOP":
			say("250 ok")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 not implemented")
		}
	}
}

// path is the address of "FROM:<a@b>" or "TO:<a@b>", parameters dropped.
func path(arg string) string {
	_, v, _ := strings.Cut(arg, ":")
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, '>'); strings.HasPrefix(v, "<") && i > 0 {
		return v[1:i]
	}
	return v
}

func readData(r *bufio.Reader) ([]byte, error) {
	var b bytes.Buffer
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		if line == ".\r\n" || line == ".\n" {
			return b.Bytes(), nil
		}
		b.WriteString(strings.TrimPrefix(line, "."))
	}
}

func (s *Server) keep(from string, to []string, raw []byte) {
	m := Message{From: from, To: to, Raw: raw}
	if pm, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		m.Header = pm.Header
		var body io.Reader = pm.Body
		if strings.EqualFold(pm.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			body = quotedprintable.NewReader(body)
		}
		b, _ := io.ReadAll(body)
		m.Body = strings.ReplaceAll(string(b), "\r\n", "\n")
	}
	s.mu.Lock()
	s.msgs = append(s.msgs, m)
	s.mu.Unlock()
	select {
	case s.got <- struct{}{}:
	default:
	}
}
