// Package profile holds the domain model of agents: automation profiles with
// their eleven confidence thresholds, the composed safety profile of hard
// constraints, and the guards on tool calls. It decodes and validates them
// strictly and decides gates and guards. It never prints, reads flags or
// environment, or exits.
package profile

import "slices"

// SchemaVersion is the only schema_version this release reads and writes.
const SchemaVersion = "1.0"

// BuiltinNames are the eight built-in profiles, in the order of the
// specification's table, from least to most autonomy.
var BuiltinNames = []string{"manual", "review", "supervised", "cautious", "trusted", "auto", "ci", "full-auto"}

// SystemDefault is the profile that applies when no level names one.
const SystemDefault = "review"

// IsBuiltinName reports whether name is one of the eight built-in profiles.
func IsBuiltinName(name string) bool { return slices.Contains(BuiltinNames, name) }

// Category groups thresholds by the part of a plan's life they gate.
type Category string

// The threshold categories of the specification.
const (
	CategoryPhase      Category = "phase transition"
	CategoryDecision   Category = "decision autonomy"
	CategorySelfRepair Category = "self-repair"
	CategoryChildPlans Category = "child plans"
	CategoryRetry      Category = "retry"
	CategoryCheckpoint Category = "checkpoint"
)

// Gate describes one threshold field.
type Gate struct {
	Name        string
	Category    Category
	Description string
	field       func(*AutomationProfile) *float64
}

// Value returns the gate's threshold in p.
func (g Gate) Value(p *AutomationProfile) float64 { return *g.field(p) }

// Set changes the gate's threshold in p.
func (g Gate) Set(p *AutomationProfile, v float64) { *g.field(p) = v }

// Gates lists the eleven thresholds in canonical order.
var Gates = []Gate{
	{"auto_strategize", CategoryPhase, "gate before entering the strategy phase", func(p *AutomationProfile) *float64 { return &p.AutoStrategize }},
	{"auto_execute", CategoryPhase, "gate before entering the execution phase", func(p *AutomationProfile) *float64 { return &p.AutoExecute }},
	{"auto_apply", CategoryPhase, "gate before applying changes", func(p *AutomationProfile) *float64 { return &p.AutoApply }},
	{"auto_decisions_strategize", CategoryDecision, "gate for decisions during strategy", func(p *AutomationProfile) *float64 { return &p.AutoDecisionsStrategize }},
	{"auto_decisions_execute", CategoryDecision, "gate for decisions during execution", func(p *AutomationProfile) *float64 { return &p.AutoDecisionsExecute }},
	{"auto_validation_fix", CategorySelfRepair, "gate for automatic validation fixes", func(p *AutomationProfile) *float64 { return &p.AutoValidationFix }},
	{"auto_strategy_revision", CategorySelfRepair, "gate for automatic strategy revision", func(p *AutomationProfile) *float64 { return &p.AutoStrategyRevision }},
	{"auto_reversion_from_apply", CategorySelfRepair, "gate for reverting from the apply phase", func(p *AutomationProfile) *float64 { return &p.AutoReversionFromApply }},
	{"auto_child_plans", CategoryChildPlans, "gate for spawning child plans", func(p *AutomationProfile) *float64 { return &p.AutoChildPlans }},
	{"auto_retry_transient", CategoryRetry, "gate for retrying transient failures", func(p *AutomationProfile) *float64 { return &p.AutoRetryTransient }},
	{"auto_checkpoint_restore", CategoryCheckpoint, "gate for automatic checkpoint restoration", func(p *AutomationProfile) *float64 { return &p.AutoCheckpointRestore }},
}

// GateNames returns the names of the eleven thresholds in canonical order.
func GateNames() []string {
	names := make([]string, len(Gates))
	for i, g := range Gates {
		names[i] = g.Name
	}
	return names
}

// LookupGate returns the gate with the given name.
func LookupGate(name string) (Gate, bool) {
	for _, g := range Gates {
		if g.Name == name {
			return g, true
		}
	}
	return Gate{}, false
}

// AutomationProfile is a named set of thresholds, a composed safety profile
// and optional guards. Field order is the canonical output order.
type AutomationProfile struct {
	Name          string `json:"name"`
	Description   string `json:"description"`
	SchemaVersion string `json:"schema_version"`

	AutoStrategize          float64 `json:"auto_strategize"`
	AutoExecute             float64 `json:"auto_execute"`
	AutoApply               float64 `json:"auto_apply"`
	AutoDecisionsStrategize float64 `json:"auto_decisions_strategize"`
	AutoDecisionsExecute    float64 `json:"auto_decisions_execute"`
	AutoValidationFix       float64 `json:"auto_validation_fix"`
	AutoStrategyRevision    float64 `json:"auto_strategy_revision"`
	AutoReversionFromApply  float64 `json:"auto_reversion_from_apply"`
	AutoChildPlans          float64 `json:"auto_child_plans"`
	AutoRetryTransient      float64 `json:"auto_retry_transient"`
	AutoCheckpointRestore   float64 `json:"auto_checkpoint_restore"`

	Safety SafetyProfile    `json:"safety"`
	Guards *AutomationGuard `json:"guards"`
}

