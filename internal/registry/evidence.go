package registry

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/resolve"
	"github.com/agentsctl/agents/internal/safefile"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/safetypack/jcs"
	"github.com/agentsctl/agents/internal/strictyaml"
)

// Evidence supplies the part of a safety check's context that one source
// of state can prove. A check runs its evidence in order and merges what
// each returns; a new source (the profile history, say) is new Evidence.
type Evidence struct {
	// Name says where the evidence comes from.
	Name string
	// Build returns the fields this source supplies; the rest stay nil.
	Build func(r *Registry) (*sp.Context, error)
}

// Check says what a safety check judges: the context file, the plan or
// the profile it names (any may be ""), and, when not nil, the evidence
// to build the context from, in place of what those choose.
type Check struct {
	ContextFile string
	Plan        string
	Profile     string
	Evidence    []Evidence
	// Registry is the predicate registry; nil means the defaults.
	Registry *sp.SafetyCheck
}

// evidence chooses where the context comes from. With a context file
// alone the file alone speaks; otherwise the current state does, with the
// plan's evidence when a plan is named, and, when both are, the fields the
// file holds over it: a field the file leaves out keeps the state's.
func (c Check) evidence() []Evidence {
	switch {
	case c.Evidence != nil:
		return c.Evidence
	case c.Plan != "" && c.ContextFile != "":
		return []Evidence{BuiltinIdentity(), PlanEvidence(c.Plan), FileEvidence(c.ContextFile)}
	case c.ContextFile != "":
		return []Evidence{FileEvidence(c.ContextFile)}
	case c.Plan != "":
		return []Evidence{BuiltinIdentity(), PlanEvidence(c.Plan)}
	}
	return []Evidence{BuiltinIdentity()}
}

// CheckPack judges every boundary of the pack in force against the
// context c's evidence builds, and, for a pack with predicates of its
// own, those predicates under the profiles the plan or the profile c names
// recorded or is, or else that resolve in the working directory. The
// check observes: a violated boundary is in the verdict, not an error.
// A verdict on what a store another user could have changed holds nothing
// up, so none is given (see trusted).
func (r *Registry) CheckPack(c Check) (sp.Verdict, error) {
	v, err := r.checkPack(c)
	if err != nil {
		return sp.Verdict{}, err
	}
	if err := r.trusted(); err != nil {
		return sp.Verdict{}, err
	}
	return v, nil
}

// checkPack is CheckPack before the store it read is trusted.
func (r *Registry) checkPack(c Check) (sp.Verdict, error) {
	l, err := r.Pack()
	if err != nil {
		return sp.Verdict{}, err
	}
	if c.Profile != "" && !l.Pack.HasPredicates() {
		// The profile named is judged only by a pack's own predicates;
		// without them it must still exist, so that a name mistyped in a
		// CI gate is an error, never a verdict on nothing.
		if _, err := r.Profile(c.Profile); err != nil {
			return sp.Verdict{}, err
		}
	}
	ctx := &sp.Context{}
	for _, e := range c.evidence() {
		part, err := e.Build(r)
		if err != nil {
			return sp.Verdict{}, err
		}
		ctx = ctx.Merge(part)
	}
	check := c.Registry
	if check == nil {
		check = sp.NewSafetyCheck()
	}
	v := check.Check(ctx, l.Pack)
	if l.Pack.HasPredicates() {
		pv, err := r.policyVerdict(l, c)
		if err != nil {
			return sp.Verdict{}, err
		}
		r.warn(pv.Warnings()...)
		v = v.WithPolicy(pv)
	}
	return v, nil
}

