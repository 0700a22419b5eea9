package api

import (
	_ "embed"
	"strings"
	"unicode"

	unorm "golang.org/x/text/unicode/norm"
)

// The names deny list (issue 36, docs/denylist.md): a name that holds one
// of denylist.txt's slurs is refused with 400 bad_request, wherever a name
// is set (a seat, a profile, a league, a tournament).

//go:embed denylist.txt
var denylistText string

// denied holds the list: whole words, and stems (a line ending in *).
var denied = func() (d struct{ words, stems []string }) {
	for _, line := range strings.Split(denylistText, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if stem, ok := strings.CutSuffix(line, "*"); ok {
			d.stems = append(d.stems, stem)
		} else {
			d.words = append(d.words, line)
		}
	}
	return d
}()

// lookAlikes are the digits and symbols written for letters.
var lookAlikes = map[rune]rune{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', '$': 's', '€': 'e'}

// foldName is a name as the list is written: accents dropped (NFKD, marks
// removed), lower case, look-alikes read as letters, and cut into words at
// every other character.
func foldName(s string) []string {
	var b strings.Builder
	for _, r := range unorm.NFKD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if l, ok := lookAlikes[r]; ok {
			r = l
		}
		r = unicode.ToLower(r)
		if unicode.IsLetter(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte(' ')
		}
	}
	return strings.Fields(b.String())
}

// deniedName reports whether name holds a word of the list: a word of it
// is one of the list's words or begins with a stem, or all its letters
// run together ("n.i.g.g.e.r", "n i g g e r") are.
func deniedName(name string) bool {
	words := foldName(name)
	words = append(words, strings.Join(words, ""))
	for _, w := range words {
		for _, d := range denied.words {
			if w == d {
				return true
			}
		}
		for _, st := range denied.stems {
			if strings.HasPrefix(w, st) {
				return true
			}
		}
	}
	return false
}
