package profile

import (
	"fmt"
	"time"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
)

// Encode returns the canonical YAML of p, as a store writes it, and the
// value that YAML decodes to. It encodes the decoded value again, so the
// bytes are a fixed point: what a later read returns encodes to the same
// bytes and the same digest. An error means p cannot be stored.
func Encode(p *AutomationProfile) ([]byte, *AutomationProfile, error) {
	if p == nil {
		return nil, nil, errs.Invalid("no profile to store")
	}
	return canon.StableYAML(p, fmt.Sprintf("profile %q", p.Name), func(data []byte) (*AutomationProfile, error) {
		stored, _, err := DecodeProfile(data, p.Name)
		return stored, err
	})
}

// EncodeSafety returns the stored form of a standalone safety profile, as
// a plan keeps it (a snapshot) and an action holds it, refusing one whose
// stored form would not fit a stored file.
func EncodeSafety(s SafetyProfile) ([]byte, error) {
	data, _, err := canon.StableYAML(s, "the safety profile", func(data []byte) (SafetyProfile, error) {
		stored, _, err := DecodeSafetyProfile(data, "the safety profile")
		return stored, err
	})
	return data, err
}

// Digest returns the sha256 of p's canonical YAML (see Encode): the digest
// under which a store keeps the version, and which a plan cites.
func Digest(p *AutomationProfile) (string, error) {
	data, _, err := Encode(p)
	if err != nil {
		return "", err
	}
	return canon.Digest(data), nil
}

// Version is one version of a profile in its history: the digest of its
// canonical content (see Digest), when it was written or removed (nil for
// a built-in's one version), the event, and whether it is the version in
// the store now.
type Version struct {
	Digest  string     `json:"digest"`
	Time    *time.Time `json:"time"`
	Event   string     `json:"event"`
	Current bool       `json:"current"`
}
