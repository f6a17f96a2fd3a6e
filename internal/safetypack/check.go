package safetypack

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"
)

// The boundaries of the shipped pack.
const (
	NoFabricatedSource    = "no_fabricated_source"
	NoHotPathRepair       = "no_hot_path_repair"
	NoIdentityOverride    = "no_identity_override"
	NoSilentCorrection    = "no_silent_correction"
	PreserveVersorClosure = "preserve_versor_closure"
)

// VersorClosureTolerance is the largest versor condition that still counts
// as closed (exclusive).
const VersorClosureTolerance = 1e-6

// ReasonNoPredicate is the reason given for a boundary no predicate judges.
const ReasonNoPredicate = "no predicate registered for boundary"

// Result is the judgement of one boundary.
type Result struct {
	BoundaryID string `json:"boundary_id"`
	Upheld     bool   `json:"upheld"`
	Reason     string `json:"reason"`
	// RuntimeCheckable reports whether the context held the evidence to
	// judge the boundary at run time. When false, Upheld is true by
	// convention and says nothing about the boundary.
	RuntimeCheckable bool     `json:"runtime_checkable"`
	Evidence         []string `json:"evidence"`
	// Mode is the enforcement mode of a boundary the pack gives a
	// predicate; nil for the others.
	Mode *Mode `json:"mode"`
}

// Verdict is the judgement of every boundary of a pack. It observes; it
// refuses nothing.
type Verdict struct {
	PackID string `json:"pack_id"`
	// Results are in boundary-id order.
	Results []Result `json:"results"`
	// Upheld is true when every boundary is upheld.
	Upheld bool `json:"upheld"`
	// ViolatedBoundaries lists the boundaries not upheld, sorted; empty,
	// never nil, when there are none.
	ViolatedBoundaries    []string `json:"violated_boundaries"`
	RuntimeCheckableCount int      `json:"runtime_checkable_count"`
	// Warnings lists the violated boundaries in warn mode, in the pack's
	// order; empty, never nil, when there are none.
	Warnings []string `json:"warnings"`
}

// Enforced returns the violated boundaries a refusal counts, sorted:
// those in enforce mode and those the pack gives no mode (the shipped
// pack's). Boundaries in warn and audit mode are left out.
func (v Verdict) Enforced() []string {
	out := []string{}
	for _, r := range v.Results {
		if !r.Upheld && (r.Mode == nil || *r.Mode == ModeEnforce) {
			out = append(out, r.BoundaryID)
		}
	}
	return out
}

// WithPolicy returns v with the results of the boundaries pv judged
// replaced by its judgements (runtime-checkable, with their mode and the
// predicate as evidence), and the totals and warnings worked out again.
func (v Verdict) WithPolicy(pv PolicyVerdict) Verdict {
	out := v
	out.Results = slices.Clone(v.Results)
	out.Warnings = []string{}
	byID := map[string]Judgement{}
	for _, j := range pv.Judgements {
		byID[j.BoundaryID] = j
		if !j.Upheld && j.Mode == ModeWarn {
			out.Warnings = append(out.Warnings, j.BoundaryID)
		}
	}
	out.ViolatedBoundaries = []string{}
	out.RuntimeCheckableCount = 0
	for i, r := range out.Results {
		if j, ok := byID[r.BoundaryID]; ok {
			mode := j.Mode
			r = Result{BoundaryID: j.BoundaryID, Upheld: j.Upheld, Reason: j.Reason, RuntimeCheckable: true,
				Evidence: []string{"predicate: " + j.Predicate}, Mode: &mode}
			out.Results[i] = r
		}
		if !r.Upheld {
			out.ViolatedBoundaries = append(out.ViolatedBoundaries, r.BoundaryID)
		}
		if r.RuntimeCheckable {
			out.RuntimeCheckableCount++
		}
	}
	out.Upheld = len(out.ViolatedBoundaries) == 0
	return out
}

// Predicate judges one boundary against a context. It receives its own copy
// of the context. The BoundaryID it returns is ignored: the SafetyCheck sets
// it to the boundary the predicate is registered for.
type Predicate func(ctx *Context) Result

// SafetyCheck is a registry of predicates keyed by boundary id. The zero
// value has no predicates; NewSafetyCheck has the five defaults. It is safe
// for concurrent use.
type SafetyCheck struct {
	mu    sync.RWMutex
	preds map[string]Predicate
}

