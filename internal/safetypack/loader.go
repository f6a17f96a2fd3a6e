package safetypack

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/packs/safety"
)

// SourceEmbedded is the Source of the pack shipped inside the binary.
const SourceEmbedded = "embedded"

// PacksDir is the folder, under the agents home, of configured packs.
const PacksDir = "packs/safety"

// Loaded is a pack that passed the loader, and how.
type Loaded struct {
	Pack *Pack
	// Source is SourceEmbedded or the path of the pack file.
	Source string
	// ReportFile is where the mastery report was read from.
	ReportFile string
	// Report is the mastery report, when it was present and parsed.
	Report *Report
	// Ratified reports whether the seal verified.
	Ratified bool
	// SealProblems says why the seal did not verify when AllowUnratified
	// let the pack load anyway.
	SealProblems []errs.Problem
	// Level is where the pack in force was chosen: LevelShipped,
	// LevelSystem or LevelUser.
	Level string
	// System is the system pack that bounds a pack the user configured,
	// which is at least as strict; nil when there is none, or when the
	// system pack is itself the pack in force.
	System *Loaded
}

// LoadOptions select and constrain the pack in force.
type LoadOptions struct {
	// Home is the agents home directory.
	Home string
	// PackID is the pack the configuration names; "" means the shipped
	// pack.
	PackID string
	// AllowUnratified skips the refusal of a pack whose seal does not
	// verify, and nothing else. The caller decides it (from the
	// environment) and must say so to the user each time.
	AllowUnratified bool
	// Shipped holds the shipped pack; nil means the embedded one.
	Shipped fs.FS
	// SystemDir is the folder of the system configuration (SystemDir for
	// the real binary); "" means there is no system level.
	SystemDir string
}

// Load returns the pack in force. Three levels can choose it, the
// highest that does winning its place: the shipped pack; the system pack
// that SystemDir/config.yaml names (read from SystemDir/packs/safety/,
// every file owned by root and writable by nobody else, always held to
// its seal); and the pack the user's configuration names, read from
// <home>/packs/safety/<id>.json, which must then be at least as strict as
// the system pack: every boundary of it, with the same predicate and at
// least as strict a mode.
//
// It fails closed: a missing, malformed, unratified or tampered pack, a
// file whose pack_id is not the configured id, a pack that lacks a
// boundary of the shipped pack (or of the system pack), a system
// configuration that cannot be trusted, is refused with a KindSafetyPack
// error saying what failed, and no other pack is tried in its place.
//
// The shipped pack's id always means the shipped pack: configuring it
// chooses the embedded pack, and a file of that name under packs/safety is
// never read, so no file can pass itself off as the ratified shipped pack.
// The user's pack and its report are read only from the home's own
// packs/safety folder: a link in place of packs or packs/safety is
// refused, and each file is opened without waiting and must be a regular
// file inside it.
func Load(opts LoadOptions) (*Loaded, error) {
	shipped, err := LoadShipped(opts.Shipped, opts.AllowUnratified)
	if err != nil {
		return nil, err
	}
	sys, err := loadSystem(opts.SystemDir, shipped.Pack)
	if err != nil {
		return nil, err
	}
	if opts.PackID == "" {
		if sys != nil {
			return sys, nil
		}
		return shipped, nil
	}
	l := shipped
	if opts.PackID != ShippedPackID {
		if l, err = loadConfigured(opts, shipped); err != nil {
			return nil, err
		}
	}
	if sys != nil {
		if gaps := atLeastAsStrict(l.Pack, sys.Pack); len(gaps) > 0 {
			return nil, &errs.Error{
				Kind: errs.KindSafetyPack,
				Msg: fmt.Sprintf("the configured safety pack %s is looser than the system pack %s (%s): %s",
					l.Pack.PackID, sys.Pack.PackID, sys.Source, strings.Join(gaps, "; ")),
				Hint: fmt.Sprintf("keep every boundary of %s in %s, with its predicate and at least its mode, or remove safety_pack from %s to use the system pack",
					sys.Pack.PackID, l.Pack.PackID, filepath.Join(opts.Home, "config.yaml")),
			}
		}
		l.System = sys
	}
	return l, nil
}

