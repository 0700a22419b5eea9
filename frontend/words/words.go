// Package words holds the catalogs of every word a person reads, one file
// per language (en.json, it.json: key to text; "{name}" a placeholder; a
// text that depends on a number an object of plural categories picked by
// the parameter "n"). It is the one source: the page's bundles take the
// keys they use (frontend/build.mjs), and the server's push texts read
// theirs here (functions/game/pushtext.go, the keys "push.*" and the few
// the page shares with them). docs/i18n.md.
package words

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed en.json it.json
var files embed.FS

// Langs are the catalogs' languages, English first (the default).
var Langs = []string{"en", "it"}

// Catalog is one language's words.
type Catalog struct {
	Lang  string
	texts map[string]json.RawMessage
}

// Load reads the catalog of lang.
func Load(lang string) (*Catalog, error) {
	b, err := files.ReadFile(lang + ".json")
	if err != nil {
		return nil, fmt.Errorf("words: no catalog for %q", lang)
	}
	c := &Catalog{Lang: lang}
	if err := json.Unmarshal(b, &c.texts); err != nil {
		return nil, fmt.Errorf("words: %s.json: %v", lang, err)
	}
	return c, nil
}

// MustLoad is Load for the catalogs this package embeds (a test checks
// that every language loads).
func MustLoad(lang string) *Catalog {
	c, err := Load(lang)
	if err != nil {
		panic(err)
	}
	return c
}

// Has reports whether the catalog has key.
func (c *Catalog) Has(key string) bool { _, ok := c.texts[key]; return ok }

// T is the text of key with each {name} replaced by its value in args
// (name, value, name, value...). A plural text is picked by the value
// of "n" (English and Italian: "one" for 1, else "other"). A key the
// catalog lacks is the key itself, as the page's t() shows nothing
// better (a test checks that every key the server uses is there).
func (c *Catalog) T(key string, args ...string) string {
	raw, ok := c.texts[key]
	if !ok {
		return key
	}
	var text string
	if json.Unmarshal(raw, &text) != nil {
		var forms map[string]string
		if json.Unmarshal(raw, &forms) != nil {
			return key
		}
		text = forms["other"]
		for i := 0; i+1 < len(args); i += 2 {
			if args[i] == "n" && args[i+1] == "1" && forms["one"] != "" {
				text = forms["one"]
			}
		}
	}
	for i := 0; i+1 < len(args); i += 2 {
		text = strings.ReplaceAll(text, "{"+args[i]+"}", args[i+1])
	}
	return text
}
