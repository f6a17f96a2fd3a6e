package profile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/strictyaml"
)

// MaxRetriesPerStep is the highest max_retries_per_step a safety profile may
// set.
const MaxRetriesPerStep = 100

// CheckProfileName returns why name cannot name an automation profile, or
// "" when it is one of the built-in names or a valid namespace/name. Names
// are case-sensitive: a built-in's name in another case is not it, and the
// reason names the built-in meant.
func CheckProfileName(name string) string {
	return checkName(name, "; names are lower-case: did you mean the built-in %q?")
}

// checkOwnName is CheckProfileName for the name a profile gives itself: a
// built-in's name in another case is refused without suggesting the
// built-in, which a custom profile cannot take (a conflict).
func checkOwnName(name string) string {
	return checkName(name, "; names are lower-case, and %q is a built-in's: give the profile a namespace/name of its own")
}

// checkName is CheckProfileName, with builtin (a format of the built-in's
// name) added to the reason when name is a built-in's in another case.
func checkName(name, builtin string) string {
	if IsBuiltinName(name) {
		return ""
	}
	why := CheckCustomName(name)
	if lower := strings.ToLower(name); why != "" && IsBuiltinName(lower) {
		why += fmt.Sprintf(builtin, lower)
	}
	return why
}

// The value checks below are shared by the decoder, which reports them with
// the line of the offending value, and by Validate, which checks values
// built in code. Each returns "" when the value is fine.

func checkThreshold(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "must be a finite number between 0 and 1"
	}
	if v < 0 || v > 1 {
		return "must be between 0 and 1"
	}
	return ""
}

func checkRetries(v int64) string {
	if v < 0 || v > MaxRetriesPerStep {
		return fmt.Sprintf("must be between 0 and %d, got %d", MaxRetriesPerStep, v)
	}
	return ""
}

func checkCost(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "must be a finite number"
	}
	if v < 0 {
		return "must not be negative, got " + formatFloat(v)
	}
	return ""
}

func checkCostOrder(plan, total float64) string {
	if plan > total {
		return fmt.Sprintf("must not exceed max_total_cost (%s), got %s", formatFloat(total), formatFloat(plan))
	}
	return ""
}

