package profile

import (
	"github.com/agentsctl/agents/internal/strictyaml"
)

// Field names of a safety profile and of guards.
const (
	keyRequireSandbox         = "require_sandbox"
	keyRequireCheckpoints     = "require_checkpoints"
	keyAllowUnsafeTools       = "allow_unsafe_tools"
	keyRequireHumanApproval   = "require_human_approval"
	keyAllowedSkillCategories = "allowed_skill_categories"
	keyMaxCostPerPlan         = "max_cost_per_plan"
	keyMaxTotalCost           = "max_total_cost"
	keyMaxRetriesPerStep      = "max_retries_per_step"

	keyMaxToolCallsPerStep      = "max_tool_calls_per_step"
	keyToolAllowlist            = "tool_allowlist"
	keyToolDenylist             = "tool_denylist"
	keyRequireApprovalForWrites = "require_approval_for_writes"
	keyRequireApprovalForApply  = "require_approval_for_apply"
)

// SafetyKeys lists the fields of a safety profile in canonical order.
var SafetyKeys = []string{
	keyRequireSandbox, keyRequireCheckpoints, keyAllowUnsafeTools, keyRequireHumanApproval,
	keyAllowedSkillCategories, keyMaxCostPerPlan, keyMaxTotalCost, keyMaxRetriesPerStep,
}

// GuardKeys lists the fields of guards in canonical order.
var GuardKeys = []string{
	keyMaxToolCallsPerStep, keyMaxTotalCost, keyToolAllowlist, keyToolDenylist,
	keyRequireApprovalForWrites, keyRequireApprovalForApply,
}

// DecodeSafetyProfile parses and validates a standalone safety profile
// document (the specification's from_yaml): a mapping of the eight safety
// fields, each left out taking its default. Problems are collected as in
// DecodeProfile. On error the returned value is DefaultSafetyProfile, the
// safe side, never a zero value with the sandbox off. There are no warnings
// yet; the slice is there so callers print them the same way as for
// profiles.
func DecodeSafetyProfile(data []byte, file string) (SafetyProfile, []string, error) {
	s, err := strictyaml.Decode(data, file, func(d *strictyaml.Decoder, root strictyaml.Field) SafetyProfile {
		s, _ := decodeSafety(d, root)
		return s
	})
	if err != nil {
		return DefaultSafetyProfile(), nil, err
	}
	return s, nil, nil
}

// LoadSafetyProfile reads and decodes the standalone safety profile in the
// file at path (the specification's from_yaml): a missing file is
// errs.KindNotFound, a root that is not a mapping errs.KindInvalid.
func LoadSafetyProfile(path string) (SafetyProfile, []string, error) {
	data, err := ReadFile(path)
	if err != nil {
		return DefaultSafetyProfile(), nil, err
	}
	return DecodeSafetyProfile(data, path)
}

// DecodeSafetyField decodes the safety profile mapping in f, recording
// problems in d, for decoders that walk a larger document with one
// strictyaml.Decoder. A null value is a problem: callers for whom null
// means "none" check f.IsNull first.
func DecodeSafetyField(d *strictyaml.Decoder, f strictyaml.Field) SafetyProfile {
	if f.Value == nil {
		d.Fieldf(f, "must be a mapping, got nothing")
		return DefaultSafetyProfile()
	}
	s, _ := decodeSafety(d, f)
	return s
}

// DecodeOptSafetyField is DecodeSafetyField for a field where null means
// "no safety profile": it returns nil then.
func DecodeOptSafetyField(d *strictyaml.Decoder, f strictyaml.Field) *SafetyProfile {
	if f.IsNull() {
		return nil
	}
	s := DecodeSafetyField(d, f)
	return &s
}

// DecodeProfileNameField decodes a field naming an automation profile
// (built-in or namespace/name) or null, recording problems in d: it
// returns nil for null and for a name that is not valid.
func DecodeProfileNameField(d *strictyaml.Decoder, f strictyaml.Field) *string {
	s, ok := d.OptString(f)
	if !ok || s == nil {
		return nil
	}
	if why := CheckProfileName(*s); why != "" {
		d.Fieldf(f, "%s", why)
		return nil
	}
	return s
}