// loadConfigured loads the pack the user's configuration names.
func loadConfigured(opts LoadOptions, shipped *Loaded) (*Loaded, error) {
	id := opts.PackID
	if why := CheckPackID(id); why != "" {
		return nil, errs.New(errs.KindSafetyPack, "the configured safety pack id %q %s", id, why).
			WithHint("set safety_pack in %s to a pack id such as acme_safety_v1", filepath.Join(opts.Home, "config.yaml"))
	}
	dir := filepath.Join(opts.Home, filepath.FromSlash(PacksDir))
	file := filepath.Join(dir, id+".json")
	reportFile := filepath.Join(dir, ReportFileName(id))
	root, err := openPacksDir(opts.Home)
	if err != nil {
		return nil, missingPack(id, file, opts.Home, err)
	}
	defer root.Close()
	fsys := safefile.FS(root)
	data, err := readLimited(fsys, id+".json")
	if err != nil {
		return nil, missingPack(id, file, opts.Home, err)
	}
	p, err := ParsePack(data, file)
	if err != nil {
		return nil, err
	}
	if p.PackID != id {
		return nil, errs.New(errs.KindSafetyPack, "safety pack %s carries pack_id %q, but the configuration names %q", file, p.PackID, id).
			WithHint("a configured pack must be stored as <pack_id>.json")
	}
	if missing := MissingBoundaries(p, shipped.Pack); len(missing) > 0 {
		return nil, errs.New(errs.KindSafetyPack, "safety pack %s is looser than the shipped pack %s: it lacks %s %s",
			id, shipped.Pack.PackID, plural(len(missing), "boundary", "boundaries"), strings.Join(missing, ", ")).
			WithHint("a configured pack may only be stricter: keep every boundary of %s and add your own", shipped.Pack.PackID)
	}
	st := CheckSeal(p, file, fsys, ".", reportFile)
	l := &Loaded{Pack: p, Source: file, ReportFile: reportFile, Report: st.Report, Ratified: st.Verified(), Level: LevelUser}
	if !st.Verified() {
		if !opts.AllowUnratified {
			return nil, sealError(id, file, st, true)
		}
		l.SealProblems = st.Problems
	}
	return l, nil
}

// openPacksDir opens <home>/packs/safety, refusing a link (or anything but
// a folder) in place of packs or packs/safety: the pack in force must be
// the home's own, not whatever folder a link points at.
func openPacksDir(home string) (*os.Root, error) {
	h, err := safefile.OpenRoot(home)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	rel := "."
	for _, part := range strings.Split(PacksDir, "/") {
		rel = filepath.Join(rel, part)
		fi, err := h.Lstat(rel)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, &linkedFolder{path: filepath.Join(home, rel), what: safefile.Describe(fi.Mode())}
		}
	}
	return h.OpenRoot(rel)
}

// linkedFolder is a packs folder that is not a folder of the home's own.
type linkedFolder struct{ path, what string }

func (e *linkedFolder) Error() string {
	return fmt.Sprintf("%s is %s, not a folder: the safety pack in force is read only from the home's own folder", e.path, e.what)
}

// LoadShipped returns the shipped pack from fsys (nil: the embedded one),
// verified like any other.
func LoadShipped(fsys fs.FS, allowUnratified bool) (*Loaded, error) {
	if fsys == nil {
		if l, ok := shippedFast(); ok {
			return l, nil
		}
		fsys = safety.FS
	}
	return loadShipped(fsys, allowUnratified)
}

// LoadShippedSlow loads the shipped pack from fsys by parsing it and
// checking its seal, as any pack is; it never takes the fast path. The
// generator of shipped_gen.go uses it.
func LoadShippedSlow(fsys fs.FS) (*Loaded, error) { return loadShipped(fsys, false) }

//go:generate go run ./internal/genshipped