// policyVerdict judges the pack's own predicates under the profiles the
// plan or the profile names, or that resolve here. A plan or a profile
// named that does not exist is an error; a context that cannot be had
// otherwise (what resolves here names a profile that is gone) fails
// closed, each predicate violated with the reason.
func (r *Registry) policyVerdict(l *sp.Loaded, c Check) (sp.PolicyVerdict, error) {
	var ctx sp.PolicyContext
	switch {
	case c.Plan != "":
		p, err := r.Plan(c.Plan)
		if err != nil {
			return sp.PolicyVerdict{}, err
		}
		ap, safety, err := r.recorded(p)
		if outOfStep(err) {
			// Read again once no change is in flight (see inStep).
			var again *plan.Plan
			again, ap, safety, err = r.plannedInStep(c.Plan)
			if again != nil {
				p = again
			}
		}
		if err != nil {
			return l.Pack.Unjudged("the plan's recorded profiles cannot be read: " + err.Error()), nil
		}
		ctx = sp.PolicyContext{Profile: ap, Safety: safety, Plan: p}
		if p.Action != "" {
			st, err := r.Store()
			if err != nil {
				return l.Pack.Unjudged("the plan's recorded profiles cannot be read: " + err.Error()), nil
			}
			a, err := st.Actions().Get(r.ctx(), p.Action)
			switch {
			case err == nil:
				ctx.Action = a
			case !errs.Is(err, errs.KindNotFound):
				return l.Pack.Unjudged("the plan's recorded profiles cannot be read: " + err.Error()), nil
			}
		}
	case c.Profile != "":
		p, err := r.Profile(c.Profile)
		if err != nil {
			return sp.PolicyVerdict{}, err
		}
		ctx = sp.PolicyContext{Profile: p, Safety: p.Safety.Clone()}
	default:
		res, err := r.resolveHere()
		if err != nil {
			return l.Pack.Unjudged("no profile resolves here: " + err.Error()), nil
		}
		ctx = sp.PolicyContext{Profile: res.Automation, Safety: res.Safety.Clone()}
	}
	return l.Pack.Judge(ctx), nil
}

// resolveHere resolves the profiles a plan made in the working directory
// would get, with no action and no choice of its own.
func (r *Registry) resolveHere() (*resolve.Result, error) {
	dir, err := r.projectDir("")
	if err != nil {
		return nil, err
	}
	return r.resolve(request{own: plan.Setting{Level: plan.LevelPlan}, projectDir: dir})
}

// FileEvidence reads the context from a JSON file with the context's field
// names: exactly the fields the file holds. A missing file is not found; a
// malformed one is invalid input.
func FileEvidence(file string) Evidence {
	return Evidence{Name: "file " + file, Build: func(*Registry) (*sp.Context, error) {
		data, err := safefile.ReadFile(file, sp.MaxFileSize)
		var se *safefile.Error
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, errs.NotFound("context file %s not found", file).About(errs.AboutContextFile, file)
		case errors.As(err, &se):
			return nil, errs.Invalid("context file %s %s", file, se.Detail).
				WithHint("name a regular file holding a JSON context")
		case errors.Is(err, syscall.ELOOP):
			return nil, strictyaml.LoopError(err, file, "file", "cannot read context file %s", file)
		case strictyaml.NoSuchPath(err, file) != nil:
			return nil, strictyaml.NoSuchPath(err, file).About(errs.AboutContextFile, file)
		case errors.Is(err, fs.ErrPermission):
			return nil, errs.Wrap(errs.KindInvalid, err, "cannot read context file %s", file).
				WithHint("make %s (and the folders on its path) readable by you", file)
		case err != nil:
			return nil, errs.Wrap(errs.KindInternal, err, "cannot read context file %s", file)
		}
		return sp.ParseContext(data, file)
	}}
}

// BuiltinIdentity supplies the identity hashes: "before" is the hash of
// the built-in profiles decoded straight from the embedded files, "after"
// the hash of what a lookup by each built-in name serves. Both hash the
// same canonical form (RFC 8785 of a name → profile object), so any
// difference means a built-in is served other than it ships. The store
// cannot hold a bare built-in name, so today a difference can only come
// from how built-ins are loaded and copied; the check keeps that promise
// honest as the code around it grows.
func BuiltinIdentity() Evidence {
	return Evidence{Name: "built-in identity", Build: func(r *Registry) (*sp.Context, error) {
		before, err := embeddedBuiltinsHash(r.src.Builtins())
		if err != nil {
			return nil, err
		}
		after, err := r.servedBuiltinsHash()
		if err != nil {
			return nil, err
		}
		return &sp.Context{IdentityManifoldHashBefore: &before, IdentityManifoldHashAfter: &after}, nil
	}}
}

