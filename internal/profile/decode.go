package profile

import (
	"fmt"
	"strings"

	"github.com/agentsctl/agents/internal/strictyaml"
)

// MaxFileSize is the largest profile, action or safety profile file read:
// 1 MiB.
const MaxFileSize = strictyaml.MaxFileSize

// ReadFile reads a file to decode, at most MaxFileSize+1 bytes of it, so a
// huge file is refused without being read whole. A missing file is
// errs.KindNotFound ("file not found"); a directory or a file over
// MaxFileSize is errs.KindInvalid; other I/O failures are errs.KindInternal.
func ReadFile(path string) ([]byte, error) { return strictyaml.ReadFile(path) }

// LoadProfile reads and decodes the automation profile in the file at path.
func LoadProfile(path string) (*AutomationProfile, []Warning, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return DecodeProfile(data, path)
}

// Field names of an automation profile document.
const (
	keyName          = "name"
	keyDescription   = "description"
	keySchemaVersion = "schema_version"
	keySafety        = "safety"
	keyGuards        = "guards"
)

// legacyKeys are the safety fields the pre-nesting format put at the top
// level of a profile.
var legacyKeys = [...]string{keyRequireSandbox, keyRequireCheckpoints, keyAllowUnsafeTools}

// ProfileKeys lists the fields of an automation profile document in
// canonical order.
var ProfileKeys = func() []string {
	keys := []string{keyName, keyDescription, keySchemaVersion}
	for _, g := range Gates {
		keys = append(keys, g.Name)
	}
	return append(keys, keySafety, keyGuards)
}()

// rootKeys are the keys accepted at the top of a profile: the canonical
// ones and the legacy flat safety fields.
var rootKeys = append(append([]string(nil), ProfileKeys...), legacyKeys[:]...)

var gateIndex = func() map[string]int {
	m := make(map[string]int, len(Gates))
	for i, g := range Gates {
		m[g.Name] = i
	}
	return m
}()

// DecodeProfile parses and validates one automation profile document. file
// names the source in problems and warnings. Every problem in the document
// is collected: the error is an *errs.Error of errs.KindInvalid (from
// errs.InvalidProblems) carrying each with its field path and line.
//
// The decoding is strict: unknown keys (with a did-you-mean), duplicate
// keys, custom tags, a second document, an empty file, values of the wrong
// YAML type (yes for a bool, 1.5 for an int, 123 for a string), non-finite
// numbers and values out of range are all refused. A threshold left out is
// 1.0, a left-out safety is DefaultSafetyProfile, guards left out or null are
// nil. The name may be a built-in name or namespace/name; deciding whether a
// built-in name may be written is the caller's business.
//
// The legacy flat format (require_sandbox, require_checkpoints and
// allow_unsafe_tools at the top level) is accepted, moved under safety, and
// reported in the returned warnings; a flat value that disagrees with the
// nested one is a problem. Warnings are returned for the caller to print,
// with or without an error.
func DecodeProfile(data []byte, file string) (*AutomationProfile, []Warning, error) {
	var warnings []Warning
	p, err := strictyaml.Decode(data, file, func(d *strictyaml.Decoder, root strictyaml.Field) *AutomationProfile {
		var p *AutomationProfile
		p, warnings = decodeProfile(d, root)
		return p
	})
	return p, warnings, err
}

// legacyField is a flat safety field found at the top of a profile.
type legacyField struct {
	field strictyaml.Field
	value bool
	ok    bool
}

