package api

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// encoding/json alone accepts duplicate keys (the last wins), keys that
// match a field's name in another case (Variant for variant), invalid
// UTF-8 (replaced silently) and, with Decoder, trailing data. API.md
// refuses all of these, so bodies are first read into a tree by a
// token-level validator written here once; the request decoders then take
// their fields from the tree and refuse what is left over, and read every
// number as a json.Number so that 4.0 is refused for an int as well.

// maxBody is the largest request body accepted (API.md: over 16 KiB is 413).
const maxBody = 16 << 10

// object is a JSON object whose keys are known to be unique. Values are
// object, []any, json.Number, string, bool or null (a member whose value
// is JSON null): take reads null as absent (API.md: null counts as an
// absent field), and done still finds an unknown key whose value is null.
type object map[string]any

// null is the value of a member that is JSON null.
type null struct{}

// parseObject reads body as exactly one JSON object and nothing after it.
func parseObject(body []byte) (object, error) {
	if !utf8.Valid(body) {
		return nil, badRequest("the body is not valid UTF-8")
	}
	if err := checkEscapes(body); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(object)
	if !ok {
		return nil, badRequest("the body must be a JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, badRequest("unexpected data after the JSON object")
	}
	return obj, nil
}

// checkEscapes refuses a \u escape of a lone UTF-16 surrogate, which
// encoding/json would silently turn into U+FFFD: a high one (D800-DBFF) not
// followed by a low one (DC00-DFFF) escaped at once, or a low one alone.
// A backslash occurs only inside strings in JSON, and the decoder checks
// the rest of the syntax.
func checkEscapes(body []byte) error {
	high := false // the previous escape was a high surrogate
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' {
			if high {
				return badRequest("a string holds a lone surrogate escape")
			}
			continue
		}
		if i+1 >= len(body) || body[i+1] != 'u' {
			if high {
				return badRequest("a string holds a lone surrogate escape")
			}
			i++ // the escaped character
			continue
		}
		if i+6 > len(body) {
			return nil // not JSON: the decoder says so
		}
		r, err := strconv.ParseUint(string(body[i+2:i+6]), 16, 16)
		if err != nil {
			return nil // not JSON either
		}
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			if high {
				return badRequest("a string holds a lone surrogate escape")
			}
			high = true
		case r >= 0xDC00 && r <= 0xDFFF:
			if !high {
				return badRequest("a string holds a lone surrogate escape")
			}
			high = false
		default:
			if high {
				return badRequest("a string holds a lone surrogate escape")
			}
		}
		i += 5
	}
	if high {
		return badRequest("a string holds a lone surrogate escape")
	}
	return nil
}

// parseValue reads one value; a nil result is JSON null.
func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, badRequest("the body is not valid JSON")
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := object{}
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, badRequest("the body is not valid JSON")
				}
				key := kt.(string) // Token guarantees a string key inside an object
				if seen[key] {
					return nil, badRequest("duplicate key %q", key)
				}
				seen[key] = true
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				if v == nil {
					v = null{}
				}
				obj[key] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, badRequest("the body is not valid JSON")
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, badRequest("the body is not valid JSON")
			}
			return arr, nil
		}
		return nil, badRequest("the body is not valid JSON")
	case json.Number, string, bool:
		return t, nil
	case nil:
		return nil, nil
	}
	return nil, badRequest("the body is not valid JSON")
}

// fields takes the members of an object one by one and checks at the end
// that no unknown member was left.
type fields struct {
	obj  object
	what string // "the body", "bots[1]"
	err  error
}

func (f *fields) fail(err error) {
	if f.err == nil {
		f.err = err
	}
}

// take removes and returns the member key.
func (f *fields) take(key string) (any, bool) {
	v, ok := f.obj[key]
	delete(f.obj, key)
	if _, isNull := v.(null); isNull {
		return nil, false
	}
	return v, ok
}

// done reports the first error, or an unknown member.
func (f *fields) done() error {
	if f.err != nil {
		return f.err
	}
	for key := range f.obj {
		return badRequest("unknown field %q in %s", key, f.what)
	}
	return nil
}

// int takes an integer member in [min, max]; ok is false when absent.
func (f *fields) int(key string, min, max int64) (n int64, ok bool) {
	v, present := f.take(key)
	if !present {
		return 0, false
	}
	n, err := intValue(v, key, min, max)
	if err != nil {
		f.fail(err)
		return 0, false
	}
	return n, true
}

// intValue checks that v is an integer literal (no fraction, no exponent)
// in [min, max].
func intValue(v any, what string, min, max int64) (int64, error) {
	num, isNum := v.(json.Number)
	if !isNum {
		return 0, badRequest("%s must be an integer", what)
	}
	if strings.ContainsAny(string(num), ".eE") {
		return 0, badRequest("%s must be an integer, not %s", what, num)
	}
	n, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil || n < min || n > max {
		return 0, badRequest("%s must be between %d and %d", what, min, max)
	}
	return n, nil
}

// str takes a string member; ok is false when absent.
func (f *fields) str(key string) (s string, ok bool) {
	v, present := f.take(key)
	if !present {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		f.fail(badRequest("%s must be a string", key))
		return "", false
	}
	return s, true
}

// bool takes a boolean member; ok is false when absent.
func (f *fields) bool(key string) (b, ok bool) {
	v, present := f.take(key)
	if !present {
		return false, false
	}
	b, isBool := v.(bool)
	if !isBool {
		f.fail(badRequest("%s must be true or false", key))
		return false, false
	}
	return b, true
}

// array takes an array member; ok is false when absent.
func (f *fields) array(key string) (a []any, ok bool) {
	v, present := f.take(key)
	if !present {
		return nil, false
	}
	a, isArr := v.([]any)
	if !isArr {
		f.fail(badRequest("%s must be an array", key))
		return nil, false
	}
	return a, true
}

// require records a missing required member.
func (f *fields) require(key string, ok bool) {
	if !ok {
		f.fail(badRequest("%s is required", key))
	}
}

// maxVersion bounds a version: the JSON number must fit an int64.
const maxVersion = math.MaxInt64