// embeddedBuiltinsHash hashes every builtin/*.yaml in fsys, decoded, by the
// name its file gives it.
func embeddedBuiltinsHash(fsys fs.FS) (string, error) {
	files, err := fs.Glob(fsys, "builtin/*.yaml")
	if err != nil {
		return "", errs.Wrap(errs.KindInternal, err, "cannot list the built-in profiles")
	}
	sort.Strings(files)
	set := map[string]*profile.AutomationProfile{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return "", errs.Wrap(errs.KindInternal, err, "cannot read built-in profile %s", f)
		}
		p, _, err := profile.DecodeProfile(data, f)
		if err != nil {
			return "", errs.Wrap(errs.KindInternal, err, "built-in profile %s", f)
		}
		set[strings.TrimSuffix(path.Base(f), ".yaml")] = p
	}
	return hashProfiles(set)
}

// servedBuiltinsHash hashes what a lookup by each built-in name returns.
func (r *Registry) servedBuiltinsHash() (string, error) {
	set := map[string]*profile.AutomationProfile{}
	for _, name := range profile.BuiltinNames {
		p, err := r.Profile(name)
		if err != nil {
			return "", err
		}
		set[name] = p
	}
	return hashProfiles(set)
}

func hashProfiles(set map[string]*profile.AutomationProfile) (string, error) {
	b, err := jcs.Marshal(set)
	if err != nil {
		return "", errs.Wrap(errs.KindInternal, err, "cannot encode the built-in profiles")
	}
	return canon.Digest(b), nil
}

// PlanEvidence supplies the evidence of no_fabricated_source for a plan:
// the digests it cites (its automation profile's snapshot and its safety
// profile's) and those the registry can vouch for.
//
// The automation profile's digest is allowed when it is the digest of the
// profile the plan names: the built-in's as embedded, for a built-in's
// name, or a version the store has written under that name, found in the
// profile's history. A plan edited to cite a version that never was, or
// another profile's (a built-in's included), is caught. The safety
// profile is not a registry entry; its digest is allowed when the store
// holds the snapshot the plan recorded under it. Neither is allowed when
// the plan's record is not the version the store last wrote under its id
// (see planWritten): a record edited to cite an object planted beside it
// rests on nothing the registry wrote.
func PlanEvidence(id string) Evidence {
	return Evidence{Name: "plan " + id, Build: func(r *Registry) (*sp.Context, error) {
		p, err := r.Plan(id)
		if err != nil {
			return nil, err
		}
		st, err := r.Store()
		if err != nil {
			return nil, err
		}
		// A record other than the one the store last wrote, or one that
		// does not hold together (content that does not hash to what it
		// cites, a snapshot missing), rests on nothing the registry can
		// vouch for; one that does is judged digest by digest, against
		// the history. The history is asked first, as for a decision.
		if err := r.planWritten(p); errs.Is(err, errs.KindInvalid) {
			return &sp.Context{CitedSourceSHAs: p.Digests(), AllowedSourceSHAs: []string{}}, nil
		} else if err != nil {
			return nil, err
		}
		if _, _, err := r.recordedContent(p); errs.Is(err, errs.KindInvalid) || errs.Is(err, errs.KindNotFound) {
			return &sp.Context{CitedSourceSHAs: p.Digests(), AllowedSourceSHAs: []string{}}, nil
		} else if err != nil {
			return nil, err // a damaged object or a failing store: no verdict
		}
		var allowed []string
		if name := p.AutomationProfile.Name; profile.IsBuiltinName(name) {
			d, err := r.builtinDigest(name)
			if err != nil {
				return nil, err
			}
			allowed = append(allowed, d)
		} else if allowed, err = r.heldVersions(name); err != nil {
			return nil, err
		}
		ok, err := st.HasObject(r.ctx(), p.SafetyProfile.SHA256)
		if err != nil {
			return nil, err
		}
		if ok && !slices.Contains(allowed, p.SafetyProfile.SHA256) {
			allowed = append(allowed, p.SafetyProfile.SHA256)
		}
		return &sp.Context{CitedSourceSHAs: p.Digests(), AllowedSourceSHAs: allowed}, nil
	}}
}

// builtinDigest returns the digest of the built-in profile name as
// embedded: the digest a plan records for its snapshot.
func (r *Registry) builtinDigest(name string) (string, error) {
	b, err := loadBuiltin(r.src.Builtins(), name)
	if err != nil {
		return "", err
	}
	d, err := profile.Digest(b)
	if err != nil {
		return "", errs.Wrap(errs.KindInternal, err, "built-in profile %s", b.Name)
	}
	return d, nil
}
