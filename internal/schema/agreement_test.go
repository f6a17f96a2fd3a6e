package schema_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/schema"
	"github.com/agentsctl/agents/internal/schema/schemacheck"
)

// decoders are the Go decoders the schemas must agree with.
var decoders = map[string]func(data []byte, file string) error{
	schema.Profile: func(data []byte, file string) error {
		_, _, err := profile.DecodeProfile(data, file)
		return err
	},
	schema.SafetyProfile: func(data []byte, file string) error {
		_, _, err := profile.DecodeSafetyProfile(data, file)
		return err
	},
	schema.Action: func(data []byte, file string) error {
		_, err := action.Decode(data, file)
		return err
	},
	schema.SafetyPack: func(data []byte, file string) error {
		_, err := safetypack.ParsePack(data, file)
		return err
	},
}

// TestSchemaAgreesWithDecoder runs the whole corpus through both the
// schemas (with ValidateYAML) and the Go decoders and checks they agree:
// valid and invalid documents alike (the legacy flat format, which the
// schema accepts as deprecated and Go reads with a warning, among the
// valid), and, for what only the Go decoders can judge, in the documented
// direction (only-go-refuses: the schema accepts and Go refuses).
func TestSchemaAgreesWithDecoder(t *testing.T) {
	groups := []struct {
		group          string
		schemaOK, goOK bool
	}{
		{"valid", true, true},
		{"invalid", false, false},
		{"only-go-refuses", true, false},
	}
	for _, g := range groups {
		for _, c := range corpus(t, g.group) {
			decode, ok := decoders[c.kind]
			if !ok {
				continue
			}
			t.Run(c.path, func(t *testing.T) {
				goErr := decode(c.data, c.path)
				schemaErr := schemacheck.ValidateYAML(c.kind, c.data, c.path)
				if (schemaErr == nil) != g.schemaOK {
					t.Errorf("schema: want valid=%v, got %v", g.schemaOK, schemaErr)
				}
				if (goErr == nil) != g.goOK {
					t.Errorf("Go decoder: want valid=%v, got %v", g.goOK, goErr)
				}
			})
		}
	}
}

// TestPackIDPatternMatchesGo checks the schema's pack_id rule against
// safetypack.CheckPackID on ids near every edge.
func TestPackIDPatternMatchesGo(t *testing.T) {
	long := "a" + strings.Repeat("_b", 48) + "_v1" // 100 characters
	ids := []string{
		"acme_safety_v1", "acme-safety_v1", "core_safety_axes_v1", "a_v0", "a_v10", long, long + "0",
		"a__b_v1", "a_v01", "_a_v1", "a-_b_v1", "a_v", "av1", "A_v1", "a_v1_", "a_v1x", "a.b_v1", "a/b_v1", "",
		"a_v1_v2", "x-y-z_v3",
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "packs", "safety", "core_safety_axes_v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		doc["pack_id"] = id
		schemaOK := true
		if err := schemacheck.Validate(schema.SafetyPack, doc); err != nil {
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatal(err)
			}
			for _, p := range e.Problems {
				if p.Path == "pack_id" {
					schemaOK = false
				}
			}
		}
		goOK := safetypack.CheckPackID(id) == ""
		if schemaOK != goOK {
			t.Errorf("%q: schema valid=%v, Go valid=%v", id, schemaOK, goOK)
		}
	}
}
