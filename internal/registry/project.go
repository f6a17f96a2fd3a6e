package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/agentsctl/agents/internal/atomicfile"
	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
)

// Trust is what trusting (or no longer trusting) a project did.
type Trust struct {
	// Folder is the project's folder as recorded: the one that holds its
	// agents.yaml, or the folder named when it has none yet.
	Folder string
	// File is the project's agents.yaml; "" when it has none yet.
	File string
	// SHA256 is the digest of File's content that trust is pinned to: a
	// hook uses the project's agents.yaml only while it is unchanged. ""
	// when there is no file, or when trust was removed.
	SHA256 string
	// Changed reports whether config.yaml changed.
	Changed bool
	// Config is the home's config.yaml, where trust is recorded.
	Config string
}

// TrustProject records the project in dir (or the working directory, for
// "") as trusted, or no longer trusted, in the home's config.yaml, so that
// a hook that names no profile uses its agents.yaml. The change is made
// under the home's lock and keeps the file's comments; a file that would
// not change is not written.
func (r *Registry) TrustProject(dir string, trust bool) (Trust, error) {
	folder, file, err := r.projectFolder(dir, trust)
	if err != nil {
		return Trust{}, err
	}
	if trust && !utf8.ValidString(folder) {
		// config.yaml is YAML, which holds UTF-8 text only: such a
		// folder cannot be recorded, nor named by a hook's JSON input.
		return Trust{}, errs.Usage("cannot trust the folder %q: its path is not valid UTF-8, which config.yaml cannot hold", folder).
			WithHint("rename the folder (or the folder above it whose name is not UTF-8), then trust it")
	}
	home := r.Home()
	// A change that would change nothing takes no lock: untrusting a
	// project in a home that does not exist yet must not create it.
	if t, done, err := r.trustUnchanged(home, folder, file, trust); done || err != nil {
		return t, err
	}
	unlock, err := r.src.LockHome(r.ctx())
	if err != nil {
		return Trust{}, err
	}
	defer unlock()
	path := config.GlobalPath(home)
	data, err := config.ReadGlobal(home)
	if err != nil {
		return Trust{}, err
	}
	digest := ""
	if trust && file != "" {
		// Read as a hook will read it: a file whose owner or mode a hook
		// refuses could never be used, so trusting it is refused now.
		content, err := config.ReadProjectFile(file)
		if err != nil {
			var e *errs.Error
			if errors.As(err, &e) && e.Subject.About == errs.AboutProjectOwner {
				e.Subject.Detail = errs.DetailTrusting
			}
			return Trust{}, err
		}
		// What is trusted must be what a hook can use: a file the decoder
		// refuses would make every hook there block.
		if _, err := config.DecodeProject(content, file); err != nil {
			var e *errs.Error
			if errors.As(err, &e) && e.Hint == "" {
				err = e.WithHint("fix %s, then trust the project", file)
			}
			return Trust{}, err
		}
		digest = config.Digest(content)
	}
	out, changed, err := config.SetTrusted(data, path, folder, digest, trust)
	if err != nil {
		return Trust{}, err
	}
	if changed {
		if err := atomicfile.WriteFile(path, out, 0o600); err != nil {
			if errors.Is(err, atomicfile.ErrLink) {
				target, _ := filepath.EvalSymlinks(path)
				return Trust{}, errs.Invalid("%s is a link to %s: agents writes files, not links, and left both as they were", path, target).
					WithHint("record the change in %s by hand, or put the file itself in the home", target)
			}
			return Trust{}, errs.Wrap(errs.KindInternal, err, "writing %s", path)
		}
	}
	return Trust{Folder: folder, File: file, SHA256: digest, Changed: changed, Config: path}, nil
}

// trustUnchanged reports, without the home's lock, whether recording trust
// in folder would leave config.yaml as it is; done is false when it would
// change it, or may (the change is then made under the lock, which reads
// the file again).
func (r *Registry) trustUnchanged(home, folder, file string, trust bool) (t Trust, done bool, err error) {
	if trust {
		// Trusting pins the current content, read under the lock.
		return Trust{}, false, nil
	}
	path := config.GlobalPath(home)
	data, err := config.ReadGlobal(home)
	if err != nil {
		return Trust{}, false, err
	}
	if _, changed, err := config.SetTrusted(data, path, folder, "", false); err != nil || changed {
		return Trust{}, false, err
	}
	return Trust{Folder: folder, File: file, Config: path}, true, nil
}

// projectFolder returns the folder a project is recorded by (the nearest
// one, from dir up, that holds an agents.yaml, or dir itself) and its
// agents.yaml. A folder to trust must exist.
func (r *Registry) projectFolder(dir string, mustExist bool) (folder, file string, err error) {
	start, err := r.projectDir(dir)
	if err != nil {
		return "", "", err
	}
	// A folder no longer trusted need not exist, nor be a folder any
	// more: it is recorded by the path as given.
	gone := filepath.Clean(start)
	real, err := filepath.EvalSymlinks(start)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !mustExist:
		return gone, "", nil
	case errors.Is(err, fs.ErrNotExist):
		return "", "", errs.NotFound("folder %s not found", start).About(errs.AboutProjectFolder, start, errs.DetailTrusting)
	case err != nil:
		bad := config.BadProjectPath(start)
		if bad != nil && !mustExist {
			return gone, "", nil
		}
		if bad != nil {
			return "", "", bad
		}
		return "", "", errs.Wrap(errs.KindInternal, err, "resolving %s", start)
	}
	if fi, err := os.Stat(real); err == nil && !fi.IsDir() {
		// A file where a trusted folder was can still be withdrawn; any
		// other file is a mistake (agents.yaml named for its folder, say),
		// not a project that was never trusted.
		if !mustExist {
			g, err := r.Global()
			if err != nil {
				return "", "", err
			}
			if slices.Contains(g.TrustedProjects, gone) {
				return gone, "", nil
			}
		}
		return "", "", config.NotAFolder(start)
	}
	file, err = config.FindProject(real)
	if err != nil {
		return "", "", err
	}
	if file == "" {
		return real, "", nil
	}
	return filepath.Dir(file), file, nil
}

// TrustedProject is one entry of the home's trusted projects.
type TrustedProject struct {
	// Folder is the project's folder.
	Folder string
	// Pinned reports whether trust holds only while the project's
	// agents.yaml is unchanged; an entry written by hand as a plain path
	// is not pinned.
	Pinned bool
	// SHA256 is the digest agents.yaml must have; "" for a pinned project
	// that had none (and must still have none).
	SHA256 string
}

// TrustedProjects lists the folders whose agents.yaml a hook may use, as
// the home's config.yaml records them, warning about each one that is not
// pinned to the content of its agents.yaml.
func (r *Registry) TrustedProjects() ([]TrustedProject, error) {
	g, err := r.Global()
	if err != nil {
		return nil, err
	}
	list := make([]TrustedProject, 0, len(g.TrustedProjects))
	for _, folder := range g.TrustedProjects {
		digest, pinned := g.TrustedDigests[folder]
		if !pinned {
			r.warn(unpinnedWarning(folder))
		}
		list = append(list, TrustedProject{Folder: folder, Pinned: pinned, SHA256: digest})
	}
	return list, nil
}

// unpinnedWarning says that a trusted project's agents.yaml counts
// whatever it says.
func unpinnedWarning(folder string) string {
	return fmt.Sprintf("the project %s is trusted by its folder alone (an entry written by hand, or by an earlier agents), so any %s there counts, even one rewritten since; trust it again to pin it to what it says now", folder, config.ProjectFileName)
}