func checkCount(v int64) string {
	if v < 0 {
		return fmt.Sprintf("must not be negative, got %d", v)
	}
	if v > math.MaxInt {
		return fmt.Sprintf("is too large, got %d", v)
	}
	return ""
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Validate checks p as a value, the way DecodeProfile checks a document: a
// valid name (built-in or namespace/name), schema version "1.0", finite
// thresholds in [0, 1], and the rules of the safety profile and guards. It
// returns nil or an errs.KindInvalid error listing every problem, for values
// built or changed in code rather than decoded.
func (p *AutomationProfile) Validate() error {
	if p == nil {
		return errs.Invalid("automation profile is missing")
	}
	subject := p.Name
	if subject == "" {
		subject = "automation profile"
	}
	if ps := p.problems(); len(ps) > 0 {
		return errs.InvalidProblems(subject, ps)
	}
	return nil
}

func (p *AutomationProfile) problems() []errs.Problem {
	var ps []errs.Problem
	add := func(path, msg string) { ps = append(ps, errs.Problem{Path: path, Message: msg}) }
	if p.Name == "" {
		add(keyName, "is required")
	} else if why := checkOwnName(p.Name); why != "" {
		add(keyName, why)
	}
	if p.SchemaVersion != SchemaVersion {
		add(keySchemaVersion, fmt.Sprintf("must be %q, got %q", SchemaVersion, p.SchemaVersion))
	}
	for _, g := range Gates {
		v := g.Value(p)
		if why := checkThreshold(v); why != "" {
			add(g.Name, why+", got "+formatFloat(v))
		}
	}
	ps = append(ps, p.Safety.problems(keySafety)...)
	if p.Guards != nil {
		ps = append(ps, p.Guards.problems(keyGuards)...)
	}
	return ps
}

// Validate checks s as a value: retries in [0, 100], costs finite and not
// negative, max_cost_per_plan not above max_total_cost, skill categories
// trimmed, non-blank and without duplicates. It returns nil or an
// errs.KindInvalid error listing every problem.
func (s SafetyProfile) Validate() error {
	if ps := s.problems(""); len(ps) > 0 {
		return errs.InvalidProblems("safety profile", ps)
	}
	return nil
}

func (s SafetyProfile) problems(path string) []errs.Problem {
	var ps []errs.Problem
	add := func(key, msg string) { ps = append(ps, errs.Problem{Path: join(path, key), Message: msg}) }
	if why := checkRetries(int64(s.MaxRetriesPerStep)); why != "" {
		add(keyMaxRetriesPerStep, why)
	}
	if s.MaxCostPerPlan != nil {
		if why := checkCost(*s.MaxCostPerPlan); why != "" {
			add(keyMaxCostPerPlan, why)
		}
	}
	if s.MaxTotalCost != nil {
		if why := checkCost(*s.MaxTotalCost); why != "" {
			add(keyMaxTotalCost, why)
		}
	}
	if s.MaxCostPerPlan != nil && s.MaxTotalCost != nil {
		if why := checkCostOrder(*s.MaxCostPerPlan, *s.MaxTotalCost); why != "" {
			add(keyMaxCostPerPlan, why)
		}
	}
	ps = append(ps, listProblems(join(path, keyAllowedSkillCategories), s.AllowedSkillCategories)...)
	return ps
}

// Validate checks g as a value: a call limit not below zero, a finite cost
// not below zero, tool names trimmed, non-blank and without duplicates.
func (g *AutomationGuard) Validate() error {
	if ps := g.problems(""); len(ps) > 0 {
		return errs.InvalidProblems("guards", ps)
	}
	return nil
}

func (g *AutomationGuard) problems(path string) []errs.Problem {
	var ps []errs.Problem
	add := func(key, msg string) { ps = append(ps, errs.Problem{Path: join(path, key), Message: msg}) }
	if g.MaxToolCallsPerStep != nil {
		if why := checkCount(int64(*g.MaxToolCallsPerStep)); why != "" {
			add(keyMaxToolCallsPerStep, why)
		}
	}
	if g.MaxTotalCost != nil {
		if why := checkCost(*g.MaxTotalCost); why != "" {
			add(keyMaxTotalCost, why)
		}
	}
	ps = append(ps, listProblems(join(path, keyToolAllowlist), g.ToolAllowlist)...)
	ps = append(ps, listProblems(join(path, keyToolDenylist), g.ToolDenylist)...)
	return ps
}

// listProblems checks a list of names as the decoder leaves it: each
// trimmed, none blank, no duplicates.
func listProblems(path string, list []string) []errs.Problem {
	var ps []errs.Problem
	seen := make(map[string]bool, len(list))
	for i, s := range list {
		at := path + "[" + strconv.Itoa(i) + "]"
		switch {
		case strings.TrimSpace(s) == "":
			ps = append(ps, errs.Problem{Path: at, Message: "must not be blank"})
		case strings.TrimSpace(s) != s:
			ps = append(ps, errs.Problem{Path: at, Message: fmt.Sprintf("must not start or end with white space, got %q", s)})
		case seen[s]:
			ps = append(ps, errs.Problem{Path: at, Message: fmt.Sprintf("duplicates %q", s)})
		case strings.IndexByte(s, 0) >= 0:
			ps = append(ps, errs.Problem{Path: at, Message: "must not contain a NUL character"})
		default:
			if r, ok := strictyaml.HiddenIn(s); ok {
				ps = append(ps, errs.Problem{Path: at, Message: fmt.Sprintf("%q holds a control or invisible character (%U): names are matched exactly", s, r)})
			}
		}
		seen[s] = true
	}
	return ps
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