func decodeProfile(d *strictyaml.Decoder, root strictyaml.Field) (*AutomationProfile, []Warning) {
	p := &AutomationProfile{SchemaVersion: SchemaVersion, Safety: DefaultSafetyProfile()}
	for _, g := range Gates {
		g.Set(p, 1)
	}
	fields, _ := d.Mapping(root)
	var (
		haveName bool
		nested   safetyFields
		legacy   [len(legacyKeys)]*legacyField
	)
	for _, f := range fields {
		switch f.Key {
		case keyName:
			haveName = true
			if s, ok := d.String(f); ok {
				if why := checkOwnName(s); why != "" {
					d.Fieldf(f, "%s", why)
				}
				p.Name = s
			}
		case keyDescription:
			if s, ok := d.String(f); ok {
				p.Description = s
			}
		case keySchemaVersion:
			if s, ok := d.String(f); ok && s != SchemaVersion {
				d.Fieldf(f, "must be %q, got %q", SchemaVersion, s)
			}
		case keySafety:
			// Left out, safety is the default profile; written, it must
			// say something: a key with no value is an edit not finished.
			if f.IsNull() {
				d.Fieldf(f, "must be a mapping of safety settings, got null; remove the key to use the default safety profile")
			} else {
				p.Safety, nested = decodeSafety(d, f)
			}
		case keyGuards:
			if !f.IsNull() {
				g := decodeGuards(d, f)
				p.Guards = &g
			}
		case keyRequireSandbox, keyRequireCheckpoints, keyAllowUnsafeTools:
			v, ok := d.Bool(f)
			legacy[legacyIndex(f.Key)] = &legacyField{field: f, value: v, ok: ok}
		default:
			if i, ok := gateIndex[f.Key]; ok {
				if v, ok := d.Float(f); ok {
					if why := checkThreshold(v); why != "" {
						d.Fieldf(f, "%s, got %s", why, f.Value.Value)
					}
					Gates[i].Set(p, v)
				}
				continue
			}
			misplaced(d, f)
		}
	}
	if !haveName {
		d.Addf(keyName, root.Value, "is required")
	}
	return p, applyLegacy(d, p, nested, legacy)
}

// misplaced reports an unknown top-level key, saying where it belongs when
// it is a field of safety or guards.
func misplaced(d *strictyaml.Decoder, f strictyaml.Field) {
	inSafety, inGuards := contains(SafetyKeys, f.Key), contains(GuardKeys, f.Key)
	switch {
	case inSafety && inGuards:
		d.Addf(f.Path, f.KeyNode, "unknown field %q at the top level; it belongs under safety: or guards:", f.Key)
	case inSafety:
		d.Addf(f.Path, f.KeyNode, "unknown field %q at the top level; it belongs under safety:", f.Key)
	case inGuards:
		d.Addf(f.Path, f.KeyNode, "unknown field %q at the top level; it belongs under guards:", f.Key)
	default:
		d.Unknown(f, rootKeys)
	}
}

func legacyIndex(key string) int {
	for i, k := range legacyKeys {
		if k == key {
			return i
		}
	}
	panic("profile: not a legacy key: " + key)
}

// applyLegacy moves flat safety fields under safety, refusing those that
// disagree with a nested value, and returns the warning for the caller.
func applyLegacy(d *strictyaml.Decoder, p *AutomationProfile, nested safetyFields, legacy [len(legacyKeys)]*legacyField) []Warning {
	var found []string
	for i, lf := range legacy {
		if lf == nil {
			continue
		}
		key := legacyKeys[i]
		found = append(found, key)
		if !lf.ok {
			continue
		}
		ptr := safetyBool(&p.Safety, key)
		if nf, ok := nested[key]; ok {
			if nf.ok && *ptr != lf.value {
				d.Fieldf(lf.field, "top-level (legacy) value %t disagrees with safety.%s: %t; keep only the one under safety:", lf.value, key, *ptr)
			}
			continue
		}
		*ptr = lf.value
	}
	if len(found) == 0 {
		return nil
	}
	msg := fmt.Sprintf("legacy flat safety fields at the top level (%s); move them under safety:", strings.Join(found, ", "))
	return []Warning{{File: d.File(), Message: msg, Migrate: true}}
}

// Warning is what a decoder accepted but the author should change.
type Warning struct {
	// File names the document; "" when it has none.
	File string
	// Message says what to change.
	Message string
	// Migrate is set on a warning about the legacy flat format, which a
	// migration of the file rewrites.
	Migrate bool
}

// String returns the warning with its file.
func (w Warning) String() string {
	if w.File == "" {
		return w.Message
	}
	return w.File + ": " + w.Message
}

func safetyBool(s *SafetyProfile, key string) *bool {
	switch key {
	case keyRequireSandbox:
		return &s.RequireSandbox
	case keyRequireCheckpoints:
		return &s.RequireCheckpoints
	case keyAllowUnsafeTools:
		return &s.AllowUnsafeTools
	}
	panic("profile: not a safety flag: " + key)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
