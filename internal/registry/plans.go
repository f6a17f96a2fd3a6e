package registry

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/resolve"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/suggest"
)

// Plan returns the stored plan with the given id or, as git takes commit
// ids, any prefix of an id that only one stored plan's id begins with
// (letters in either case). A prefix that several ids begin with is a
// usage error listing them; an id or prefix that no plan has is not found,
// with the nearest id when one is close. What cannot be an id or the start
// of one is not a plan id at all: invalid input, as a malformed name is.
func (r *Registry) Plan(id string) (*plan.Plan, error) {
	st, err := r.Store()
	if err != nil {
		return nil, err
	}
	full, err := r.planID(st, strings.ToLower(id), id)
	if err != nil {
		return nil, err
	}
	p, stored, err := store.GetDigest(r.ctx(), st.Plans(), full)
	if errs.Is(err, errs.KindNotFound) {
		if ids, lerr := st.Plans().Names(r.ctx(), store.Query{}); lerr == nil {
			return nil, errs.DidYouMean(err, nearestID(full, ids))
		}
	}
	if err == nil && stored != "" {
		if r.readPlans == nil {
			r.readPlans = map[string]readPlan{}
		}
		r.readPlans[p.ID] = readPlan{p.Clone(), stored}
	}
	return p, err
}

// readPlan is a plan as the store gave it, and the sha256 of the bytes it
// was read from.
type readPlan struct {
	plan   *plan.Plan
	digest string
}

// storedDigest returns the sha256 of p's stored form when p is, field for
// field, a plan read from bytes of that digest (which the store writes in
// the stored form), else "": the caller encodes p to know it.
func (r *Registry) storedDigest(p *plan.Plan) string {
	rp, ok := r.readPlans[p.ID]
	if !ok || !reflect.DeepEqual(rp.plan, p) {
		return ""
	}
	return rp.digest
}

// maxCandidates is how many ids an ambiguous prefix lists.
const maxCandidates = 5

