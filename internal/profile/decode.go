package profile

import (
	"bytes"
	"encoding/json"
	"os"

	"github.com/agentsctl/agents/internal/errs"
	"go.yaml.in/yaml/v3"
)

// MaxFileSize is the largest profile, action or safety profile file read.
const MaxFileSize = 1 << 20

// DecodeProfile parses and validates one automation profile document. file
// names the source in problems. Warnings (such as the legacy flat safety
// format) are returned for the caller to print. A validation failure is an
// *errs.Error of KindInvalid carrying every problem found.
func DecodeProfile(data []byte, file string) (*AutomationProfile, []string, error) {
	// Provisional loose decoder; replaced by the strict node walker.
	p := &AutomationProfile{SchemaVersion: SchemaVersion, Safety: DefaultSafetyProfile()}
	for _, g := range Gates {
		g.Set(p, 1)
	}
	if err := looseDecode(data, p); err != nil {
		return nil, nil, errs.InvalidProblems(file, []errs.Problem{{File: file, Message: err.Error()}})
	}
	return p, nil, nil
}

// DecodeSafetyProfile parses and validates a standalone safety profile
// document (the seed's from_yaml).
func DecodeSafetyProfile(data []byte, file string) (SafetyProfile, []string, error) {
	s := DefaultSafetyProfile()
	if err := looseDecode(data, &s); err != nil {
		return SafetyProfile{}, nil, errs.InvalidProblems(file, []errs.Problem{{File: file, Message: err.Error()}})
	}
	return s, nil, nil
}

func looseDecode(data []byte, v any) error {
	var m any
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&m); err != nil {
		return err
	}
	js, err := json.Marshal(m)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// ReadFile reads a profile file. Provisional.
func ReadFile(path string) ([]byte, error) {
	return os.ReadFile(path)
}