// shippedFast returns the embedded pack from the values compiled in beside
// it (shipped_gen.go) when the embedded files hash to the digests of the
// files those values, and a verified seal, were generated from: the same
// bytes, already verified. A process that only decides under the shipped
// pack then hashes two small files rather than parsing and resealing them.
// Any difference (the files changed without regenerating) takes the full
// path.
func shippedFast() (*Loaded, bool) {
	packData, err := fs.ReadFile(safety.FS, ShippedPackID+".json")
	if err != nil || sha256Hex(packData) != shippedPackFileSHA256 {
		return nil, false
	}
	reportName := ReportFileName(ShippedPackID)
	reportData, err := fs.ReadFile(safety.FS, reportName)
	if err != nil || sha256Hex(reportData) != shippedReportFileSHA256 {
		return nil, false
	}
	p, r := shippedValues()
	return &Loaded{Pack: p, Source: SourceEmbedded, ReportFile: "embedded:" + reportName, Report: r, Ratified: true, Level: LevelShipped}, true
}

func loadShipped(fsys fs.FS, allowUnratified bool) (*Loaded, error) {
	name := ShippedPackID + ".json"
	source := SourceEmbedded
	data, err := readLimited(fsys, name)
	if err != nil {
		return nil, errs.Wrap(errs.KindSafetyPack, unwrapPathError(err), "the shipped safety pack %s is missing", ShippedPackID).
			WithHint("the binary is damaged: reinstall agents")
	}
	p, err := ParsePack(data, "embedded:"+name)
	if err != nil {
		return nil, err
	}
	if p.PackID != ShippedPackID {
		return nil, errs.New(errs.KindSafetyPack, "the shipped safety pack carries pack_id %q, not %q", p.PackID, ShippedPackID)
	}
	st := CheckSeal(p, "embedded:"+name, fsys, ".", "embedded:"+ReportFileName(ShippedPackID))
	l := &Loaded{Pack: p, Source: source, ReportFile: st.ReportFile, Report: st.Report, Ratified: st.Verified(), Level: LevelShipped}
	if !st.Verified() {
		if !allowUnratified {
			return nil, sealError(ShippedPackID, source, st, false)
		}
		l.SealProblems = st.Problems
	}
	return l, nil
}

// MissingBoundaries lists the boundaries of base that p lacks, in base's
// order: what keeps p from being at least as strict as base.
func MissingBoundaries(p, base *Pack) []string {
	var out []string
	for _, id := range base.BoundaryIDs {
		if !p.HasBoundary(id) {
			out = append(out, id)
		}
	}
	return out
}

func missingPack(id, file, home string, err error) error {
	var lf *linkedFolder
	if errors.As(err, &lf) {
		return errs.New(errs.KindSafetyPack, "cannot read the configured safety pack %s: %s", id, lf.Error()).
			WithHint("replace %s with a real folder holding the pack and its mastery report", lf.path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return errs.New(errs.KindSafetyPack, "the configured safety pack %s is missing: %s does not exist", id, file).
			WithHint("put the ratified pack and its mastery report in %s, or remove safety_pack from %s",
				filepath.Dir(file), filepath.Join(home, "config.yaml"))
	}
	e := errs.Wrap(errs.KindSafetyPack, unwrapPathError(err), "cannot read the configured safety pack %s", file)
	if safefile.EscapesRoot(err) {
		e = e.WithHint("the pack in force is read only from %s itself: replace the link with the file it leads to", filepath.Dir(file))
	}
	return e
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// SealError returns the refusal a pack loaded under AllowUnratified would
// have met, or nil when its seal verifies.
func (l *Loaded) SealError() error {
	if l.Ratified {
		return nil
	}
	st := SealStatus{ReportFile: l.ReportFile, Report: l.Report, Problems: l.SealProblems}
	return sealError(l.Pack.PackID, l.Source, st, l.Source != SourceEmbedded)
}

// EnvAllowUnratified names the development override: set to exactly "1"
// in the environment, it lets a pack whose seal does not verify load
// while it is being authored. The command line reads it (see
// LoadOptions.AllowUnratified); the pack only names it.
const EnvAllowUnratified = "AGENTS_ALLOW_UNRATIFIED_SAFETY"
