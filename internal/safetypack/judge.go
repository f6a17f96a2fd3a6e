package safetypack

import (
	"fmt"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
)

// RulePrefix starts the rule a decision names when a pack boundary refused
// it: pack.<boundary_id>.
const RulePrefix = "pack."

// Judgement is the outcome of one boundary's predicate.
type Judgement struct {
	BoundaryID string `json:"boundary_id"`
	// Mode is what a violation does: enforce, warn or audit.
	Mode Mode `json:"mode"`
	// Upheld is true when the predicate evaluated to true. A predicate
	// that is false, fails, gives something other than a boolean, or is
	// over its cost budget violates the boundary.
	Upheld bool `json:"upheld"`
	// Reason says why, naming the error when evaluation failed.
	Reason string `json:"reason"`
	// Predicate is the expression judged.
	Predicate string `json:"predicate"`
	// Description is the boundary's description in the pack.
	Description string `json:"description"`
}

// Rule returns the rule a decision refused by this boundary names:
// pack.<boundary_id>.
func (j Judgement) Rule() string { return RulePrefix + j.BoundaryID }

// PolicyVerdict is the outcome of every predicate of a pack, in the pack's
// order of boundary_ids.
type PolicyVerdict struct {
	PackID     string      `json:"pack_id"`
	Judgements []Judgement `json:"judgements"`
}

// Violated returns the violated boundaries in the given mode, in the
// pack's order.
func (v PolicyVerdict) Violated(mode Mode) []Judgement {
	var out []Judgement
	for _, j := range v.Judgements {
		if !j.Upheld && j.Mode == mode {
			out = append(out, j)
		}
	}
	return out
}

// Refused reports whether a boundary in enforce mode is violated: the
// decision must be refused.
func (v PolicyVerdict) Refused() bool { return len(v.Violated(ModeEnforce)) > 0 }

// Rule returns the rule of the first violated boundary in enforce mode
// (pack.<boundary_id>), or "" when none is.
func (v PolicyVerdict) Rule() string {
	if e := v.Violated(ModeEnforce); len(e) > 0 {
		return e[0].Rule()
	}
	return ""
}

// Warnings returns one line per violated boundary in warn mode, for a
// command to print on stderr as the decision proceeds.
func (v PolicyVerdict) Warnings() []string {
	var out []string
	for _, j := range v.Violated(ModeWarn) {
		out = append(out, fmt.Sprintf("boundary %s of safety pack %s is violated (warn mode): %s", j.BoundaryID, v.PackID, j.Reason))
	}
	return out
}

// Err returns the refusal of a decision when a boundary in enforce mode is
// violated, or nil: a KindSafetyPack error that names the first violated
// boundary's rule and lists every one.
func (v PolicyVerdict) Err() error {
	enforced := v.Violated(ModeEnforce)
	if len(enforced) == 0 {
		return nil
	}
	first := enforced[0]
	msg := fmt.Sprintf("refused by safety pack %s (rule %s): %s", v.PackID, first.Rule(), first.Reason)
	if len(enforced) > 1 {
		ids := make([]string, 0, len(enforced)-1)
		for _, j := range enforced[1:] {
			ids = append(ids, j.BoundaryID)
		}
		msg += fmt.Sprintf("; also violated: %s", strings.Join(ids, ", "))
	}
	problems := make([]errs.Problem, len(enforced))
	for i, j := range enforced {
		problems[i] = errs.Problem{Path: j.Rule(), Message: j.Reason + " (" + j.Predicate + ")"}
	}
	e := &errs.Error{Kind: errs.KindSafetyPack, Msg: msg, Problems: problems}
	if first.Description != "" {
		return e.WithHint("%s says: %s; choose a profile that upholds it", first.BoundaryID, strings.TrimRight(first.Description, "."))
	}
	return e.WithHint("choose a profile that upholds boundary %s", first.BoundaryID)
}

// HasPredicates reports whether any boundary of the pack has a predicate.
func (p *Pack) HasPredicates() bool { return len(p.BoundaryPredicates) > 0 }

// ModeOf returns the enforcement mode of a boundary with a predicate
// (enforce unless the pack says otherwise), or "" for a boundary without
// one.
func (p *Pack) ModeOf(id string) Mode {
	if _, ok := p.BoundaryPredicates[id]; !ok {
		return ""
	}
	if m, ok := p.BoundaryEnforcement[id]; ok {
		return m
	}
	return ModeEnforce
}

// Judge evaluates every boundary predicate of the pack against ctx, in
// the order of boundary_ids. It fails closed: a context that cannot be
// built, a predicate that fails, gives no boolean or is over budget
// violates its boundary, with the reason. A pack without predicates gives
// an empty verdict.
func (p *Pack) Judge(ctx PolicyContext) PolicyVerdict {
	v := PolicyVerdict{PackID: p.PackID, Judgements: []Judgement{}}
	if !p.HasPredicates() {
		return v
	}
	env, envErr := ctx.env()
	var list, str int
	if envErr == nil {
		list, str = env.sizes()
	}
	for _, id := range p.BoundaryIDs {
		src, ok := p.BoundaryPredicates[id]
		if !ok {
			continue
		}
		j := Judgement{BoundaryID: id, Mode: p.ModeOf(id), Predicate: src, Description: p.BoundaryDescriptions[id]}
		switch c, err := p.program(id); {
		case envErr != nil:
			j.Reason = "not evaluated: the context could not be built: " + envErr.Error()
		case err != nil:
			j.Reason = "not evaluated: the predicate " + err.Error()
		default:
			j.Upheld, j.Reason = c.eval(env, list, str)
		}
		v.Judgements = append(v.Judgements, j)
	}
	return v
}

// Unjudged returns the verdict of a pack whose predicates could not be
// evaluated because their context could not be had: every predicate
// violates its boundary (fail closed), with the reason given.
func (p *Pack) Unjudged(reason string) PolicyVerdict {
	v := PolicyVerdict{PackID: p.PackID, Judgements: []Judgement{}}
	for _, id := range p.BoundaryIDs {
		if src, ok := p.BoundaryPredicates[id]; ok {
			v.Judgements = append(v.Judgements, Judgement{BoundaryID: id, Mode: p.ModeOf(id), Predicate: src,
				Description: p.BoundaryDescriptions[id], Reason: "not evaluated: " + reason})
		}
	}
	return v
}

// program returns the compiled predicate of a boundary, compiling it when
// the pack was built in code rather than parsed.
func (p *Pack) program(id string) (*compiled, error) {
	if c := p.compiled[id]; c != nil && c.source == p.BoundaryPredicates[id] {
		return c, nil
	}
	return compilePredicate(p.BoundaryPredicates[id])
}
