package sesmail

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"tessera/functions/mail"
)

// SES through its real SDK against a local endpoint (no SES stand-in is
// served here): the request is SES v2's SendEmail, signed, with the raw
// message Build writes (the one-click headers in it), the recipient and
// the configuration set.
func TestSESSendsTheRawMessageThroughTheSDK(t *testing.T) {
	var got struct {
		Path, Auth string
		Body       map[string]any
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.Path, got.Auth = r.Method+" "+r.URL.Path, r.Header.Get("Authorization")
		_ = json.Unmarshal(b, &got.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"MessageId":"0100-abc"}`)
	}))
	defer srv.Close()
	client := sesv2.New(sesv2.Options{Region: "eu-south-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", "")})
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	s := SES{Client: client, From: "Tessera <tessera@example.org>", ConfigurationSet: "tessera-mail", Now: func() time.Time { return now }}
	err := s.Send(context.Background(), mail.Message{To: "ana@example.com", Subject: "Tessera", Body: "Ciao", Unsubscribe: "https://example.org/u?token=t"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != "POST /v2/email/outbound-emails" || !strings.HasPrefix(got.Auth, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") || !strings.Contains(got.Auth, "/eu-south-1/ses/") {
		t.Fatalf("request %s, auth %q", got.Path, got.Auth)
	}
	if got.Body["ConfigurationSetName"] != "tessera-mail" {
		t.Errorf("configuration set %v", got.Body["ConfigurationSetName"])
	}
	to, _ := json.Marshal(got.Body["Destination"])
	if string(to) != `{"ToAddresses":["ana@example.com"]}` {
		t.Errorf("destination %s", to)
	}
	content, _ := got.Body["Content"].(map[string]any)
	raw, _ := content["Raw"].(map[string]any)
	data, err := base64.StdEncoding.DecodeString(raw["Data"].(string))
	if err != nil {
		t.Fatal(err)
	}
	m, err := netmail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || m.Header.Get("To") != "<ana@example.com>" {
		t.Errorf("the raw message's headers: %v", m.Header)
	}
}

// A refusal of SES is an error of Send (the digest is tried again later).
func TestSESRefusalIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Amzn-ErrorType", "MessageRejected")
		w.WriteHeader(400)
		io.WriteString(w, `{"message":"Email address is not verified."}`)
	}))
	defer srv.Close()
	client := sesv2.New(sesv2.Options{Region: "eu-south-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", ""), RetryMaxAttempts: 1})
	err := SES{Client: client, From: "tessera@example.org"}.Send(context.Background(), mail.Message{To: "ana@example.com", Subject: "x", Body: "y"})
	if err == nil || !strings.Contains(err.Error(), "MessageRejected") {
		t.Fatalf("a refusal: %v", err)
	}
}
