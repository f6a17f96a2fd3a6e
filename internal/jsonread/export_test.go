package jsonread

import "encoding/json"

// skipRestOf reads the rest of a value whose first token was tok.
func (r *Reader) skipRestOf(tok json.Token) (string, error) {
	if d, ok := tok.(json.Delim); ok {
		return r.SkipRest(d, 1)
	}
	return Describe(tok), nil
}