// safetyFields records which safety fields a mapping set, and whether each
// was valid, so flat legacy values can be compared with nested ones.
type safetyFields map[string]fieldState

// fieldState is what decodeSafety knows about one field it saw.
type fieldState struct{ ok bool }

func decodeSafety(d *strictyaml.Decoder, f strictyaml.Field) (SafetyProfile, safetyFields) {
	s := DefaultSafetyProfile()
	seen := make(safetyFields, 4)
	var plan, total *strictyaml.Field
	for _, e := range d.Fields(f, SafetyKeys) {
		ok := true
		switch e.Key {
		case keyRequireSandbox:
			s.RequireSandbox, ok = boolOr(d, e, s.RequireSandbox)
		case keyRequireCheckpoints:
			s.RequireCheckpoints, ok = boolOr(d, e, s.RequireCheckpoints)
		case keyAllowUnsafeTools:
			s.AllowUnsafeTools, ok = boolOr(d, e, s.AllowUnsafeTools)
		case keyRequireHumanApproval:
			s.RequireHumanApproval, ok = boolOr(d, e, s.RequireHumanApproval)
		case keyAllowedSkillCategories:
			if e.IsNull() {
				d.Fieldf(e, "must be a list of strings, got null (use [] to allow every category)")
				ok = false
				break
			}
			var list []string
			if list, ok = d.StringList(e); ok {
				s.AllowedSkillCategories = list
			}
		case keyMaxCostPerPlan:
			s.MaxCostPerPlan, ok = cost(d, e)
			if ok && s.MaxCostPerPlan != nil {
				plan = &e
			}
		case keyMaxTotalCost:
			s.MaxTotalCost, ok = cost(d, e)
			if ok && s.MaxTotalCost != nil {
				total = &e
			}
		case keyMaxRetriesPerStep:
			var v int64
			if v, ok = d.Int(e); ok {
				if why := checkRetries(v); why != "" {
					d.Fieldf(e, "%s", why)
					ok = false
					break
				}
				s.MaxRetriesPerStep = int(v)
			}
		}
		seen[e.Key] = fieldState{ok: ok}
	}
	if plan != nil && total != nil {
		if why := checkCostOrder(*s.MaxCostPerPlan, *s.MaxTotalCost); why != "" {
			d.Fieldf(*plan, "%s", why)
		}
	}
	return s, seen
}

func boolOr(d *strictyaml.Decoder, f strictyaml.Field, def bool) (bool, bool) {
	v, ok := d.Bool(f)
	if !ok {
		return def, false
	}
	return v, true
}

// cost reads an optional cost: null, or a finite number not below zero.
func cost(d *strictyaml.Decoder, f strictyaml.Field) (*float64, bool) {
	v, ok := d.OptFloat(f)
	if !ok {
		return nil, false
	}
	if v != nil {
		if why := checkCost(*v); why != "" {
			d.Fieldf(f, "%s", why)
			return nil, false
		}
	}
	return v, true
}

func decodeGuards(d *strictyaml.Decoder, f strictyaml.Field) AutomationGuard {
	var g AutomationGuard
	for _, e := range d.Fields(f, GuardKeys) {
		switch e.Key {
		case keyMaxToolCallsPerStep:
			v, ok := d.OptInt(e)
			if !ok || v == nil {
				break
			}
			if why := checkCount(*v); why != "" {
				d.Fieldf(e, "%s", why)
				break
			}
			n := int(*v)
			g.MaxToolCallsPerStep = &n
		case keyMaxTotalCost:
			g.MaxTotalCost, _ = cost(d, e)
		case keyToolAllowlist:
			g.ToolAllowlist = toolList(d, e)
		case keyToolDenylist:
			g.ToolDenylist = toolList(d, e)
		case keyRequireApprovalForWrites:
			g.RequireApprovalForWrites, _ = d.Bool(e)
		case keyRequireApprovalForApply:
			g.RequireApprovalForApply, _ = d.Bool(e)
		}
	}
	return g
}

// toolList reads a tool allowlist or denylist: null means no list (nil);
// [] is an empty, non-nil list, which for an allowlist means that no tool
// runs without approval.
func toolList(d *strictyaml.Decoder, f strictyaml.Field) []string {
	if f.IsNull() {
		return nil
	}
	list, _ := d.StringList(f)
	return list
}
