package plan

import (
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/strictyaml"
)

// Field names of a stored plan.
var (
	planKeys       = []string{"id", "action", "created_at", "automation_profile", "safety_profile", "levels", "resolved_at", "project_dir"}
	automationKeys = []string{"name", "provenance", "sha256"}
	safetyRefKeys  = []string{"provenance", "source", "from_profile", "sha256"}
	settingKeys    = []string{"level", "automation_profile", "safety_profile", "source"}
)

// Decode parses and checks a stored plan; file names it in problems. Plans
// are written by agents, but a file in the store can be edited by hand, and
// a plan decides what an agent may do: so the decoding is as strict as a
// profile's, and every problem is collected into one errs.KindInvalid
// error. Every field is required.
func Decode(data []byte, file string) (*Plan, error) {
	return strictyaml.Decode(data, file, decode)
}

func decode(d *strictyaml.Decoder, root strictyaml.Field) *Plan {
	p := &Plan{}
	d.Each(root, planKeys, planKeys, func(f strictyaml.Field) {
		switch f.Key {
		case "id":
			if s, ok := d.String(f); ok {
				if why := CheckID(s); why != "" {
					d.Fieldf(f, "%s", why)
				}
				p.ID = s
			}
		case "action":
			if s, ok := d.String(f); ok {
				if err := action.ValidateName(s); err != nil {
					d.Fieldf(f, "%s", strings.TrimPrefix(err.Error(), "invalid action name: "))
				}
				p.Action = s
			}
		case "created_at":
			p.CreatedAt = decodeTime(d, f)
		case "resolved_at":
			p.ResolvedAt = decodeTime(d, f)
		case "automation_profile":
			p.AutomationProfile = decodeAutomationRef(d, f)
		case "safety_profile":
			p.SafetyProfile = decodeSafetyRef(d, f)
		case "levels":
			p.Levels = decodeLevels(d, f)
		case "project_dir":
			p.ProjectDir, _ = d.String(f)
		}
	})
	return p
}

// requireAll reports each of keys not seen in the mapping n at path: for
// the safety reference, whose loop hands its safety fields on rather than
// refusing them, so Decoder.Each does not fit it.
func requireAll(d *strictyaml.Decoder, path string, n *yaml.Node, keys []string, seen map[string]bool) {
	for _, k := range keys {
		if !seen[k] {
			d.Addf(strictyaml.Join(path, k), n, "is required")
		}
	}
}

// decodeTime reads an RFC 3339 time, written as a string or as a YAML
// timestamp.
func decodeTime(d *strictyaml.Decoder, f strictyaml.Field) time.Time {
	v := f.Value
	if v == nil || v.Kind != yaml.ScalarNode || (v.ShortTag() != "!!str" && v.ShortTag() != "!!timestamp") {
		d.Fieldf(f, "must be a time such as 2026-01-02T15:04:05Z, got %s", strictyaml.Describe(v))
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, v.Value)
	if err != nil {
		d.Fieldf(f, "must be a time such as 2026-01-02T15:04:05Z, got %q", v.Value)
		return time.Time{}
	}
	return t.UTC()
}

func decodeAutomationRef(d *strictyaml.Decoder, f strictyaml.Field) AutomationRef {
	var r AutomationRef
	d.Each(f, automationKeys, automationKeys, func(e strictyaml.Field) {
		switch e.Key {
		case "name":
			if s, ok := d.String(e); ok {
				if why := profile.CheckProfileName(s); why != "" {
					d.Fieldf(e, "%s", why)
				}
				r.Name = s
			}
		case "provenance":
			r.Provenance = oneOf(d, e, append(slices.Clone(Levels), LevelSystem))
		case "sha256":
			r.SHA256 = digest(d, e)
		}
	})
	return r
}

func decodeSafetyRef(d *strictyaml.Decoder, f strictyaml.Field) SafetyRef {
	r := SafetyRef{SafetyProfile: profile.DefaultSafetyProfile()}
	fields, ok := d.Mapping(f)
	if !ok {
		return r
	}
	// The safety fields sit beside the reference's own; they are handed
	// to the safety profile decoder as a mapping of their own.
	inner := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: f.Value.Line, Column: f.Value.Column}
	known := append(slices.Clone(safetyRefKeys), profile.SafetyKeys...)
	seen := map[string]bool{}
	for _, e := range fields {
		seen[e.Key] = true
		switch e.Key {
		case "provenance":
			r.Provenance = oneOf(d, e, Levels)
		case "source":
			r.Source = oneOf(d, e, []string{SourceStandalone, SourceComposed})
		case "from_profile":
			// An invalid name is kept, so that it is not also reported
			// as missing below.
			s, ok := d.OptString(e)
			if ok && s != nil {
				if why := profile.CheckProfileName(*s); why != "" {
					d.Fieldf(e, "%s", why)
				}
			}
			r.FromProfile = s
		case "sha256":
			r.SHA256 = digest(d, e)
		default:
			if slices.Contains(profile.SafetyKeys, e.Key) {
				inner.Content = append(inner.Content, e.KeyNode, e.Value)
				continue
			}
			d.Unknown(e, known)
		}
	}
	r.SafetyProfile = profile.DecodeSafetyField(d, strictyaml.At(f.Path, inner))
	requireAll(d, f.Path, f.Value, safetyRefKeys, seen)
	switch {
	case r.Source == SourceComposed && r.FromProfile == nil && seen["from_profile"]:
		d.Addf(strictyaml.Join(f.Path, "from_profile"), f.Value, "must name the automation profile a composed safety profile came from")
	case r.Source == SourceStandalone && r.FromProfile != nil:
		d.Addf(strictyaml.Join(f.Path, "from_profile"), f.Value, "must be null for a standalone safety profile")
	}
	return r
}

func decodeLevels(d *strictyaml.Decoder, f strictyaml.Field) []Setting {
	items, ok := d.Seq(f)
	if !ok {
		return nil
	}
	if len(items) != len(Levels) {
		d.Fieldf(f, "must list the %d levels %s, got %d entries", len(Levels), strings.Join(Levels, ", "), len(items))
		return nil
	}
	out := make([]Setting, len(items))
	for i, it := range items {
		s := Setting{}
		d.Each(it, settingKeys, settingKeys, func(e strictyaml.Field) {
			switch e.Key {
			case "level":
				if v, ok := d.String(e); ok {
					if v != Levels[i] {
						d.Fieldf(e, "must be %q (the levels are listed %s, in that order), got %q", Levels[i], strings.Join(Levels, ", "), v)
					}
					s.Level = v
				}
			case "automation_profile":
				s.AutomationProfile = profile.DecodeProfileNameField(d, e)
			case "safety_profile":
				s.SafetyProfile = profile.DecodeOptSafetyField(d, e)
			case "source":
				s.Source, _ = d.OptString(e)
			}
		})
		out[i] = s
	}
	return out
}

func oneOf(d *strictyaml.Decoder, f strictyaml.Field, allowed []string) string {
	s, ok := d.String(f)
	if !ok {
		return ""
	}
	if !slices.Contains(allowed, s) {
		d.Fieldf(f, "must be one of %s, got %q", strings.Join(allowed, ", "), s)
		return ""
	}
	return s
}

func digest(d *strictyaml.Decoder, f strictyaml.Field) string {
	s, ok := d.String(f)
	if !ok {
		return ""
	}
	if !isDigest(s) {
		d.Fieldf(f, "must be a sha256: 64 lower-case hexadecimal digits")
		return ""
	}
	return s
}

func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
