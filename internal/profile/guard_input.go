package profile

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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

// CheckGuardInput returns what is wrong with the figures of a call, each
// field named as names says (a flag, a JSON key) by its key: a tool that
// is missing, blank or padded; a negative count; a cost that is negative
// or not finite, or less than the cost it includes (costs nest: the
// invocation's in the plan's, the plan's in all plans'); an attempt before
// the first; a blank or padded category.
func CheckGuardInput(in GuardInput, stated Stated, names map[string]string) []string {
	var msgs []string
	add := func(format string, a ...any) { msgs = append(msgs, fmt.Sprintf(format, a...)) }
	switch {
	case !stated.Tool:
		add("%s is required", names[InputTool])
	case strings.TrimSpace(in.Tool) == "":
		add("%s must not be blank", names[InputTool])
	case strings.TrimSpace(in.Tool) != in.Tool:
		add("%s %q must not start or end with spaces: tools are matched exactly", names[InputTool], in.Tool)
	}
	if in.Calls < 0 {
		add("%s must be 0 or more, got %d", names[InputCalls], in.Calls)
	}
	for _, c := range []struct {
		key   string
		v     float64
		given bool
	}{{InputCost, in.Cost, true}, {InputPlanCost, in.PlanCost, in.HasPlanCost}, {InputTotalCost, in.TotalCost, in.HasTotalCost}} {
		if c.given && (math.IsNaN(c.v) || math.IsInf(c.v, 0) || c.v < 0) {
			add("%s must be a finite number of USD from 0, got %s", names[c.key], strconv.FormatFloat(c.v, 'g', -1, 64))
		}
	}
	if len(msgs) == 0 {
		if in.HasPlanCost && in.PlanCost < in.Cost {
			add("%s %s is less than %s %s, but the plan's cost includes this invocation's",
				names[InputPlanCost], FormatFloat(in.PlanCost), names[InputCost], FormatFloat(in.Cost))
		}
		if in.HasTotalCost && in.TotalCost < in.EffectivePlanCost() {
			add("%s %s is less than the plan's cost %s, but the total includes every plan's",
				names[InputTotalCost], FormatFloat(in.TotalCost), FormatFloat(in.EffectivePlanCost()))
		}
	}
	if stated.Attempt && in.Attempt < 1 {
		add("%s must be 1 or more (the first try is 1), got %d", names[InputAttempt], in.Attempt)
	}
	return append(msgs, CheckCategory(in, stated, names)...)
}

// CheckCategory returns what is wrong with a call's skill category, named
// as names says: blank, or padded with spaces.
func CheckCategory(in GuardInput, stated Stated, names map[string]string) []string {
	switch {
	case !stated.Category:
	case strings.TrimSpace(in.Category) == "":
		return []string{names[InputCategory] + " must not be blank"}
	case strings.TrimSpace(in.Category) != in.Category:
		return []string{fmt.Sprintf("%s %q must not start or end with spaces: categories are matched exactly", names[InputCategory], in.Category)}
	}
	return nil
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
