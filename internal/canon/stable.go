package canon

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/strictyaml"
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
	if len(first) > strictyaml.MaxFileSize {
		// Stored as canonical YAML (block lists, one item a line), a
		// document can outgrow the file it came from: say so, rather
		// than let the stored form fail to read back.
		return nil, zero, errs.Invalid("%s would be %d bytes as stored, over the %d-byte (1 MiB) limit of a stored file", what, len(first), strictyaml.MaxFileSize).
			WithHint("shorten what it holds (a plan holds its safety profile and a snapshot of each profile it resolved): the stored form writes each list item on a line of its own, so a long list written inline grows when stored")
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
