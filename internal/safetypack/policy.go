package safetypack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// PolicyContext is what a pack's boundary predicates judge: the state a
// decision is taken in. Profile is required; Plan and Action are nil when
// the decision concerns no plan or no action.
type PolicyContext struct {
	// Profile is the automation profile in force.
	Profile *profile.AutomationProfile
	// Safety is the safety profile in force, whichever level it came
	// from: a standalone one, or the one composed in Profile. A predicate
	// on profile.safety alone would be bypassed by a standalone safety
	// profile; safety is the one to judge.
	Safety profile.SafetyProfile
	// Plan is the plan the decision is taken for, or nil.
	Plan *plan.Plan
	// Action is the action the plan was made from (or the decision
	// concerns), or nil.
	Action *action.Action
}

// The documents below are the canonical JSON documents of profiles,
// plans and actions, as types: predicates are compiled against them, so
// a predicate that names a field the document does not have is refused
// when the pack loads, and values are filled in by decoding the
// canonical JSON with unknown fields refused, so a field added to a
// document without being added here fails closed instead of vanishing.
// The expr tag is the name a predicate uses, always the JSON key.

// policyEnv is the environment every predicate is compiled against and
// evaluated in.
type policyEnv struct {
	Profile profileDoc `expr:"profile"`
	Safety  safetyDoc  `expr:"safety"`
	Plan    *planDoc   `expr:"plan"`
	Action  *actionDoc `expr:"action"`
}

type profileDoc struct {
	Name                    string     `json:"name" expr:"name"`
	Description             string     `json:"description" expr:"description"`
	SchemaVersion           string     `json:"schema_version" expr:"schema_version"`
	AutoStrategize          float64    `json:"auto_strategize" expr:"auto_strategize"`
	AutoExecute             float64    `json:"auto_execute" expr:"auto_execute"`
	AutoApply               float64    `json:"auto_apply" expr:"auto_apply"`
	AutoDecisionsStrategize float64    `json:"auto_decisions_strategize" expr:"auto_decisions_strategize"`
	AutoDecisionsExecute    float64    `json:"auto_decisions_execute" expr:"auto_decisions_execute"`
	AutoValidationFix       float64    `json:"auto_validation_fix" expr:"auto_validation_fix"`
	AutoStrategyRevision    float64    `json:"auto_strategy_revision" expr:"auto_strategy_revision"`
	AutoReversionFromApply  float64    `json:"auto_reversion_from_apply" expr:"auto_reversion_from_apply"`
	AutoChildPlans          float64    `json:"auto_child_plans" expr:"auto_child_plans"`
	AutoRetryTransient      float64    `json:"auto_retry_transient" expr:"auto_retry_transient"`
	AutoCheckpointRestore   float64    `json:"auto_checkpoint_restore" expr:"auto_checkpoint_restore"`
	Safety                  safetyDoc  `json:"safety" expr:"safety"`
	Guards                  *guardsDoc `json:"guards" expr:"guards"`
}

type safetyDoc struct {
	RequireSandbox         bool     `json:"require_sandbox" expr:"require_sandbox"`
	RequireCheckpoints     bool     `json:"require_checkpoints" expr:"require_checkpoints"`
	AllowUnsafeTools       bool     `json:"allow_unsafe_tools" expr:"allow_unsafe_tools"`
	RequireHumanApproval   bool     `json:"require_human_approval" expr:"require_human_approval"`
	AllowedSkillCategories []string `json:"allowed_skill_categories" expr:"allowed_skill_categories"`
	MaxCostPerPlan         *float64 `json:"max_cost_per_plan" expr:"max_cost_per_plan"`
	MaxTotalCost           *float64 `json:"max_total_cost" expr:"max_total_cost"`
	MaxRetriesPerStep      int      `json:"max_retries_per_step" expr:"max_retries_per_step"`
}

type guardsDoc struct {
	MaxToolCallsPerStep      *int     `json:"max_tool_calls_per_step" expr:"max_tool_calls_per_step"`
	MaxTotalCost             *float64 `json:"max_total_cost" expr:"max_total_cost"`
	ToolAllowlist            []string `json:"tool_allowlist" expr:"tool_allowlist"`
	ToolDenylist             []string `json:"tool_denylist" expr:"tool_denylist"`
	RequireApprovalForWrites bool     `json:"require_approval_for_writes" expr:"require_approval_for_writes"`
	RequireApprovalForApply  bool     `json:"require_approval_for_apply" expr:"require_approval_for_apply"`
}

