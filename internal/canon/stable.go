package canon

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/agentsctl/agents/internal/errs"
)

// StableYAML returns the canonical YAML of v as a store writes it, and the
// value that YAML decodes to. It encodes the decoded value again, so the
// bytes are a fixed point: what a later read returns encodes to the same
// bytes and so the same digest. what names v in errors ("action \"a/b\"");
// an error means v cannot be stored.
func StableYAML[T any](v T, what string, decode func(data []byte) (T, error)) ([]byte, T, error) {
	var zero T
	first, err := YAML(v)
	if err != nil {
		return nil, zero, errs.Wrap(errs.KindInvalid, err, "%s cannot be encoded", what)
	}
	stored, err := decode(first)
	if err != nil {
		return nil, zero, err
	}
	data, err := YAML(stored)
	if err != nil {
		return nil, zero, errs.Wrap(errs.KindInvalid, err, "%s cannot be encoded", what)
	}
	return data, stored, nil
}

// Digest returns the lower-case hex sha256 of data: the name under which a
// store keeps canonical content as an object, and the digest a plan cites.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