// planID returns the id of the one stored plan that id (lower-cased, as
// typed) is or begins.
func (r *Registry) planID(st store.Store, id, typed string) (string, error) {
	if id == "" {
		return "", errs.Usage("the plan id is empty").About(errs.AboutPlan, "")
	}
	if len(id) > plan.IDLength || !plan.IsIDPrefix(id) {
		return "", errs.Invalid("invalid plan id %q: it must be a plan id (26 characters of the plan id alphabet: 0-9 and lower-case letters except i, l, o, u) or the start of one", typed).About(errs.AboutPlan, typed)
	}
	if id[0] > '7' {
		// A plan id's time part starts with 0 to 7: no id starts so.
		return "", errs.Invalid("invalid plan id %q: it is out of range: every plan id starts with a digit from 0 to 7", typed).About(errs.AboutPlan, typed)
	}
	if len(id) == plan.IDLength {
		if why := plan.CheckID(id); why != "" {
			return "", errs.Invalid("invalid plan id %q: it %s", typed, why).About(errs.AboutPlan, typed)
		}
		return id, nil
	}
	ids, err := st.Plans().Names(r.ctx(), store.Query{})
	if err != nil {
		return "", err
	}
	var matches []string
	for _, c := range ids {
		if strings.HasPrefix(c, id) {
			matches = append(matches, c)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		e := errs.NotFound("plan %q not found", typed).About(errs.AboutPlan, typed)
		return "", errs.DidYouMean(e, nearestID(id, ids))
	}
	shown := matches[:min(len(matches), maxCandidates)]
	more := ""
	if n := len(matches) - len(shown); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return "", errs.Usage("plan id %q is ambiguous: %d plans begin with it", typed, len(matches)).
		WithHint("give more of the id: %s%s", strings.Join(shown, ", "), more)
}

// nearestID is the stored id nearest to a mistyped id or prefix: a typing
// slip in its first characters, or in the whole id.
func nearestID(id string, ids []string) string {
	if len(id) < 4 {
		return ""
	}
	cut := make([]string, len(ids))
	for i, c := range ids {
		cut[i] = c[:min(len(id), len(c))]
	}
	s := suggest.Name(id, cut)
	if s == "" {
		return ""
	}
	return suggest.Unique(ids, func(c string) bool { return strings.HasPrefix(c, s) })
}

// ListPlans returns the plans in creation order; with action, only those
// made from it. Each stored document that cannot be read is a warning.
func (r *Registry) ListPlans(actionName string) ([]*plan.Plan, error) {
	if actionName != "" {
		if err := checkActionName(actionName); err != nil {
			return nil, errs.DidYouMean(err, r.NearestAction(actionName))
		}
	}
	all, err := list(r, store.Store.Plans, store.Query{})
	if err != nil {
		return nil, err
	}
	var out []*plan.Plan
	for _, p := range all {
		if actionName == "" || p.Action == actionName {
			out = append(out, p)
		}
	}
	if len(out) == 0 && actionName != "" {
		// No plan of an action that is not registered either: a mistyped
		// name, most likely, which would otherwise look like no plans.
		if st, err := r.Store(); err == nil {
			if _, err := st.Actions().Get(r.ctx(), actionName); errs.Is(err, errs.KindNotFound) {
				msg := fmt.Sprintf("no action is named %s, and no plan was made from one so named", actionName)
				if near := r.NearestAction(actionName); near != "" {
					msg += fmt.Sprintf("; did you mean %s?", near)
				}
				r.warn(msg)
			}
		}
	}
	return out, nil
}

// Choices are what a person chose for a plan, and where it is made: its
// own automation profile and standalone safety profile file (the plan
// level), its action, and the folder its project's agents.yaml is looked
// for from ("" for the working directory).
type Choices struct {
	Action            string
	AutomationProfile string
	SafetyProfileFile string
	// SafetyProfileInput is the content of the safety profile file when
	// the caller has read it already (standard input, which can be read
	// only once); SafetyProfileFile then names it in messages. nil reads
	// SafetyProfileFile.
	SafetyProfileInput []byte
	Project            string
}

// Resolution is a plan as a resolution made or changed it, and what its
// standalone safety profile drops of the safety composed in its
// automation profile (nil when nothing).
type Resolution struct {
	Plan     *plan.Plan
	Loosened []profile.Loosening
	// Unchanged reports a plan resolved again to exactly what it
	// recorded: nothing was written.
	Unchanged bool
}

// request is what a resolution reads its levels for.
type request struct {
	own        plan.Setting
	action     string
	projectDir string
	// explicit is true when the person named projectDir, which trusts an
	// agents.yaml in it whoever owns it.
	explicit bool
	// onlyTrusted uses an agents.yaml only from a folder the person has
	// trusted, as a hook must.
	onlyTrusted bool
}

// resolve reads the four levels of req (the plan's own settings, the
// action from the store, the project's agents.yaml and the global
// config.yaml) and resolves them. A missing action is not found; a
// malformed configuration file invalid input, naming the file.
func (r *Registry) resolve(req request) (*resolve.Result, error) {
	st, err := r.Store()
	if err != nil {
		return nil, err
	}
	g, err := r.Global()
	if err != nil {
		return nil, err
	}
	act := plan.Setting{Level: plan.LevelAction}
	if req.action != "" {
		a, err := st.Actions().Get(r.ctx(), req.action)
		if err != nil {
			return nil, err
		}
		act = resolve.ActionSetting(a)
	}
	proj, err := config.LoadProject(config.ProjectOptions{
		Dir: req.projectDir, Explicit: req.explicit,
		OnlyTrusted: req.onlyTrusted, Trusted: g.TrustedProjects, Digests: g.TrustedDigests,
	})
	if err != nil {
		return nil, err
	}
	if proj.Unpinned {
		r.warn(unpinnedWarning(filepath.Dir(proj.File)))
	}
	levels := []plan.Setting{
		resolve.Own(req.own), act,
		policySetting(plan.LevelProject, proj.File, proj.Policy),
		policySetting(plan.LevelGlobal, g.File, g.Policy),
	}
	return resolve.Resolve(levels, r.RecordedProfile)
}

// policySetting is what a configuration file sets as a level.
func policySetting(level, file string, p config.Policy) plan.Setting {
	return resolve.Setting(level, file, p.AutomationProfile, p.SafetyProfile)
}

// again resolves a plan's levels as they are now: its own recorded
// choices, its action and project as they read today.
func (r *Registry) again(p *plan.Plan) (*resolve.Result, error) {
	return r.resolve(request{own: p.Own(), action: p.Action, projectDir: p.ProjectDir})
}

// own returns what --automation-profile and --safety-profile set at the
// plan level: a profile name, and the content of a standalone safety
// profile file (never its path).
func own(c Choices) (plan.Setting, error) {
	s := plan.Setting{Level: plan.LevelPlan}
	if c.AutomationProfile != "" {
		s.AutomationProfile = &c.AutomationProfile
	}
	if c.SafetyProfileFile != "" {
		var safety profile.SafetyProfile
		var err error
		if c.SafetyProfileInput != nil {
			safety, _, err = profile.DecodeSafetyProfile(c.SafetyProfileInput, c.SafetyProfileFile)
		} else {
			safety, _, err = profile.LoadSafetyProfile(c.SafetyProfileFile)
		}
		if err != nil {
			return s, err
		}
		s.SafetyProfile = &safety
	}
	return s, nil
}

// projectDir returns the absolute folder where the search for agents.yaml
// starts: dir when given, else the working directory as the shell names it
// ($PWD, when it is that folder).
func (r *Registry) projectDir(dir string) (string, error) {
	if dir == "" {
		wd, err := r.src.Getwd()
		if err != nil {
			return "", errs.Wrap(errs.KindInternal, err, "cannot tell the working directory").About(errs.AboutWorkingDir, "")
		}
		// The folder as the shell has it ($PWD), links and all:
		// FindProject goes up both it and where it leads, and refuses
		// when the two find different agents.yaml files, as it does for
		// --project. Going up only where it leads would pass over the
		// agents.yaml of the folder the person is in.
		return wd, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", errs.Wrap(errs.KindUsage, err, "bad project folder %q", dir)
	}
	return abs, nil
}

// choose reads what c chose for the plan level and where the project is.
// A profile chosen that does not exist is refused as the name it is,
// with the nearest one, before anything is resolved.
func (r *Registry) choose(c Choices) (request, error) {
	if err := r.chosen(c.AutomationProfile); err != nil {
		return request{}, err
	}
	o, err := own(c)
	if err != nil {
		return request{}, err
	}
	dir, err := r.projectDir(c.Project)
	if err != nil {
		return request{}, err
	}
	return request{own: o, action: c.Action, projectDir: dir, explicit: c.Project != ""}, nil
}

// chosen checks a profile name chosen for a plan now ("" for none): one
// that does not exist is not found, naming the plan level as resolving
// names the level of a profile that has gone, and suggesting the nearest
// name, as a lookup of the name itself does.
func (r *Registry) chosen(name string) error {
	if name == "" {
		return nil
	}
	_, err := r.Profile(name)
	var e *errs.Error
	if errs.Is(err, errs.KindNotFound) && errors.As(err, &e) {
		c := *e
		c.Msg = fmt.Sprintf("automation profile %q named at the %s level not found", name, plan.LevelPlan)
		return &c
	}
	return err
}

// Resolve answers which profiles a plan made with the choices c would get,
// and why, without making one: the plan it would be, never stored. The
// pack in force is loaded first; a named action must exist.
func (r *Registry) Resolve(c Choices) (Resolution, error) {
	req, res, err := r.resolveChoices(c, c.Action != "")
	if err != nil {
		return Resolution{}, err
	}
	at := r.now()
	// What the pack in force would refuse to record in a plan, resolve
	// refuses too: it answers as plan use would.
	if err := r.judgeResolution(res, &plan.Plan{Action: c.Action, ProjectDir: req.projectDir}, at); err != nil {
		return Resolution{}, err
	}
	p := &plan.Plan{ProjectDir: req.projectDir}
	if _, err := res.Apply(p, at); err != nil {
		return Resolution{}, err
	}
	r.overridden(res)
	return r.loosened(p, res.Loosened()), nil
}

// overridden warns when the standalone safety profile res resolved to
// allows more than one of a less specific level that it overrides: the
// precedence is the specification's, but what the other level spelled out
// is never dropped without a word.
func (r *Registry) overridden(res *resolve.Result) {
	level, l := res.Overridden()
	if len(l) == 0 {
		return
	}
	r.warn(fmt.Sprintf("the standalone safety profile of the %s level overrides the one of the %s level, and is looser: %s",
		res.SafetyLevel, level, profile.LooseningText(l)))
}

// resolveChoices resolves what c chose, under the pack in force, once the
// action c names (when it must name one) is found to exist.
func (r *Registry) resolveChoices(c Choices, needAction bool) (request, *resolve.Result, error) {
	if _, err := r.Pack(); err != nil {
		return request{}, nil, err
	}
	if needAction {
		if _, err := r.Action(c.Action); err != nil {
			return request{}, nil, err
		}
	}
	req, err := r.choose(c)
	if err != nil {
		return request{}, nil, err
	}
	res, err := r.resolve(req)
	return req, res, err
}

// UsePlan makes a plan from the action c names: it resolves the plan's
// profiles now and records both with a snapshot of each. No plan is made
// under a pack that cannot be trusted, nor under a profile that an
// enforced boundary of the pack refuses.
func (r *Registry) UsePlan(c Choices) (Resolution, error) {
	req, res, err := r.resolveChoices(c, true)
	if err != nil {
		return Resolution{}, err
	}
	now := r.now()
	id, err := plan.NewID(now, nil)
	if err != nil {
		return Resolution{}, err
	}
	p := &plan.Plan{ID: id, Action: c.Action, CreatedAt: plan.Timestamp(now), ProjectDir: req.projectDir}
	return r.record(res, p, nil, false, now)
}

// SetPlanProfile chooses the automation profile of the plan id at its own
// level and resolves the plan again, as UsePlan did, recording the new
// answer and snapshots. The plan keeps its own safety profile; the
// action, the project and the global configuration are read as they are
// now. The project is looked for where the plan was made, or from project
// when it is not "": a folder named so, as for UsePlan, trusts the
// agents.yaml in it whoever owns it, and becomes the plan's project folder.
func (r *Registry) SetPlanProfile(id, name, project string) (Resolution, error) {
	if _, err := r.Pack(); err != nil {
		return Resolution{}, err
	}
	p, err := r.Plan(id)
	if err != nil {
		return Resolution{}, err
	}
	if err := r.chosen(name); err != nil {
		return Resolution{}, err
	}
	// The plan resolved again is the version the store vouches for: the
	// record, or, when it was edited since, the last version its history
	// names. One with none (made before plans kept history, or placed by
	// hand) has its action, project and own choices only from a record
	// nobody vouches for: plan record, with the person's word, comes
	// first.
	from, was, why, err := r.vouchedCopy(p)
	if err != nil {
		return Resolution{}, err
	}
	if from == nil {
		return Resolution{}, errs.Invalid("plan %s cannot be resolved again from its record: %v", p.ID, why).
			About(errs.AboutPlanRemake, p.ID, p.Action)
	}
	p = from
	o := p.Own()
	o.AutomationProfile = &name
	req := request{own: o, action: p.Action, projectDir: p.ProjectDir}
	if project != "" {
		if req.projectDir, err = r.projectDir(project); err != nil {
			return Resolution{}, err
		}
		req.explicit = true
		p.ProjectDir = req.projectDir
	}
	res, err := r.resolve(req)
	if err != nil {
		return Resolution{}, err
	}
	return r.record(res, p, was, true, r.now())
}

// RecordPlan resolves plan id again from its own choices (the plan level
// of its trace), its action and its project folder, with the project and
// global configuration as they are now, and records the answer under the
// same id, as SetPlanProfile does without changing a choice. Those come
// from the version the store vouches for: the record, or, when it was
// edited since, the last version its history names, which this restores.
// A plan with none (made before plans kept history, or placed by hand)
// has them only from its record, so the person must vouch for it: without
// vouch that is refused. A plan the store vouches for that resolves to
// what it records is left as it is.
func (r *Registry) RecordPlan(id string, vouch bool) (Resolution, error) {
	if _, err := r.Pack(); err != nil {
		return Resolution{}, err
	}
	p, err := r.Plan(id)
	if err != nil {
		return Resolution{}, err
	}
	from, was, why, err := r.vouchedCopy(p)
	if err != nil {
		return Resolution{}, err
	}
	if from == nil {
		if !vouch {
			return Resolution{}, errs.Usage("refusing to record plan %s afresh from a record the store cannot vouch for without confirmation: %v", p.ID, why).
				About(errs.AboutPlanRemake, p.ID, p.Action)
		}
		from = p.Clone()
	}
	p = from
	res, err := r.resolve(request{own: p.Own(), action: p.Action, projectDir: p.ProjectDir})
	if err != nil {
		return Resolution{}, err
	}
	return r.record(res, p, was, true, r.now())
}

// record judges a resolution about to be recorded in p, then records it:
// its snapshots as objects, then the plan (replacing the stored one when
// update is set). was is the plan as stored, for a plan resolved again,
// whose record is left as it is when the resolution gives it again; nil
// records it whatever it was.
func (r *Registry) record(res *resolve.Result, p, was *plan.Plan, update bool, at time.Time) (Resolution, error) {
	if err := r.judgeResolution(res, p, at); err != nil {
		return Resolution{}, err
	}
	st, err := r.Store()
	if err != nil {
		return Resolution{}, err
	}
	if was != nil {
		// Resolving again to the very record the plan holds (the time
		// it was resolved aside), whose snapshots are all kept, changes
		// nothing, and writes nothing. One with a snapshot gone is
		// recorded afresh, which keeps it again.
		same := p.Clone()
		snaps, err := res.Apply(same, was.ResolvedAt)
		if err != nil {
			return Resolution{}, err
		}
		kept := true
		for _, s := range snaps {
			ok, err := st.HasObject(r.ctx(), s.Digest)
			if err != nil {
				return Resolution{}, err
			}
			kept = kept && ok
		}
		before, _, err1 := plan.Encode(was)
		after, _, err2 := plan.Encode(same)
		if err := errors.Join(err1, err2); err != nil {
			return Resolution{}, err
		}
		if kept && bytes.Equal(before, after) {
			r.overridden(res)
			res := r.loosened(was, res.Loosened())
			res.Unchanged = true
			return res, nil
		}
	}
	if err := r.keep(st, res, p, at); err != nil {
		return Resolution{}, err
	}
	if err := r.profileRecorded(p); err != nil {
		return Resolution{}, err
	}
	put, err := st.Plans().Put(r.ctx(), p, update)
	if err != nil {
		return Resolution{}, err
	}
	r.overridden(res)
	return r.loosened(put.Stored, res.Loosened()), nil
}

// profileRecorded refuses to record p under a version of a custom
// automation profile that the profile's history never recorded: a stored
// file changed outside agents. Every decision under the plan would refuse
// it (see recorded); refusing here says so while the person is there.
func (r *Registry) profileRecorded(p *plan.Plan) error {
	ref := p.AutomationProfile
	if profile.IsBuiltinName(ref.Name) {
		return nil
	}
	held, err := r.heldVersions(ref.Name)
	if err != nil {
		return err
	}
	if !slices.Contains(held, ref.SHA256) {
		return unrecorded(ref.Name, ref.SHA256)
	}
	return nil
}

// RecordedProfile is Profile for a profile a decision or a resolution is
// to be taken under: a custom profile in a store whose documents can be
// edited by hand (store.HandEditable) must also be the version its history
// last recorded. A stored file changed outside agents (by hand, or by a tool
// that went round the store) is refused, as it is for a plan, rather than
// decided under: nothing vouches for it.
func (r *Registry) RecordedProfile(name string) (*profile.AutomationProfile, error) {
	return inStep(r, func() (*profile.AutomationProfile, error) { return r.recordedProfile(name) })
}

// recordedProfile is RecordedProfile, read once.
func (r *Registry) recordedProfile(name string) (*profile.AutomationProfile, error) {
	p, stored, err := r.profile(name, true)
	if err != nil || profile.IsBuiltinName(name) {
		return p, err
	}
	st, err := r.Store()
	if err != nil {
		return nil, err
	}
	if h, ok := st.(store.HandEditable); !ok || !h.HandEditable() {
		// Every document is written with its history, in one
		// transaction: there is nothing to hold it to.
		return p, nil
	}
	// The version in force must be the one the store last wrote: an
	// older version copied back by hand was recorded once, but is not
	// what the profile says now. Only the last event is read, so a long
	// history costs a decision nothing.
	last, ok, err := st.Profiles().LastEvent(r.ctx(), name)
	if err != nil && !errs.Is(err, errs.KindNotFound) {
		return nil, err
	}
	// A put is the store's word only with its version kept as an object,
	// as the store writes every version it puts: a history line alone
	// (appended by hand) vouches for nothing, as for a plan.
	if ok && last.Event == store.EventPut {
		kept, err := st.HasObject(r.ctx(), last.Digest)
		if err != nil {
			return nil, err
		}
		if !kept {
			return nil, errs.Invalid("automation profile %q is not a version the store recorded: the version its history ends with (sha256 %s…) is not kept as an object, so that history line was not written by agents, or the object was removed; nothing is decided or recorded under it", name, last.Digest[:12]).
				About(errs.AboutUnrecordedProfile, name, "")
		}
	}
	if ok && stored != "" && last.Puts(stored) {
		// The file holds, byte for byte, the stored form of the version
		// last put: its content is that version's, with no need to
		// encode it again (most of what a decision would cost).
		return p, nil
	}
	// The bytes differ (a file written in another form, or by hand):
	// what counts is whether the content is the version last put.
	digest, err := profile.Digest(p)
	if err != nil {
		return nil, err
	}
	if !ok || !last.Puts(digest) {
		return nil, unrecorded(name, digest)
	}
	return p, nil
}

// settleReads bounds how many times a reader reads a document and its
// history again when it finds them out of step.
const settleReads = 3

// inStep returns what read returns, read again (up to settleReads times in
// all) while it refuses what it read as invalid, once the store has no
// change in flight (store.Settler). A reader takes no lock, so it can read
// a document and its history either side of a writer's change and find
// them out of step, as an edit by hand would leave them; read again after
// the writer, they agree. What is still out of step once no change is
// being written is refused as before. A failure to settle leaves read's
// own refusal standing.
//
// Only a refusal a change in flight explains is read again (a document out
// of step with its history), and the store is waited on once a process:
// a listing of many edited plans, while another writer holds the lock,
// waits for it once, not once a plan.
func inStep[T any](r *Registry, read func() (T, error)) (T, error) {
	v, err := read()
	for i := 1; i < settleReads && outOfStep(err); i++ {
		st, serr := r.Store()
		if serr != nil {
			return v, err
		}
		if s, ok := st.(store.Settler); ok && !r.settled {
			r.settled = true
			if serr := s.Settle(r.ctx()); serr != nil {
				return v, err
			}
		}
		v, err = read()
	}
	return v, err
}

// outOfStep reports whether err refuses a document that is not the
// version its history ends with, as a reader between a writer's two
// steps finds it.
func outOfStep(err error) bool {
	var e *errs.Error
	if !errs.Is(err, errs.KindInvalid) || !errors.As(err, &e) {
		return false
	}
	switch e.Subject.About {
	case errs.AboutUnrecordedProfile, errs.AboutPlanRecord, errs.AboutPlanRemake:
		return true
	}
	return false
}

// unrecorded is the refusal of a custom profile whose content (digest) is
// not what its history last recorded: a hand edit, or a writer killed
// between putting the file in place and appending its history line. The
// two look the same from the files, so the message names both.
func unrecorded(name, digest string) error {
	return errs.Invalid("automation profile %q is not the version the store last recorded (sha256 %s…): it was changed outside agents (its file edited by hand, or its row changed by SQL), or by a change that was interrupted before it recorded the version, so nothing is decided or recorded under it", name, digest[:12]).
		About(errs.AboutUnrecordedProfile, name, "")
}

// keep writes the resolution into p, after keeping both its snapshots as
// objects, so that whatever the plan cites is kept.
func (r *Registry) keep(st store.Store, res *resolve.Result, p *plan.Plan, at time.Time) error {
	snaps, err := res.Apply(p, at)
	if err != nil {
		return err
	}
	for _, s := range snaps {
		if _, err := st.PutObject(r.ctx(), s.Data); err != nil {
			return err
		}
	}
	return nil
}

// loosened is the resolution of p, warning when its standalone safety
// profile is looser than the safety composed in its automation profile,
// which it replaces whole: the limits that profile set would otherwise be
// lost without a word.
func (r *Registry) loosened(p *plan.Plan, l []profile.Loosening) Resolution {
	if s := plan.LoosenedSummary(p, l); s != "" {
		r.warn(s)
	}
	return Resolution{Plan: p, Loosened: l}
}

// Shown is a plan as plan show tells it: the record, how resolving again
// now would differ (nil when it would not), what its standalone safety
// profile drops, and whether the record agrees with its snapshots.
type Shown struct {
	Plan     *plan.Plan
	Drift    *plan.Drift
	Loosened []profile.Loosening
	Record   plan.RecordCheck
}

// ShowPlan returns the plan id as recorded, resolved again to find its
// drift, and checked against the snapshots it cites. A record that does
// not verify is still shown, with a warning: no decision is taken under
// it.
func (r *Registry) ShowPlan(id string) (Shown, error) {
	if _, err := r.Pack(); err != nil {
		return Shown{}, err
	}
	p, err := r.Plan(id)
	if err != nil {
		return Shown{}, err
	}
	return r.show(p)
}

// ShowPlans is ShowPlan for each of plans (as ListPlans returns them), in
// their order. A listing needs no pack in force: one that is refused
// stops plan show, not the list.
func (r *Registry) ShowPlans(plans []*plan.Plan) ([]Shown, error) {
	return each(plans, r.show)
}

// show is ShowPlan once the pack in force is loaded and the plan read.
func (r *Registry) show(p *plan.Plan) (Shown, error) {
	// A configuration that cannot be read stops the command here, before
	// resolving again would take it for drift.
	if _, err := r.Global(); err != nil {
		return Shown{}, err
	}
	drift, err := r.drift(p)
	if err != nil {
		return Shown{}, err
	}
	loosened := r.loosened(p, r.recordedLoosened(p)).Loosened
	check, err := r.checkRecord(p)
	if err != nil {
		return Shown{}, err
	}
	return Shown{Plan: p, Drift: drift, Loosened: loosened, Record: check}, nil
}

// drift resolves p again and compares the answer with its record. A
// resolution that fails for a reason in the person's data (a profile, the
// action or a configuration file gone or broken) is drift, reported with
// the reason; the record still stands. Anything else fails.
func (r *Registry) drift(p *plan.Plan) (*plan.Drift, error) {
	res, err := r.again(p)
	if err == nil {
		// Resolving again now includes what plan use would refuse: a
		// boundary of the pack in force, in enforce mode, that the
		// profiles resolved now violate is another answer than the
		// record.
		err = r.judgePlan(res, p, r.now())
	}
	if err != nil {
		switch errs.KindOf(err) {
		case errs.KindNotFound, errs.KindInvalid, errs.KindSafetyPack:
			return resolve.DriftError(err), nil
		}
		return nil, err
	}
	now := p.Clone()
	if _, err := res.Apply(now, r.now()); err != nil {
		return nil, err
	}
	return resolve.Diff(p, now), nil
}

// recordedLoosened returns what a recorded plan's standalone safety
// profile drops of the safety composed in the automation profile it
// recorded (read from the snapshot the store keeps), or nil. A snapshot
// that cannot be read leaves the question open: nil, and the other checks
// (drift, the record) speak of it.
func (r *Registry) recordedLoosened(p *plan.Plan) []profile.Loosening {
	if p.SafetyProfile.Source != plan.SourceStandalone {
		return nil
	}
	ap, safety, err := r.recorded(p)
	if err != nil {
		return nil
	}
	return safety.LooserThan(ap.Safety)
}

// samePlan reports whether plans p and q encode to the same bytes.
func samePlan(p, q *plan.Plan) bool {
	if p == nil || q == nil {
		return false
	}
	a, _, err := plan.Encode(p)
	if err != nil {
		return false
	}
	b, _, err := plan.Encode(q)
	return err == nil && bytes.Equal(a, b)
}

// plannedInStep reads plan id and what it recorded, again while they are
// out of step (see inStep).
func (r *Registry) plannedInStep(id string) (*plan.Plan, *profile.AutomationProfile, profile.SafetyProfile, error) {
	type read struct {
		p      *plan.Plan
		ap     *profile.AutomationProfile
		safety profile.SafetyProfile
	}
	got, err := inStep(r, func() (read, error) {
		p, err := r.Plan(id)
		if err != nil {
			return read{}, err
		}
		ap, safety, err := r.recorded(p)
		return read{p, ap, safety}, err
	})
	return got.p, got.ap, got.safety, err
}

// checkRecord verifies the plan's record against the snapshots it cites.
// A record that does not verify is still shown, with why, and a warning:
// the decisions refuse it. One read while a change is written (see
// inStep) is read again before it is said not to verify.
func (r *Registry) checkRecord(p *plan.Plan) (plan.RecordCheck, error) {
	_, _, err := r.recorded(p)
	if outOfStep(err) {
		// The verdict of a read once no change is in flight stands for
		// p only when that read is p: a plan shown is never given the
		// verdict of another version.
		if q, _, _, again := r.plannedInStep(p.ID); again == nil && samePlan(p, q) {
			err = nil
		}
	}
	switch errs.KindOf(err) {
	case errs.KindInvalid, errs.KindNotFound:
		msg := err.Error()
		r.warn(fmt.Sprintf("plan %s does not verify, so no decision is taken under it: %s", p.ID, msg))
		return plan.RecordCheck{Problem: &msg}, nil
	}
	if err != nil {
		return plan.RecordCheck{}, err
	}
	return plan.RecordCheck{Verified: true}, nil
}

// recorded returns the profiles p recorded, from the snapshots the store
// keeps, once its record is checked against them and the version of a
// custom profile it cites is one the store has written under that name
// (in the profile's history): an object planted beside an edited record
// hashes right, but was never that profile.
func (r *Registry) recorded(p *plan.Plan) (*profile.AutomationProfile, profile.SafetyProfile, error) {
	// The record is held to its history first: an edited record is
	// reported as edited, with the history's profile in the hint, not by
	// whichever of its fields no longer matches a snapshot.
	if err := r.planWritten(p); err != nil {
		return nil, profile.SafetyProfile{}, err
	}
	ap, safety, err := r.recordedContent(p)
	if err != nil {
		return nil, profile.SafetyProfile{}, err
	}
	ref := p.AutomationProfile
	if profile.IsBuiltinName(ref.Name) {
		return ap, safety, nil // Recorded held it to the compiled-in content
	}
	held, err := r.heldVersions(ref.Name)
	if err != nil {
		return nil, profile.SafetyProfile{}, err
	}
	if !slices.Contains(held, ref.SHA256) {
		return nil, profile.SafetyProfile{}, errs.Invalid("plan %s cites sha256 %s for automation profile %q, a version the registry never held under that name: its record has been edited, or the profile's history removed", p.ID, ref.SHA256, ref.Name).
			About(errs.AboutPlanRecord, p.ID, ref.Name)
	}
	return ap, safety, nil
}

// planWritten refuses a plan whose record is not the version the store
// last wrote under its id, by the plan's history: a record edited by hand
// (a looser standalone safety profile citing an object planted beside
// it, say) hashes to another digest, and one with no history cannot be
// shown to be the store's at all.
func (r *Registry) planWritten(p *plan.Plan) error {
	_, why, err := r.vouched(p)
	if err != nil {
		return err
	}
	if why != nil {
		return why
	}
	return nil
}

// vouchedCopy returns what plan p is resolved again from: from, a copy of
// the version the store vouches for (see vouched), and was, p as it
// stands when that version is p itself (the record is then left as it is
// if it resolves the same), else nil. from is nil, with why, when the
// store vouches for no version.
func (r *Registry) vouchedCopy(p *plan.Plan) (from, was *plan.Plan, why *errs.Error, err error) {
	v, why, err := r.vouched(p)
	if err != nil || v == nil {
		return nil, nil, why, err
	}
	if why == nil {
		was = p.Clone()
	}
	return v.Clone(), was, why, nil
}

// vouched returns the version of plan p the store vouches for, by its
// history: p when its record is the last version the history names (and
// that version is kept as an object, as the store keeps every version it
// writes), else that last version, read from its object, with why p is
// not it; nil and why when the store vouches for none (no history, a
// history that ends with no version kept). err is a failure to tell.
func (r *Registry) vouched(p *plan.Plan) (v *plan.Plan, why *errs.Error, err error) {
	st, err := r.Store()
	if err != nil {
		return nil, nil, err
	}
	last, ok, err := st.Plans().LastEvent(r.ctx(), p.ID)
	if err != nil && !errs.Is(err, errs.KindNotFound) {
		return nil, nil, err
	}
	// The digest of p's stored form: that of the bytes p was read from
	// when they are the version last put (most of what encoding p again
	// would cost a decision), else p encoded.
	digest := r.storedDigest(p)
	if digest == "" || !last.Puts(digest) {
		data, _, err := plan.Encode(p)
		if err != nil {
			return nil, nil, err
		}
		digest = canon.Digest(data)
	}
	if !ok {
		return nil, errs.Invalid("plan %s has no history in the registry: it was recorded by an agents that kept none, placed by hand, or left by a command killed before it recorded the plan, so what it cites cannot be shown to be what the registry wrote", p.ID).
			About(errs.AboutPlanRemake, p.ID, p.Action), nil
	}
	// The version the store vouches for is the last one its history
	// names, when its objects keep it: a history line alone (appended by
	// hand), or one whose version is gone, is not the store's word, and
	// an earlier version is no stand-in for it (it may be one the person
	// has since replaced with a stricter one).
	kept := false
	if last.Event == store.EventPut {
		if kept, err = st.HasObject(r.ctx(), last.Digest); err != nil {
			return nil, nil, err
		}
	}
	switch {
	case last.Event != store.EventPut:
		return nil, errs.Invalid("plan %s is not a record the registry wrote: its history ends with its %s", p.ID, last.Event).
			About(errs.AboutPlanRemake, p.ID, p.Action), nil
	case !kept:
		return nil, errs.Invalid("plan %s is not a record the registry wrote: the version its history ends with (sha256 %s) is not kept as an object", p.ID, last.Digest).
			About(errs.AboutPlanRemake, p.ID, p.Action), nil
	case last.Digest == digest:
		return p, nil, nil
	}
	obj, err := st.GetObject(r.ctx(), last.Digest)
	if err != nil {
		return nil, nil, err
	}
	orig, err := plan.Decode(obj, "object "+last.Digest)
	if err != nil || orig.ID != p.ID {
		return nil, errs.Invalid("plan %s is not the record the registry wrote, and the version its history ends with (sha256 %s) is not a plan %s", p.ID, last.Digest, p.ID).
			About(errs.AboutPlanRemake, p.ID, p.Action), nil
	}
	return orig, errs.Invalid("plan %s is not the record the registry wrote: its content hashes to sha256 %s, and the last version in its history is %s: it has been edited, or a change to it was killed before it recorded the version", p.ID, digest, last.Digest).
		About(errs.AboutPlanRecord, p.ID, orig.AutomationProfile.Name), nil
}

// recordedContent is recorded without the history: the record checked
// against the snapshots it cites, and nothing more.
func (r *Registry) recordedContent(p *plan.Plan) (*profile.AutomationProfile, profile.SafetyProfile, error) {
	st, err := r.Store()
	if err != nil {
		return nil, profile.SafetyProfile{}, err
	}
	objects := func(digest string) ([]byte, error) { return st.GetObject(r.ctx(), digest) }
	return resolve.Recorded(p, objects, r.Profile)
}

// heldVersions returns the digests of every version the store has written
// under the custom profile name, from its history (none for a name it
// never held).
func (r *Registry) heldVersions(name string) ([]string, error) {
	st, err := r.Store()
	if err != nil {
		return nil, err
	}
	h, err := st.Profiles().History(r.ctx(), name)
	if err != nil && !errs.Is(err, errs.KindNotFound) {
		return nil, err
	}
	var out []string
	for _, e := range h {
		if e.Event == store.EventPut && !slices.Contains(out, e.Digest) {
			out = append(out, e.Digest)
		}
	}
	return out, nil
}