type planDoc struct {
	ID                string            `json:"id" expr:"id"`
	Action            string            `json:"action" expr:"action"`
	CreatedAt         string            `json:"created_at" expr:"created_at"`
	AutomationProfile planAutomationRef `json:"automation_profile" expr:"automation_profile"`
	SafetyProfile     planSafetyRef     `json:"safety_profile" expr:"safety_profile"`
	Levels            []levelDoc        `json:"levels" expr:"levels"`
	ResolvedAt        string            `json:"resolved_at" expr:"resolved_at"`
	ProjectDir        string            `json:"project_dir" expr:"project_dir"`
}

type planAutomationRef struct {
	Name       string `json:"name" expr:"name"`
	Provenance string `json:"provenance" expr:"provenance"`
	SHA256     string `json:"sha256" expr:"sha256"`
}

// planSafetyRef embeds safetyDoc: the plan's JSON flattens the safety
// fields beside the reference's own, and so does a predicate, so both
// see one field list.
type planSafetyRef struct {
	Provenance  string  `json:"provenance" expr:"provenance"`
	Source      string  `json:"source" expr:"source"`
	FromProfile *string `json:"from_profile" expr:"from_profile"`
	safetyDoc
	SHA256 string `json:"sha256" expr:"sha256"`
}

type levelDoc struct {
	Level             string     `json:"level" expr:"level"`
	AutomationProfile *string    `json:"automation_profile" expr:"automation_profile"`
	SafetyProfile     *safetyDoc `json:"safety_profile" expr:"safety_profile"`
	Source            *string    `json:"source" expr:"source"`
}

type actionDoc struct {
	Name              string     `json:"name" expr:"name"`
	Description       string     `json:"description" expr:"description"`
	DefinitionOfDone  string     `json:"definition_of_done" expr:"definition_of_done"`
	StrategyActor     string     `json:"strategy_actor" expr:"strategy_actor"`
	ExecutionActor    string     `json:"execution_actor" expr:"execution_actor"`
	AutomationProfile *string    `json:"automation_profile" expr:"automation_profile"`
	SafetyProfile     *safetyDoc `json:"safety_profile" expr:"safety_profile"`
}

// docNames turns the Go names of the documents in expr's messages into
// the names a predicate uses.
var docNames = func() *strings.Replacer {
	names := [][2]string{
		{"safetypack.policyEnv", "the context"},
		{"safetypack.profileDoc", "profile"},
		{"safetypack.safetyDoc", "safety profile"},
		{"safetypack.guardsDoc", "guards"},
		{"safetypack.planDoc", "plan"},
		{"safetypack.planAutomationRef", "plan.automation_profile"},
		{"safetypack.planSafetyRef", "plan.safety_profile"},
		{"safetypack.levelDoc", "plan level"},
		{"safetypack.actionDoc", "action"},
	}
	var pairs []string
	for _, n := range names {
		pairs = append(pairs, "type *"+n[0], n[1], "type "+n[0], n[1], "*"+n[0], n[1], n[0], n[1])
	}
	return strings.NewReplacer(pairs...)
}()

// env builds the environment predicates see from ctx, each document
// decoded from the canonical JSON of its value.
func (ctx PolicyContext) env() (*policyEnv, error) {
	if ctx.Profile == nil {
		return nil, fmt.Errorf("no automation profile in force was supplied")
	}
	e := &policyEnv{}
	if err := viaJSON(ctx.Profile.Clone(), &e.Profile); err != nil {
		return nil, fmt.Errorf("the automation profile: %w", err)
	}
	if err := viaJSON(ctx.Safety.Clone(), &e.Safety); err != nil {
		return nil, fmt.Errorf("the safety profile: %w", err)
	}
	if ctx.Plan != nil {
		e.Plan = &planDoc{}
		if err := viaJSON(ctx.Plan.Clone(), e.Plan); err != nil {
			return nil, fmt.Errorf("the plan: %w", err)
		}
	}
	if ctx.Action != nil {
		e.Action = &actionDoc{}
		if err := viaJSON(ctx.Action.Clone(), e.Action); err != nil {
			return nil, fmt.Errorf("the action: %w", err)
		}
	}
	return e, nil
}

// viaJSON decodes the JSON encoding of v into dst, refusing a key dst
// does not know.
func viaJSON(v, dst any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(dst)
}

// sizes returns the length of the longest list and of the longest string
// in the environment: how many times a predicate's loop can turn over the
// data it was given, and how long a string operation can scan.
func (e *policyEnv) sizes() (list, str int) {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice:
			list = max(list, v.Len())
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.String:
			str = max(str, v.Len())
		}
	}
	walk(reflect.ValueOf(e))
	return list, str
}
