package safetypack

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/suggest"
)

// SystemDir is the folder of the system configuration: an organisation's
// lock-down, above the user's own configuration. It is fixed when the
// binary is built, and only then; no flag or environment variable moves
// it. Packagers (and tests) set it with
//
//	go build -ldflags "-X github.com/agentsctl/agents/internal/safetypack.SystemDir=/opt/agents/etc"
//
// When SystemDir/config.yaml names a pack (safety_pack: <id>), the pack
// SystemDir/packs/safety/<id>.json is in force, and a pack the user
// configures must be at least as strict. Everything read there must be
// owned by root and writable by nobody else.
var SystemDir = "/etc/agents"

// SystemConfigFile is the file, in SystemDir, that names the system pack.
const SystemConfigFile = "config.yaml"

// Where a pack in force comes from.
const (
	LevelShipped = "shipped"
	LevelSystem  = "system"
	LevelUser    = "user"
)

// systemOwnerUID is the one owner a system file may have: root.
const systemOwnerUID = 0

// systemKeys are the keys the system configuration may hold.
var systemKeys = []string{ConfigKey}

// systemError is the refusal of a system configuration that cannot be
// trusted or read: the lock-down it may hold is undetermined, so nothing
// runs.
func systemError(format string, a ...any) *errs.Error {
	return errs.New(errs.KindSafetyPack, format, a...).
		WithHint("the system configuration is the administrator's: ask them to fix it (it must be owned by root and writable by root alone)")
}