// NewSafetyCheck returns a SafetyCheck with the default predicates of the
// shipped pack's five boundaries.
func NewSafetyCheck() *SafetyCheck {
	c := &SafetyCheck{}
	for id, p := range DefaultPredicates() {
		_ = c.Register(id, p)
	}
	return c
}

// DefaultPredicates returns the predicates of the shipped pack's
// boundaries.
func DefaultPredicates() map[string]Predicate {
	return map[string]Predicate{
		NoFabricatedSource:    CheckNoFabricatedSource,
		NoHotPathRepair:       CheckNoHotPathRepair,
		NoIdentityOverride:    CheckNoIdentityOverride,
		NoSilentCorrection:    CheckNoSilentCorrection,
		PreserveVersorClosure: CheckPreserveVersorClosure,
	}
}

// Register sets the predicate of a boundary, replacing any earlier one.
func (c *SafetyCheck) Register(boundaryID string, p Predicate) error {
	if boundaryID == "" {
		return errors.New("safetypack: register: empty boundary id")
	}
	if p == nil {
		return fmt.Errorf("safetypack: register %q: nil predicate", boundaryID)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.preds == nil {
		c.preds = map[string]Predicate{}
	}
	c.preds[boundaryID] = p
	return nil
}

// Registered returns the boundary ids that have a predicate, sorted.
func (c *SafetyCheck) Registered() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	ids := make([]string, 0, len(c.preds))
	for id := range c.preds {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Check judges every boundary of pack against ctx (nil: an empty context).
// A boundary without a predicate is upheld and not runtime-checkable; a
// predicate that panics violates its boundary, with the panic as reason.
func (c *SafetyCheck) Check(ctx *Context, pack *Pack) Verdict {
	v := Verdict{Results: []Result{}, ViolatedBoundaries: []string{}, Warnings: []string{}}
	if pack == nil {
		v.Upheld = true
		return v
	}
	v.PackID = pack.PackID
	ids := slices.Clone(pack.BoundaryIDs)
	sort.Strings(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		c.mu.RLock()
		p := c.preds[id]
		c.mu.RUnlock()
		r := judge(id, p, ctx)
		v.Results = append(v.Results, r)
		if !r.Upheld {
			v.ViolatedBoundaries = append(v.ViolatedBoundaries, id)
		}
		if r.RuntimeCheckable {
			v.RuntimeCheckableCount++
		}
	}
	v.Upheld = len(v.ViolatedBoundaries) == 0
	return v
}

// judge runs one predicate and makes its result trustworthy: the boundary
// id is the one asked about, evidence is never nil, and a panic becomes a
// violation instead of ending the check.
func judge(id string, p Predicate, ctx *Context) (r Result) {
	if p == nil {
		return Result{BoundaryID: id, Upheld: true, Reason: ReasonNoPredicate, Evidence: []string{}}
	}
	defer func() {
		if rec := recover(); rec != nil {
			r = Result{
				BoundaryID:       id,
				Upheld:           false,
				Reason:           fmt.Sprintf("predicate panicked: %v", rec),
				RuntimeCheckable: true,
				Evidence:         []string{},
			}
		}
	}()
	r = p(ctx.Clone())
	r.Evidence = slices.Clone(r.Evidence)
	if r.Evidence == nil {
		r.Evidence = []string{}
	}
	if r.BoundaryID != id {
		// A predicate bound to the wrong id must not mislabel the verdict;
		// say so rather than hide the predicate's mistake.
		r.Evidence = append(r.Evidence, fmt.Sprintf("predicate reported boundary %q; recorded under %q", r.BoundaryID, id))
		r.BoundaryID = id
	}
	return r
}

// checked is the result for a boundary its evidence decides: upheld, for
// the reason yes, or violated, for the reason no.
func checked(id string, upheld bool, yes, no string, evidence ...string) Result {
	r := Result{BoundaryID: id, Upheld: upheld, Reason: no, RuntimeCheckable: true, Evidence: evidence}
	if upheld {
		r.Reason = yes
	}
	return r
}

// notCheckable is the result for a boundary whose evidence is absent.
func notCheckable(id, reason string) Result {
	return Result{BoundaryID: id, Upheld: true, Reason: reason, Evidence: []string{}}
}

// sourcesReason says how many of the cited sources (distinct) are not
// allowed.
func sourcesReason(fabricated, cited int) string {
	switch {
	case cited == 0:
		return "no source is cited"
	case fabricated == 0 && cited == 1:
		return "the one cited source is allowed"
	case fabricated == 0:
		return fmt.Sprintf("all %d cited sources are allowed", cited)
	case cited == 1:
		return "the one cited source is not allowed"
	case fabricated == 1:
		return fmt.Sprintf("1 of %d cited sources is not allowed", cited)
	}
	return fmt.Sprintf("%d of %d cited sources are not allowed", fabricated, cited)
}

// CheckNoFabricatedSource judges no_fabricated_source: every cited digest
// is among the allowed ones. It needs both lists.
func CheckNoFabricatedSource(ctx *Context) Result {
	const id = NoFabricatedSource
	switch {
	case ctx.CitedSourceSHAs == nil:
		return notCheckable(id, "no cited sources supplied")
	case ctx.AllowedSourceSHAs == nil:
		return notCheckable(id, "no allowed sources supplied")
	}
	var fabricated []string
	for _, s := range ctx.CitedSourceSHAs {
		if !slices.Contains(ctx.AllowedSourceSHAs, s) && !slices.Contains(fabricated, s) {
			fabricated = append(fabricated, s)
		}
	}
	sort.Strings(fabricated)
	r := Result{BoundaryID: id, RuntimeCheckable: true, Evidence: []string{}}
	cited := len(dedupe(ctx.CitedSourceSHAs))
	r.Reason = sourcesReason(len(fabricated), cited)
	if len(fabricated) == 0 {
		r.Upheld = true
		return r
	}
	for _, s := range fabricated {
		r.Evidence = append(r.Evidence, "not allowed: "+s)
	}
	return r
}

func dedupe(s []string) []string {
	c := slices.Clone(s)
	sort.Strings(c)
	return slices.Compact(c)
}

// CheckNoHotPathRepair judges no_hot_path_repair, which no run-time check
// can see: it concerns how the decision code changes, and is kept by review
// and static analysis. It says so instead of claiming the boundary holds.
func CheckNoHotPathRepair(*Context) Result {
	return notCheckable(NoHotPathRepair, "a code-path boundary, kept by static analysis and review; a run-time check cannot judge it")
}

// CheckNoIdentityOverride judges no_identity_override: the identity hash
// is the same before and after. It needs both hashes.
func CheckNoIdentityOverride(ctx *Context) Result {
	const id = NoIdentityOverride
	if ctx.IdentityManifoldHashBefore == nil || ctx.IdentityManifoldHashAfter == nil {
		return notCheckable(id, "identity hashes before and after not both supplied")
	}
	before, after := *ctx.IdentityManifoldHashBefore, *ctx.IdentityManifoldHashAfter
	return checked(id, before == after, "the identity hash is unchanged", "the identity hash changed",
		"before: "+before, "after: "+after)
}

// CheckNoSilentCorrection judges no_silent_correction: the last refusal
// carried a typed error.
func CheckNoSilentCorrection(ctx *Context) Result {
	const id = NoSilentCorrection
	if ctx.LastRefusalWasTyped == nil {
		return notCheckable(id, "whether the last refusal was typed was not supplied")
	}
	typed := *ctx.LastRefusalWasTyped
	return checked(id, typed, "the last refusal carried a typed error", "the last refusal carried no typed error",
		"last_refusal_was_typed: "+strconv.FormatBool(typed))
}

// CheckPreserveVersorClosure judges preserve_versor_closure: the versor
// condition is below VersorClosureTolerance.
func CheckPreserveVersorClosure(ctx *Context) Result {
	const id = PreserveVersorClosure
	if ctx.FieldState == nil || ctx.FieldState.VersorCondition == nil {
		return notCheckable(id, "no versor condition supplied")
	}
	vc := *ctx.FieldState.VersorCondition
	text := strconv.FormatFloat(vc, 'g', -1, 64)
	return checked(id, vc < VersorClosureTolerance, "the versor condition is below 1e-6", "the versor condition "+text+" is not below 1e-6",
		"versor_condition: "+text)
}
