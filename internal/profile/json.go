package profile

import (
	"strconv"

	"github.com/agentsctl/agents/internal/canon"
)

// MarshalJSON implements json.Marshaler: the canonical document, written
// field by field in the order of the struct tags, exactly as encoding/json
// writes the struct (TestProfileJSONIsEncodingJSON holds it to that, and
// fails when a field is added here and not there, or there and not here).
// Showing a profile is one of the commonest things agents does, and
// encoding/json would spend more reflecting over the profile's three types,
// once per process, than the rest of the command costs.
func (p AutomationProfile) MarshalJSON() ([]byte, error) {
	return p.AppendJSON(make([]byte, 0, 1024))
}

// AppendJSON appends the document MarshalJSON returns (canon.Appender: a
// listing of profiles writes each without encoding/json's pass over it).
// A nil profile is null.
func (p *AutomationProfile) AppendJSON(b []byte) ([]byte, error) {
	if p == nil {
		return append(b, "null"...), nil
	}
	b = append(b, `{"name":`...)
	b = canon.AppendString(b, p.Name)
	b = append(b, `,"description":`...)
	b = canon.AppendString(b, p.Description)
	b = append(b, `,"schema_version":`...)
	b = canon.AppendString(b, p.SchemaVersion)
	var err error
	for _, t := range [...]struct {
		key   string
		value float64
	}{
		{"auto_strategize", p.AutoStrategize},
		{"auto_execute", p.AutoExecute},
		{"auto_apply", p.AutoApply},
		{"auto_decisions_strategize", p.AutoDecisionsStrategize},
		{"auto_decisions_execute", p.AutoDecisionsExecute},
		{"auto_validation_fix", p.AutoValidationFix},
		{"auto_strategy_revision", p.AutoStrategyRevision},
		{"auto_reversion_from_apply", p.AutoReversionFromApply},
		{"auto_child_plans", p.AutoChildPlans},
		{"auto_retry_transient", p.AutoRetryTransient},
		{"auto_checkpoint_restore", p.AutoCheckpointRestore},
	} {
		b = append(b, `,"`+t.key+`":`...)
		if b, err = canon.AppendFloat(b, t.value); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"safety":`...)
	if b, err = p.Safety.appendJSON(b); err != nil {
		return nil, err
	}
	b = append(b, `,"guards":`...)
	if b, err = p.Guards.appendJSON(b); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendJSON appends the safety profile as encoding/json writes it.
func (s *SafetyProfile) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"require_sandbox":`...)
	b = strconv.AppendBool(b, s.RequireSandbox)
	b = append(b, `,"require_checkpoints":`...)
	b = strconv.AppendBool(b, s.RequireCheckpoints)
	b = append(b, `,"allow_unsafe_tools":`...)
	b = strconv.AppendBool(b, s.AllowUnsafeTools)
	b = append(b, `,"require_human_approval":`...)
	b = strconv.AppendBool(b, s.RequireHumanApproval)
	b = append(b, `,"allowed_skill_categories":`...)
	b = canon.AppendStrings(b, s.AllowedSkillCategories)
	var err error
	b = append(b, `,"max_cost_per_plan":`...)
	if b, err = appendOptionalFloat(b, s.MaxCostPerPlan); err != nil {
		return nil, err
	}
	b = append(b, `,"max_total_cost":`...)
	if b, err = appendOptionalFloat(b, s.MaxTotalCost); err != nil {
		return nil, err
	}
	b = append(b, `,"max_retries_per_step":`...)
	b = strconv.AppendInt(b, int64(s.MaxRetriesPerStep), 10)
	return append(b, '}'), nil
}

// appendJSON appends the guards as encoding/json writes them: null when
// there are none.
func (g *AutomationGuard) appendJSON(b []byte) ([]byte, error) {
	if g == nil {
		return append(b, "null"...), nil
	}
	b = append(b, `{"max_tool_calls_per_step":`...)
	if g.MaxToolCallsPerStep == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*g.MaxToolCallsPerStep), 10)
	}
	b = append(b, `,"max_total_cost":`...)
	b, err := appendOptionalFloat(b, g.MaxTotalCost)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"tool_allowlist":`...)
	b = canon.AppendStrings(b, g.ToolAllowlist)
	b = append(b, `,"tool_denylist":`...)
	b = canon.AppendStrings(b, g.ToolDenylist)
	b = append(b, `,"require_approval_for_writes":`...)
	b = strconv.AppendBool(b, g.RequireApprovalForWrites)
	b = append(b, `,"require_approval_for_apply":`...)
	b = strconv.AppendBool(b, g.RequireApprovalForApply)
	return append(b, '}'), nil
}

func appendOptionalFloat(b []byte, f *float64) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	return canon.AppendFloat(b, *f)
}
