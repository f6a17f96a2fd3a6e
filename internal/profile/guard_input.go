package profile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/strictyaml"
)

// Stated says which fields of a call were given at all, where their zero
// value would be ambiguous.
type Stated struct{ Tool, Category, Attempt bool }

// The fields of a call, by the keys CheckGuardInput names them with.
const (
	InputTool      = "tool"
	InputCalls     = "calls"
	InputCost      = "cost"
	InputPlanCost  = "plan_cost"
	InputTotalCost = "total_cost"
	InputCategory  = "category"
	InputAttempt   = "attempt"
)

// InputProblem is one thing wrong with a call.
type InputProblem struct {
	// Key is the field it is about, such as InputCalls.
	Key string
	// Name is the field as the caller's names call it: a flag, a JSON key.
	Name string
	// Detail says what is wrong, worded to follow the name: "must be 0 or
	// more, got -1".
	Detail string
}

// String is the problem as one message: "--calls must be 0 or more, got -1".
func (p InputProblem) String() string { return p.Name + " " + p.Detail }

// CheckGuardInput returns what is wrong with the figures of a call, each
// field named as names says (a flag, a JSON key) by its key: a tool that
// is missing, blank or padded; a negative count; a cost that is negative
// or not finite; an attempt before the first; a blank or padded category;
// and last a cost less than the cost it includes (costs nest: the
// invocation's in the plan's, the plan's in all plans').
func CheckGuardInput(in GuardInput, stated Stated, names map[string]string) []InputProblem {
	var out []InputProblem
	add := func(key, format string, a ...any) {
		out = append(out, InputProblem{Key: key, Name: names[key], Detail: fmt.Sprintf(format, a...)})
	}
	switch {
	case !stated.Tool:
		add(InputTool, "is required")
	case strings.TrimSpace(in.Tool) == "":
		add(InputTool, "must not be blank")
	case strings.TrimSpace(in.Tool) != in.Tool:
		add(InputTool, "%q must not start or end with spaces: tools are matched exactly", in.Tool)
	default:
		if r, ok := strictyaml.HiddenIn(in.Tool); ok {
			add(InputTool, "%q holds a control or invisible character (%U): tools are matched exactly, and a reader that drops it would run another tool", in.Tool, r)
		}
	}
	if in.Calls < 0 {
		add(InputCalls, "must be 0 or more, got %d", in.Calls)
	}
	bad := map[string]bool{}
	for _, c := range []struct {
		key   string
		v     float64
		given bool
	}{{InputCost, in.Cost, true}, {InputPlanCost, in.PlanCost, in.HasPlanCost}, {InputTotalCost, in.TotalCost, in.HasTotalCost}} {
		if c.given && (math.IsNaN(c.v) || math.IsInf(c.v, 0) || c.v < 0) {
			add(c.key, "must be a finite number of USD from 0, got %s", strconv.FormatFloat(c.v, 'g', -1, 64))
			bad[c.key] = true
		}
	}
	if stated.Attempt && in.Attempt < 1 {
		add(InputAttempt, "must be 1 or more (the first try is 1), got %d", in.Attempt)
	}
	out = append(out, CheckCategory(in, stated, names)...)
	// How costs nest is judged last, and only between costs that are
	// themselves good: against a negative cost it says nothing new.
	if in.HasPlanCost && !bad[InputPlanCost] && !bad[InputCost] && in.PlanCost < in.Cost {
		add(InputPlanCost, "%s is less than %s %s, but the plan's cost includes this invocation's",
			FormatFloat(in.PlanCost), names[InputCost], FormatFloat(in.Cost))
	}
	planBad := bad[InputPlanCost] || (!in.HasPlanCost && bad[InputCost])
	if in.HasTotalCost && !bad[InputTotalCost] && !planBad && in.TotalCost < in.EffectivePlanCost() {
		add(InputTotalCost, "%s is less than the plan's cost %s, but the total includes every plan's",
			FormatFloat(in.TotalCost), FormatFloat(in.EffectivePlanCost()))
	}
	return out
}

// CheckCategory returns what is wrong with a call's skill category, named
// as names says: blank, padded with spaces, or holding a character one
// cannot see.
func CheckCategory(in GuardInput, stated Stated, names map[string]string) []InputProblem {
	p := InputProblem{Key: InputCategory, Name: names[InputCategory]}
	switch {
	case !stated.Category:
		return nil
	case strings.TrimSpace(in.Category) == "":
		p.Detail = "must not be blank"
	case strings.TrimSpace(in.Category) != in.Category:
		p.Detail = fmt.Sprintf("%q must not start or end with spaces: categories are matched exactly", in.Category)
	default:
		r, ok := strictyaml.HiddenIn(in.Category)
		if !ok {
			return nil
		}
		p.Detail = fmt.Sprintf("%q holds a control or invisible character (%U): categories are matched exactly", in.Category, r)
	}
	return []InputProblem{p}
}

// FormatFloat formats a number in its shortest form with at least one
// decimal (1.0, 0.7, 12.5); one too large or too small to read that way
// (past 1e21, or under 1e-6 but not 0) in its shortest exponent form
// (1e+308), not in hundreds of digits.
func FormatFloat(f float64) string {
	if a := math.Abs(f); a >= 1e21 || a != 0 && a < 1e-6 {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if strings.ContainsAny(s, ".NI") {
		return s
	}
	return s + ".0"
}
