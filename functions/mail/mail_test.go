package mail

import (
	"strings"
	"testing"
)

func TestValidTakesOnePlainAddress(t *testing.T) {
	for _, good := range []string{"ana@example.com", " bea.rossi+tessera@posta.example.it ", "x@a.io"} {
		if got, err := Valid(good); err != nil || got != strings.TrimSpace(good) {
			t.Errorf("%q: %q, %v", good, got, err)
		}
	}
	for _, bad := range []string{"", "ana", "ana@", "@example.com", "ana@example", "ana@.example.com", "ana@example.com.",
		"Ana <ana@example.com>", "ana@example.com, bea@example.com", "a b@example.com", "ana@example.com\r\nBcc: x@y.z",
		"(c)ana@example.com", strings.Repeat("a", 250) + "@example.com"} {
		if got, err := Valid(bad); err == nil {
			t.Errorf("%q taken as %q", bad, got)
		}
	}
}

func TestMaskShowsTheFirstLetterAndTheDomain(t *testing.T) {
	for in, want := range map[string]string{"ana@example.com": "a***@example.com", "é@posta.it": "é***@posta.it", "x": "***"} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}
