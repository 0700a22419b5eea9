package api

import "testing"

// The deny list refuses its slurs however they are dressed (case,
// accents, look-alike digits, spacing, a longer word from a stem) and lets
// ordinary names through, among them names that hold a listed word's
// letters (the Scunthorpe problem: whole words, not substrings).
func TestDeniedNames(t *testing.T) {
	for _, name := range []string{"faggot", "FAGGOT", "f4gg0t", "fággot", "f a g g o t", "f.a.g.g.o.t", "Ana the faggot", "Frocio", "fr0cio!", "ricchioni", "Zingaro", "retard", "RETARDED"} {
		if !deniedName(name) {
			t.Errorf("%q is let through", name)
		}
	}
	for _, name := range []string{"Ana", "Bea", "Niger Delta", "Negroni", "Scunthorpe", "Francesca", "Checca", "Fennel", "Zingarelli", "Paolo Negro", "Spicy", "Cocoon", "Faggiano", "Frodo", "Gigi", "Lina", "Bruno", "Otto", "Terronia", "Dykes Lane"} {
		if deniedName(name) {
			t.Errorf("%q is refused", name)
		}
	}
}

// Every name a person sets goes through it: a seat's, a profile's.
func TestDeniedNamesAreRefusedEverywhere(t *testing.T) {
	s := newServer(t, newMemoryStore(), 371)
	if r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Fr0cio"}`, ""); r.status != 400 || mustError(t, r).Error.Code != "bad_request" {
		t.Fatalf("create with a denied name: %d %s", r.status, r.body)
	}
	id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	if r := s.do("POST", "/api/games/"+id+"/seats", `{"name":"f a g g o t"}`, ""); r.status != 400 {
		t.Fatalf("seat with a denied name: %d %s", r.status, r.body)
	}
	if r := s.do("PUT", "/api/me/profile", `{"name":"retard"}`, testKey("ana")); r.status != 400 {
		t.Fatalf("profile with a denied name: %d %s", r.status, r.body)
	}
}