// loadSystem returns the pack the system configuration in dir names, or
// nil when dir is "", holds no configuration, or names the shipped pack. The pack is
// held to every rule of a configured pack, and to its seal always: the
// development override never applies to it.
func loadSystem(dir string, shipped *Pack) (*Loaded, error) {
	if dir == "" {
		return nil, nil
	}
	if err := checkAbove(dir); err != nil {
		return nil, err
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if link, target := danglingLinkOn(dir); link != "" {
			// A link to a folder that is not there (a volume not
			// mounted, say), the folder itself or one above it, is a
			// lock-down that cannot be read, not the absence of one.
			return nil, systemError("the system configuration folder %s cannot be read: %s is a link to %s, which does not exist", dir, link, target)
		}
		return nil, nil
	case err != nil:
		return nil, systemError("cannot read the system configuration folder %s: %v", dir, unwrapPathError(err))
	case !info.IsDir():
		return nil, systemError("the system configuration folder %s is not a folder", dir)
	}
	if why := untrusted(info); why != "" {
		return nil, systemError("the system configuration folder %s %s", dir, why)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, systemError("cannot open the system configuration folder %s: %v", dir, unwrapPathError(err))
	}
	defer root.Close()
	configFile := filepath.Join(dir, SystemConfigFile)
	data, err := readTrusted(root, SystemConfigFile, configFile)
	if errors.Is(err, fs.ErrNotExist) {
		if target, lerr := root.Readlink(SystemConfigFile); lerr == nil {
			// A link to nothing (a file not yet unpacked, a volume not
			// mounted) is a lock-down that cannot be read, as a folder
			// that is one is: only no file at all means no system level.
			return nil, systemError("the system configuration %s cannot be read: it is a link to %s, which does not exist", configFile, target)
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	id, err := systemPackID(data, configFile)
	switch {
	case err != nil:
		return nil, err
	case id == "":
		// The file is there to name a pack: empty, only comments or an
		// empty mapping, it is more likely cut short than meant to say
		// nothing, and taken for no system level it would lift the
		// lock-down. No file means no system level.
		return nil, errs.New(errs.KindSafetyPack, "the system configuration %s names no safety pack: it is empty or holds no %s", configFile, ConfigKey).
			WithHint("the system configuration is the administrator's: ask them to name the pack in it (%s: <pack id>), or to remove the file if there is to be no system level", ConfigKey)
	case id == ShippedPackID:
		// The shipped pack's id means the shipped pack, at every level:
		// no file passes itself off as it.
		return nil, nil
	}

	for _, d := range []string{"packs", PacksDir} {
		info, err := root.Stat(d)
		if err != nil {
			return nil, systemError("the system configuration %s names safety pack %s, but %s cannot be read: %v",
				configFile, id, filepath.Join(dir, filepath.FromSlash(d)), unwrapPathError(err))
		}
		if why := untrusted(info); why != "" {
			return nil, systemError("the system folder %s %s", filepath.Join(dir, filepath.FromSlash(d)), why)
		}
	}
	packDir := filepath.Join(dir, filepath.FromSlash(PacksDir))
	file := filepath.Join(packDir, id+".json")
	reportFile := filepath.Join(packDir, ReportFileName(id))
	data, err = readTrusted(root, path.Join(PacksDir, id+".json"), file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, systemError("the system safety pack %s is missing: %s does not exist", id, file)
	}
	if err != nil {
		return nil, err
	}
	if _, err := readTrusted(root, path.Join(PacksDir, ReportFileName(id)), reportFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err // a missing report is the seal's problem, below
	}
	p, err := ParsePack(data, file)
	if err != nil {
		return nil, err
	}
	if p.PackID != id {
		return nil, systemError("system safety pack %s carries pack_id %q, but %s names %q", file, p.PackID, configFile, id)
	}
	if missing := MissingBoundaries(p, shipped); len(missing) > 0 {
		return nil, systemError("system safety pack %s is looser than the shipped pack %s: it lacks %s %s",
			id, shipped.PackID, plural(len(missing), "boundary", "boundaries"), strings.Join(missing, ", "))
	}
	st := CheckSeal(p, file, safefile.FS(root), PacksDir, reportFile)
	if !st.Verified() {
		e := sealError(id, file, st, false)
		e.Msg = "system " + e.Msg
		e.Hint = "the system pack is the administrator's: ask them to ratify it again (" + hintNoOverride + ")"
		return nil, e
	}
	return &Loaded{Pack: p, Source: file, ReportFile: reportFile, Report: st.Report, Ratified: true, Level: LevelSystem}, nil
}

// hintNoOverride says, in a hint, that the development override does
// not reach the system pack.
const hintNoOverride = "the development override does not apply to it"

// readTrusted reads a regular file of at most MaxFileSize bytes from root,
// after checking that root owns it and nobody else may write it. A missing
// file is returned as fs.ErrNotExist, unwrapped by nothing.
func readTrusted(root *os.Root, name, shown string) ([]byte, error) {
	// Opened without waiting: a FIFO there is refused, not waited on.
	f, info, err := safefile.OpenIn(root, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fs.ErrNotExist
	}
	var se *safefile.Error
	if errors.As(err, &se) {
		return nil, systemError("%s %s", shown, se.Detail)
	}
	if err != nil {
		return nil, systemError("cannot read %s: %v", shown, unwrapPathError(err))
	}
	defer f.Close()
	if why := untrusted(info); why != "" {
		return nil, systemError("%s %s", shown, why)
	}
	if info.Size() > MaxFileSize {
		return nil, systemError("%s is %d bytes; at most %d are read", shown, info.Size(), MaxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, systemError("cannot read %s: %v", shown, err)
	}
	if len(data) > MaxFileSize {
		return nil, systemError("%s is over %d bytes", shown, MaxFileSize)
	}
	return data, nil
}

// checkAbove refuses a system folder that a user other than root could
// move away or replace: a folder on its way (through any link) owned by
// another user, or writable by its group or others without the sticky
// bit, or a link on its way owned by another user. Whoever may do so could
// put the folder aside, and a missing folder means no system level: the
// lock-down would be lifted by the very users it binds. A folder others
// may write with the sticky bit (/tmp) lets only an entry's owner move
// it, and what is found there is judged on its own.
func checkAbove(dir string) error {
	if !ownersKnown {
		return nil
	}
	// The path is walked as the kernel opens it, not tidied as text: a
	// ".." after a link steps out of the link's target, so "link/../x"
	// may be a folder far from the x beside the link.
	abs, err := safefile.AbsAsOpened(dir)
	if err != nil {
		return systemError("cannot resolve the system configuration folder %s: %v", dir, err)
	}
	// folders judges every folder from the one given up to the root.
	folders := func(from string) error {
		for p := from; ; p = filepath.Dir(p) {
			info, err := os.Lstat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err != nil:
				return systemError("cannot read %s, on the way to the system configuration folder %s: %v", p, dir, unwrapPathError(err))
			default:
				if why := aboveUntrusted(info); why != "" {
					return systemError("the folder %s, on the way to the system configuration folder %s, %s (whoever else may write to it could move the system configuration away)", p, dir, why)
				}
			}
			if filepath.Dir(p) == p {
				return nil
			}
		}
	}
	end, _, err := safefile.WalkLinks(abs, func(link string, info fs.FileInfo, in string) error {
		if uid, _ := ownerUID(info); uid != systemOwnerUID {
			return systemError("the link %s, on the way to the system configuration folder %s, is owned by uid %d, not by root: its owner could point it elsewhere", link, dir, uid)
		}
		return folders(in)
	})
	var se *errs.Error
	switch {
	case errors.As(err, &se):
		return se
	case err != nil:
		return systemError("cannot read the system configuration folder %s: %v", dir, unwrapPathError(err))
	}
	return folders(filepath.Dir(end))
}

// aboveUntrusted says why a folder above the system folder cannot be
// trusted, or "": as untrusted, but a folder of root's with the sticky
// bit may be writable by others, since only root may then move what root
// put there; and in a user namespace, a folder whose owner it does not
// map (root's, outside a sandbox) may stand for root's when neither its
// group nor others may write it, since no one inside may act as its owner.
func aboveUntrusted(info fs.FileInfo) string {
	uid, ok := ownerUID(info)
	switch {
	case ok && uid == systemOwnerUID && info.Mode()&fs.ModeSticky != 0:
		return ""
	case ok && unmappedOwner(uid) && info.Mode().Perm()&0o022 == 0:
		return ""
	}
	return untrusted(info)
}

// untrusted says why a system file or folder cannot be trusted, or "":
// it must be owned by root, and neither its group nor others may write
// it.
func untrusted(info fs.FileInfo) string {
	uid, ok := ownerUID(info)
	if !ok {
		return "cannot be checked for ownership on this system, so it is not trusted"
	}
	if uid != systemOwnerUID {
		return fmt.Sprintf("is owned by uid %d, not by root", uid)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		who := "others"
		switch {
		case perm&0o022 == 0o022:
			who = "its group and others"
		case perm&0o020 != 0:
			who = "its group"
		}
		return fmt.Sprintf("is writable by %s (mode %04o); only root may write it", who, perm)
	}
	return ""
}

// systemPackID reads the system configuration strictly: one YAML
// document, a mapping whose only key is safety_pack, a string holding a
// valid pack id. Any problem is a refusal (KindSafetyPack): a system
// configuration that cannot be read leaves the lock-down undetermined.
func systemPackID(data []byte, file string) (string, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil && !errors.Is(err, io.EOF) {
		return "", systemError("the system configuration %s cannot be read: %v", file, err)
	}
	if root.Kind != 0 && len(root.Content) > 0 {
		m := root.Content[0]
		if m.Kind != yaml.MappingNode {
			return "", systemError("the system configuration %s must be a mapping of keys to values", file)
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i]
			if k.Kind == yaml.ScalarNode && k.Value == ConfigKey {
				continue
			}
			msg := fmt.Sprintf("%s:%d: unknown key %q: the system configuration holds only %s", file, k.Line, k.Value, strings.Join(systemKeys, ", "))
			if s := suggest.Key(k.Value, systemKeys); s != "" {
				msg = fmt.Sprintf("%s:%d: unknown key %q (did you mean %q?)", file, k.Line, k.Value, s)
			}
			return "", systemError("%s", msg)
		}
	}
	id, err := PackIDFromConfig(data, file)
	if err != nil {
		var e *errs.Error
		if errors.As(err, &e) {
			return "", &errs.Error{Kind: errs.KindSafetyPack, Msg: "system configuration: " + e.Msg, Problems: e.Problems,
				Hint: "the system configuration is the administrator's: ask them to fix it"}
		}
		return "", systemError("system configuration %s: %v", file, err)
	}
	return id, nil
}

// atLeastAsStrict lists how p falls short of the system pack sys: a
// boundary it lacks, a predicate it changes or drops, a mode it relaxes.
func atLeastAsStrict(p, sys *Pack) []string {
	var out []string
	for _, id := range sys.BoundaryIDs {
		if !p.HasBoundary(id) {
			out = append(out, fmt.Sprintf("it lacks boundary %s", id))
			continue
		}
		want, ok := sys.BoundaryPredicates[id]
		if !ok {
			continue
		}
		got, ok := p.BoundaryPredicates[id]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("boundary %s has no predicate; the system pack's is %q", id, want))
		case got != want:
			out = append(out, fmt.Sprintf("boundary %s has the predicate %q; the system pack's is %q", id, got, want))
		case p.ModeOf(id).strictness() < sys.ModeOf(id).strictness():
			out = append(out, fmt.Sprintf("boundary %s is in %s mode; the system pack enforces it in %s mode", id, p.ModeOf(id), sys.ModeOf(id)))
		}
	}
	return out
}

// danglingLinkOn returns the first link on the way to dir (dir itself
// included), walked as the kernel opens it, that leads to something that
// does not exist, and where it leads; "" when there is none, and dir is
// simply absent.
func danglingLinkOn(dir string) (link, target string) {
	abs, err := safefile.AbsAsOpened(dir)
	if err != nil {
		return "", ""
	}
	found := errors.New("found")
	_, _, _ = safefile.WalkLinks(abs, func(l string, _ fs.FileInfo, _ string) error {
		if _, err := os.Stat(l); errors.Is(err, fs.ErrNotExist) {
			link = l
			target, _ = os.Readlink(l)
			return found
		}
		return nil
	})
	return link, target
}
