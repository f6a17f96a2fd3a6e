// Package safetypack holds the safety pack: the one ratified set of
// boundaries that no automation profile can override. It parses the pack
// format strictly, seals and verifies a pack against its companion mastery
// report, loads the pack in force (shipped, system or user level) without
// ever falling back to another one, and evaluates the boundaries: the
// shipped pack's against a Context with SafetyCheck, and those a pack gives
// a predicate of its own against a PolicyContext with Pack.Judge.
//
// Every failure to parse, verify or load is an *errs.Error of KindSafetyPack
// that says exactly what failed. The package never prints, reads flags or
// the environment, or exits.
package safetypack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/jsonread"
	"github.com/agentsctl/agents/internal/safetypack/jcs"
)

// SchemaVersion is the only pack schema_version this release reads.
const SchemaVersion = "1.0.0"

// ShippedPackID is the id of the pack embedded in the binary, in force
// unless the configuration names another.
const ShippedPackID = "core_safety_axes_v1"

// MaxFileSize is the largest pack or mastery report file read.
const MaxFileSize = 1 << 20

// MaxPackIDLength bounds a pack id, which becomes a file name with the
// ".mastery_report.json" suffix.
const MaxPackIDLength = 100

// Pack is a safety pack, format v1. Field order is the order of the file
// ratify writes.
type Pack struct {
	PackID               string            `json:"pack_id"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	SchemaVersion        string            `json:"schema_version"`
	MasteryReportSHA256  string            `json:"mastery_report_sha256"`
	BoundaryIDs          []string          `json:"boundary_ids"`
	BoundaryDescriptions map[string]string `json:"boundary_descriptions"`
	// BoundaryPredicates gives some of the pack's own boundaries (never a
	// shipped one) a predicate over the decision's context; absent from
	// the file and from the seal when there are none.
	BoundaryPredicates map[string]string `json:"boundary_predicates,omitempty"`
	// BoundaryEnforcement gives a boundary with a predicate its mode; a
	// predicate without one is enforced.
	BoundaryEnforcement map[string]Mode `json:"boundary_enforcement,omitempty"`

	// compiled holds the compiled predicates, by boundary id.
	compiled map[string]*compiled
}

// packKeys are the keys of the format, in file order; requiredKeys those
// a pack must have.
var (
	packKeys     = []string{"pack_id", "version", "description", "schema_version", "mastery_report_sha256", "boundary_ids", "boundary_descriptions", "boundary_predicates", "boundary_enforcement"}
	requiredKeys = packKeys[:7]
)

// ShippedBoundaries are the boundaries of the shipped pack, which the
// binary judges itself: no pack may give one a predicate or a mode.
var ShippedBoundaries = []string{NoFabricatedSource, NoHotPathRepair, NoIdentityOverride, NoSilentCorrection, PreserveVersorClosure}

// Clone returns a deep copy of p.
func (p *Pack) Clone() *Pack {
	if p == nil {
		return nil
	}
	c := *p
	c.BoundaryIDs = slices.Clone(p.BoundaryIDs)
	c.BoundaryDescriptions = make(map[string]string, len(p.BoundaryDescriptions))
	for k, v := range p.BoundaryDescriptions {
		c.BoundaryDescriptions[k] = v
	}
	c.BoundaryPredicates = maps.Clone(p.BoundaryPredicates)
	c.BoundaryEnforcement = maps.Clone(p.BoundaryEnforcement)
	// Compiled programs are never changed after compilation; sharing them
	// is safe.
	c.compiled = maps.Clone(p.compiled)
	return &c
}

// HasBoundary reports whether the pack declares the boundary id.
func (p *Pack) HasBoundary(id string) bool { return slices.Contains(p.BoundaryIDs, id) }

// Ratified reports whether the pack carries a seal. It does not verify it;
// see Verify.
func (p *Pack) Ratified() bool { return p.MasteryReportSHA256 != "" }

// Major returns the major version the pack id carries (the digits after
// the final "_v"), or "".
func (p *Pack) Major() string {
	major, _ := packIDMajor(p.PackID)
	return major
}

// Encode returns the pack as ratify writes it: indented JSON in field
// order, description keys sorted, with a trailing newline. Encoding the
// same pack always gives the same bytes.
func (p *Pack) Encode() []byte {
	b, err := canon.JSON(p.fileForm())
	if err != nil {
		panic(fmt.Sprintf("safetypack: encoding a pack: %v", err)) // strings and lists always encode
	}
	return b
}

// fileForm never writes null lists or maps.
func (p *Pack) fileForm() *Pack {
	c := p.Clone()
	if c.BoundaryIDs == nil {
		c.BoundaryIDs = []string{}
	}
	return c
}

// CanonicalContent returns the RFC 8785 encoding of the pack without its
// mastery_report_sha256: what the mastery report seals. It is the file
// form less the seal, so every other field is sealed. Boundary order is
// kept, so reordering the list is a change too; so is any change to a
// predicate or a mode. Predicates and modes are left out when there are
// none, as in the file, so a pack without them seals exactly as packs did
// before they existed.
//
// It is written field by field, keys in the canonical order, rather than
// through encoding/json: a decision under a configured pack checks its
// seal, and the reflection would cost that decision more than the rest of
// the check. A test holds it to the file form (canon.JSON of fileForm,
// less the seal, through jcs.Marshal), so a field added to the format and
// not here fails it.
func (p *Pack) CanonicalContent() []byte {
	var w bytes.Buffer
	w.Grow(512)
	w.WriteString(`{"boundary_descriptions":`)
	writeStringMap(&w, p.BoundaryDescriptions)
	if len(p.BoundaryEnforcement) > 0 {
		w.WriteString(`,"boundary_enforcement":`)
		writeStringMap(&w, p.BoundaryEnforcement)
	}
	w.WriteString(`,"boundary_ids":[`)
	for i, id := range p.BoundaryIDs {
		if i > 0 {
			w.WriteByte(',')
		}
		jcs.WriteString(&w, id)
	}
	w.WriteByte(']')
	if len(p.BoundaryPredicates) > 0 {
		w.WriteString(`,"boundary_predicates":`)
		writeStringMap(&w, p.BoundaryPredicates)
	}
	for _, f := range [...]struct{ key, value string }{
		{"description", p.Description},
		{"pack_id", p.PackID},
		{"schema_version", p.SchemaVersion},
		{"version", p.Version},
	} {
		w.WriteString(`,"` + f.key + `":`)
		jcs.WriteString(&w, f.value)
	}
	w.WriteByte('}')
	return w.Bytes()
}

// writeStringMap writes a map of strings as RFC 8785 writes an object.
func writeStringMap[V ~string](w *bytes.Buffer, m map[string]V) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	jcs.SortKeys(keys)
	w.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			w.WriteByte(',')
		}
		jcs.WriteString(w, k)
		w.WriteByte(':')
		jcs.WriteString(w, string(m[k]))
	}
	w.WriteByte('}')
}

// ContentSHA256 returns the lower-case hex sha256 of CanonicalContent.
func (p *Pack) ContentSHA256() string { return sha256Hex(p.CanonicalContent()) }

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// packIDFmt says what a pack id looks like.
const packIDFmt = "<slug>_v<major>: lower-case letters and digits in words joined by '_' or '-', then _v and the major version (for example acme_safety_v1)"

// CheckPackID returns why id is not a valid pack id, or "" when it is. A
// configured id is checked with it before it becomes part of a path.
func CheckPackID(id string) string {
	switch {
	case id == "":
		return "is empty"
	case strings.Contains(id, "/") || strings.Contains(id, `\`):
		return "must not contain a path separator"
	case strings.Contains(id, ".."):
		return `must not contain ".."`
	case len(id) > MaxPackIDLength:
		return fmt.Sprintf("is %d characters long; at most %d are allowed", len(id), MaxPackIDLength)
	case !isPackID(id):
		return "must have the form " + packIDFmt
	}
	return ""
}

// ParsePack reads a pack file strictly and checks every bound of the
// format. file names the source in problems. All problems are collected; the
// error is an *errs.Error of KindSafetyPack listing them. A pack that parses
// may still be unratified or fail its seal: see Verify.
func ParsePack(data []byte, file string) (*Pack, error) {
	d := newDoc(data, file)
	p := d.parsePack()
	if len(d.problems) > 0 {
		return nil, malformed(file, d.sorted())
	}
	return p, nil
}

func malformed(file string, problems []errs.Problem) *errs.Error {
	msg := fmt.Sprintf("safety pack %s is malformed", file)
	if len(problems) == 1 {
		msg += ": " + problemText(problems[0])
	} else {
		msg += fmt.Sprintf(" (%d problems)", len(problems))
	}
	e := &errs.Error{Kind: errs.KindSafetyPack, Msg: msg, Problems: problems}
	for _, p := range problems {
		if p.Path == "mastery_report_sha256" {
			// The seed's example pack carries "..." here: the hint says
			// what to start from.
			return e.About(errs.AboutPackFile, file, p.Path)
		}
	}
	return e.About(errs.AboutPackFile, file)
}

// problemText is a problem without its file, for a message that already
// names the file.
func problemText(p errs.Problem) string {
	p.File = ""
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s", p.Line, p.String())
	}
	return p.String()
}

func (d *doc) parsePack() *Pack {
	got := map[string]member{}
	if !d.members(packKeys, func(m member) { got[m.key] = m }) {
		return nil
	}
	p := &Pack{}
	for _, k := range requiredKeys {
		if _, ok := got[k]; !ok {
			d.problem(k, 0, "is required")
		}
	}
	if m, ok := got["pack_id"]; ok {
		if s, ok := d.str(m, "pack_id"); ok {
			p.PackID = s
			if why := CheckPackID(s); why != "" {
				d.problem("pack_id", m.line, "%q %s", s, why)
			}
		}
	}
	if m, ok := got["version"]; ok {
		if s, ok := d.str(m, "version"); ok {
			p.Version = s
			d.checkVersion(p, m.line)
		}
	}
	if m, ok := got["description"]; ok {
		if s, ok := d.str(m, "description"); ok {
			p.Description = s
			switch {
			case strings.TrimSpace(s) == "":
				d.problem("description", m.line, "must not be blank")
			case strings.ContainsAny(s, "\n\r"):
				d.problem("description", m.line, "must be one line")
			}
		}
	}
	if m, ok := got["schema_version"]; ok {
		if s, ok := d.str(m, "schema_version"); ok {
			p.SchemaVersion = s
			if s != SchemaVersion {
				d.problem("schema_version", m.line, "must be %q, got %q", SchemaVersion, s)
			}
		}
	}
	if m, ok := got["mastery_report_sha256"]; ok {
		if s, ok := d.str(m, "mastery_report_sha256"); ok {
			p.MasteryReportSHA256 = s
			if s != "" && !isSHA256Hex(s) {
				d.problem("mastery_report_sha256", m.line, `must be "" for a pack not yet ratified, or the 64 lower-case hex digits ratify writes; got %q`, s)
			}
		}
	}
	if m, ok := got["boundary_ids"]; ok {
		p.BoundaryIDs = d.boundaryIDs(m)
	}
	if m, ok := got["boundary_descriptions"]; ok {
		p.BoundaryDescriptions = d.boundaryDescriptions(m, p.BoundaryIDs, p.BoundaryIDs != nil)
	}
	if m, ok := got["boundary_predicates"]; ok {
		p.BoundaryPredicates, p.compiled = d.boundaryPredicates(m, p.BoundaryIDs, p.BoundaryIDs != nil)
	}
	if m, ok := got["boundary_enforcement"]; ok {
		p.BoundaryEnforcement = d.boundaryEnforcement(m, p.BoundaryIDs, p.BoundaryIDs != nil, p.BoundaryPredicates)
	}
	return p
}

// ownBoundary reports why a predicate or a mode may not be given to id,
// or "". shipped says why a boundary of the shipped pack may not take it.
func ownBoundary(id string, ids []string, haveIDs bool, shipped string) string {
	switch {
	case slices.Contains(ShippedBoundaries, id):
		return fmt.Sprintf("%q is a boundary of the shipped pack, which agents judges itself; %s", id, shipped)
	case haveIDs && !slices.Contains(ids, id):
		return fmt.Sprintf("%q is not in boundary_ids", id)
	}
	return ""
}

// ownStrings reads the object m, at path name, whose keys are boundaries
// of the pack's own and whose values are strings: a member that is not
// either is a problem (shipped says why for a boundary of the shipped
// pack), and each that is goes to each, with its path.
func (d *doc) ownStrings(m member, name, shipped string, ids []string, haveIDs bool, each func(om member, path, s string)) {
	members, ok := d.object(m.value, m.start, name)
	if !ok {
		return
	}
	for _, om := range members {
		if d.blankIDs[om.key] {
			continue
		}
		path := name + "." + om.key
		s, ok := d.str(om, path)
		if !ok {
			continue
		}
		if why := ownBoundary(om.key, ids, haveIDs, shipped); why != "" {
			d.problem(path, om.line, "%s", why)
			continue
		}
		each(om, path, s)
	}
}

// boundaryPredicates reads the predicates and compiles each; a predicate
// that does not compile is a problem of the pack.
func (d *doc) boundaryPredicates(m member, ids []string, haveIDs bool) (map[string]string, map[string]*compiled) {
	preds := map[string]string{}
	progs := map[string]*compiled{}
	d.ownStrings(m, "boundary_predicates", "only the pack's own boundaries take a predicate", ids, haveIDs, func(pm member, path, s string) {
		c, err := compilePredicate(s)
		if err != nil {
			d.problem(path, pm.line, "%s", err.Error())
			return
		}
		preds[pm.key] = s
		progs[pm.key] = c
	})
	if len(preds) == 0 {
		return nil, nil
	}
	return preds, progs
}

// boundaryEnforcement reads the modes: each for a boundary of the pack's
// own that has a predicate.
func (d *doc) boundaryEnforcement(m member, ids []string, haveIDs bool, preds map[string]string) map[string]Mode {
	names := make([]string, len(Modes))
	for i, md := range Modes {
		names[i] = string(md)
	}
	out := map[string]Mode{}
	d.ownStrings(m, "boundary_enforcement", "it has no predicate, and a mode may only be given to a boundary with one", ids, haveIDs, func(em member, path, s string) {
		if !slices.Contains(Modes, Mode(s)) {
			d.problem(path, em.line, "must be one of %s, got %q", strings.Join(names, ", "), s)
			return
		}
		if _, ok := preds[em.key]; !ok && !d.hasProblemAt("boundary_predicates."+em.key) {
			d.problem(path, em.line, "boundary %q has no predicate in boundary_predicates; a mode applies to a predicate", em.key)
			return
		}
		out[em.key] = Mode(s)
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

func (d *doc) checkVersion(p *Pack, line int) {
	v := p.Version
	if strings.HasPrefix(v, "v") || strings.HasPrefix(v, "V") {
		d.problem("version", line, "%q must be a semantic version without a leading %q (for example 1.0.0)", v, v[:1])
		return
	}
	vmajor, ok := semverMajor(v)
	if !ok {
		d.problem("version", line, "%q is not a semantic version MAJOR.MINOR.PATCH (for example 1.0.0)", v)
		return
	}
	if major := p.Major(); major != "" && major != vmajor {
		d.problem("version", line, "major version %s does not match the pack id %q, which says _v%s", vmajor, p.PackID, major)
	}
}

func (d *doc) boundaryIDs(m member) []string {
	if len(m.value) == 0 || m.value[0] != '[' {
		d.problem("boundary_ids", m.line, "must be a list of strings, got %s", jsonread.KindOfRaw(m.value))
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(m.value, &items); err != nil {
		d.problem("boundary_ids", m.line, "must be a list of strings: %v", err)
		return nil
	}
	if len(items) == 0 {
		d.problem("boundary_ids", m.line, "must not be empty: a pack declares at least one boundary")
		return []string{}
	}
	ids := make([]string, 0, len(items))
	seen := map[string]int{}
	for i, raw := range items {
		path := fmt.Sprintf("boundary_ids[%d]", i)
		s, ok := d.listString(path, m.line, raw)
		if !ok {
			d.noteBlankID(raw)
			continue
		}
		if first, dup := seen[s]; dup {
			d.problem(path, m.line, "duplicate boundary id %q (also boundary_ids[%d])", s, first)
			continue
		}
		seen[s] = i
		ids = append(ids, s)
	}
	return ids
}

// noteBlankID remembers raw when it is a blank string, so that a key
// naming it is not reported as naming an id boundary_ids does not list.
func (d *doc) noteBlankID(raw json.RawMessage) {
	var s string
	if !isJSONString(raw) || json.Unmarshal(raw, &s) != nil || strings.TrimSpace(s) != "" {
		return
	}
	if d.blankIDs == nil {
		d.blankIDs = map[string]bool{}
	}
	d.blankIDs[s] = true
}

func (d *doc) boundaryDescriptions(m member, ids []string, haveIDs bool) map[string]string {
	members, ok := d.object(m.value, m.start, "boundary_descriptions")
	if !ok {
		return nil
	}
	out := make(map[string]string, len(members))
	for _, dm := range members {
		if d.blankIDs[dm.key] {
			continue
		}
		path := "boundary_descriptions." + dm.key
		s, ok := d.str(dm, path)
		if !ok {
			continue
		}
		if haveIDs && !slices.Contains(ids, dm.key) {
			d.problem(path, dm.line, "describes %q, which is not in boundary_ids", dm.key)
			continue
		}
		if strings.TrimSpace(s) == "" {
			d.problem(path, dm.line, "must not be blank")
		}
		out[dm.key] = s
	}
	for _, id := range ids {
		if _, ok := out[id]; !ok && !hasKey(members, id) {
			d.problem("boundary_descriptions", m.line, "boundary %q has no description", id)
		}
	}
	return out
}

func hasKey(ms []member, key string) bool {
	for _, m := range ms {
		if m.key == key {
			return true
		}
	}
	return false
}