// Namespace returns the part of a custom profile's name before the slash,
// or "" for a built-in.
func (p *AutomationProfile) Namespace() string { return NamespaceOf(p.Name) }

// IsBuiltin reports whether p carries one of the built-in names.
func (p *AutomationProfile) IsBuiltin() bool { return IsBuiltinName(p.Name) }

// Clone returns a deep copy of p, so callers can never change a value that
// another caller holds.
func (p *AutomationProfile) Clone() *AutomationProfile {
	if p == nil {
		return nil
	}
	c := *p
	c.Safety = p.Safety.Clone()
	if p.Guards != nil {
		g := p.Guards.Clone()
		c.Guards = &g
	}
	return &c
}

// SafetyProfile holds the hard safety constraints: binary invariants and
// limits that no confidence can override. Field order is the canonical output
// order.
type SafetyProfile struct {
	RequireSandbox         bool     `json:"require_sandbox"`
	RequireCheckpoints     bool     `json:"require_checkpoints"`
	AllowUnsafeTools       bool     `json:"allow_unsafe_tools"`
	RequireHumanApproval   bool     `json:"require_human_approval"`
	AllowedSkillCategories []string `json:"allowed_skill_categories"`
	MaxCostPerPlan         *float64 `json:"max_cost_per_plan"`
	MaxTotalCost           *float64 `json:"max_total_cost"`
	MaxRetriesPerStep      int      `json:"max_retries_per_step"`
}

// DefaultMaxRetriesPerStep is the default retry cap per step.
const DefaultMaxRetriesPerStep = 3

// DefaultSafetyProfile returns the default safety profile: sandbox and
// checkpoints required, unsafe tools forbidden, no human approval, every
// skill category allowed, no cost limits, three retries per step. It returns
// a fresh value each time, so the default can never be changed.
func DefaultSafetyProfile() SafetyProfile {
	return SafetyProfile{
		RequireSandbox:         true,
		RequireCheckpoints:     true,
		AllowUnsafeTools:       false,
		RequireHumanApproval:   false,
		AllowedSkillCategories: []string{},
		MaxCostPerPlan:         nil,
		MaxTotalCost:           nil,
		MaxRetriesPerStep:      DefaultMaxRetriesPerStep,
	}
}

// Clone returns a deep copy of s.
func (s SafetyProfile) Clone() SafetyProfile {
	c := s
	c.AllowedSkillCategories = cloneStrings(s.AllowedSkillCategories)
	if c.AllowedSkillCategories == nil {
		c.AllowedSkillCategories = []string{}
	}
	c.MaxCostPerPlan = cloneFloat(s.MaxCostPerPlan)
	c.MaxTotalCost = cloneFloat(s.MaxTotalCost)
	return c
}

// AutomationGuard gates individual tool calls at run time. A nil list means
// the list is absent; an empty, non-nil allowlist means no tool runs without
// approval.
type AutomationGuard struct {
	MaxToolCallsPerStep      *int     `json:"max_tool_calls_per_step"`
	MaxTotalCost             *float64 `json:"max_total_cost"`
	ToolAllowlist            []string `json:"tool_allowlist"`
	ToolDenylist             []string `json:"tool_denylist"`
	RequireApprovalForWrites bool     `json:"require_approval_for_writes"`
	RequireApprovalForApply  bool     `json:"require_approval_for_apply"`
}

// Clone returns a deep copy of g, keeping nil lists nil and empty lists empty.
func (g AutomationGuard) Clone() AutomationGuard {
	c := g
	if g.MaxToolCallsPerStep != nil {
		v := *g.MaxToolCallsPerStep
		c.MaxToolCallsPerStep = &v
	}
	c.MaxTotalCost = cloneFloat(g.MaxTotalCost)
	c.ToolAllowlist = cloneStrings(g.ToolAllowlist)
	c.ToolDenylist = cloneStrings(g.ToolDenylist)
	return c
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append(make([]string, 0, len(s)), s...)
}

func cloneFloat(f *float64) *float64 {
	if f == nil {
		return nil
	}
	v := *f
	return &v
}

// NamespaceOf returns the namespace part of a "namespace/name" profile or
// action name, or "" when there is none.
func NamespaceOf(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			return name[:i]
		}
	}
	return ""
}
