package profile

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Loosening is one field on which a safety profile allows more than
// another it replaces.
type Loosening struct {
	// Field is the safety field's key, for example max_total_cost.
	Field string `json:"field"`
	// Replaced and Now are the field's values in the profile replaced and
	// in the one that replaces it, as JSON text (null for no limit).
	Replaced string `json:"replaced"`
	Now      string `json:"now"`
}

// MarshalJSON writes Replaced and Now as the JSON values they hold (50,
// null, true, ["deploy"]), not as strings that hold them.
func (l Loosening) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Field    string          `json:"field"`
		Replaced json.RawMessage `json:"replaced"`
		Now      json.RawMessage `json:"now"`
	}{l.Field, json.RawMessage(l.Replaced), json.RawMessage(l.Now)})
}

// LooserThan lists, in canonical field order, every field on which s
// allows more than base: a requirement dropped (require_sandbox,
// require_checkpoints, require_human_approval true → false), unsafe tools
// allowed (false → true), skill categories widened (base allows a
// non-empty list and s allows every category, or one base does not), a
// cost limit raised or removed, more retries per step. A field on which s
// is as strict or stricter is not listed; nil means s is nowhere looser.
//
// A standalone safety profile replaces the whole composed one (by design:
// see the resolution rules), so this is what such a replacement quietly
// drops.
func (s SafetyProfile) LooserThan(base SafetyProfile) []Loosening {
	var out []Loosening
	add := func(field, replaced, now string) {
		out = append(out, Loosening{Field: field, Replaced: replaced, Now: now})
	}
	dropped := func(field string, was, is bool) {
		if was && !is {
			add(field, "true", "false")
		}
	}
	dropped("require_sandbox", base.RequireSandbox, s.RequireSandbox)
	dropped("require_checkpoints", base.RequireCheckpoints, s.RequireCheckpoints)
	if !base.AllowUnsafeTools && s.AllowUnsafeTools {
		add("allow_unsafe_tools", "false", "true")
	}
	dropped("require_human_approval", base.RequireHumanApproval, s.RequireHumanApproval)
	if widened(base.AllowedSkillCategories, s.AllowedSkillCategories) {
		add("allowed_skill_categories", listText(base.AllowedSkillCategories), listText(s.AllowedSkillCategories))
	}
	if raised(base.MaxCostPerPlan, s.MaxCostPerPlan) {
		add("max_cost_per_plan", costText(base.MaxCostPerPlan), costText(s.MaxCostPerPlan))
	}
	if raised(base.MaxTotalCost, s.MaxTotalCost) {
		add("max_total_cost", costText(base.MaxTotalCost), costText(s.MaxTotalCost))
	}
	if s.MaxRetriesPerStep > base.MaxRetriesPerStep {
		add("max_retries_per_step", strconv.Itoa(base.MaxRetriesPerStep), strconv.Itoa(s.MaxRetriesPerStep))
	}
	return out
}

// widened reports whether the categories now allow one that base did
// not. An empty list allows every category.
// LooseningText words l as one line: "max_total_cost 50 → null, ...".
func LooseningText(l []Loosening) string {
	parts := make([]string, len(l))
	for i, f := range l {
		parts[i] = f.Field + " " + f.Replaced + " → " + f.Now
	}
	return strings.Join(parts, ", ")
}

func widened(base, now []string) bool {
	if len(base) == 0 {
		return false
	}
	if len(now) == 0 {
		return true
	}
	for _, c := range now {
		if !slices.Contains(base, c) {
			return true
		}
	}
	return false
}

// raised reports whether a cost limit was removed or raised. No limit
// (nil) is the loosest.
func raised(base, now *float64) bool {
	if base == nil {
		return false
	}
	return now == nil || *now > *base
}

func listText(l []string) string {
	if l == nil {
		l = []string{}
	}
	b, _ := json.Marshal(l) // a list of strings always encodes
	return string(b)
}

func costText(c *float64) string {
	if c == nil {
		return "null"
	}
	return formatFloat(*c)
}
