package engine

import (
	"encoding"
	"errors"
	"testing"
)

func TestNamesReadBackAsWritten(t *testing.T) {
	type textual interface {
		encoding.TextMarshaler
		String() string
	}
	cases := []struct {
		v    textual
		back func([]byte) (textual, error)
		want string
	}{
		{EndLead, func(b []byte) (textual, error) { var e End; err := e.UnmarshalText(b); return e, err }, "lead"},
		{EndDown, func(b []byte) (textual, error) { var e End; err := e.UnmarshalText(b); return e, err }, "down"},
		{FiveUp, func(b []byte) (textual, error) { var v Variant; err := v.UnmarshalText(b); return v, err }, "fiveup"},
		{Partnership, func(b []byte) (textual, error) { var v Variant; err := v.UnmarshalText(b); return v, err }, "partnership"},
		{StatusFinished, func(b []byte) (textual, error) { var s Status; err := s.UnmarshalText(b); return s, err }, "finished"},
		{PhaseConfirm, func(b []byte) (textual, error) { var p Phase; err := p.UnmarshalText(b); return p, err }, "confirm"},
	}
	for _, c := range cases {
		b, err := c.v.MarshalText()
		if err != nil || string(b) != c.want || c.v.String() != c.want {
			t.Errorf("MarshalText(%v) = %q, %v; String %q; want %q", c.v, b, err, c.v.String(), c.want)
		}
		back, err := c.back(b)
		if err != nil || back != c.v {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", b, back, err, c.v)
		}
		for _, wrong := range []string{"", "Lead", c.want + " ", "end(0)"} {
			if _, err := c.back([]byte(wrong)); !errors.Is(err, ErrBadInput) {
				t.Errorf("UnmarshalText(%q) for %T = %v, want ErrBadInput", wrong, c.v, err)
			}
		}
	}
	if _, err := End(9).MarshalText(); !errors.Is(err, ErrBadInput) {
		t.Errorf("End(9).MarshalText() = %v, want ErrBadInput", err)
	}
	if _, err := Variant(0).MarshalText(); !errors.Is(err, ErrBadInput) {
		t.Errorf("Variant(0).MarshalText() = %v, want ErrBadInput", err)
	}
}
