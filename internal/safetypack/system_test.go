package safetypack

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

// needRoot skips a test that needs files owned by root: only root can
// make them (these tests run as root on the project's machines and CI).
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the system level trusts only files owned by root; run as root to test it")
	}
}

// ratifiedIn writes p into dir/packs/safety and ratifies it there.
func ratifiedIn(t *testing.T, dir string, p *Pack) {
	t.Helper()
	file := filepath.Join(dir, filepath.FromSlash(PacksDir), p.PackID+".json")
	writeFile(t, file, p.Encode())
	if _, err := RatifyFile(file); err != nil {
		t.Fatal(err)
	}
}

// lockdown returns a pack with one boundary of its own, in the given mode.
func lockdown(id string, mode Mode) *Pack {
	p := validPack(id)
	p.BoundaryIDs = append(p.BoundaryIDs, "no_unsafe_outside_sandbox")
	p.BoundaryDescriptions["no_unsafe_outside_sandbox"] = "Unsafe tools run only in a sandbox."
	p.BoundaryPredicates = map[string]string{"no_unsafe_outside_sandbox": `!(safety.allow_unsafe_tools && !safety.require_sandbox)`}
	if mode != "" {
		p.BoundaryEnforcement = map[string]Mode{"no_unsafe_outside_sandbox": mode}
	}
	return p
}

// systemSetup makes a system folder naming the given pack, and a home.
func systemSetup(t *testing.T, p *Pack) (sysDir, home string) {
	t.Helper()
	base := t.TempDir()
	sysDir, home = filepath.Join(base, "etc", "agents"), filepath.Join(base, "home")
	writeFile(t, filepath.Join(sysDir, SystemConfigFile), []byte("safety_pack: "+p.PackID+"\n"))
	ratifiedIn(t, sysDir, p)
	return sysDir, home
}

func TestSystemPackInForce(t *testing.T) {
	needRoot(t)
	sysDir, home := systemSetup(t, lockdown("org_lockdown_v1", ""))
	l, err := Load(LoadOptions{Home: home, SystemDir: sysDir})
	if err != nil {
		t.Fatal(err)
	}
	if l.Pack.PackID != "org_lockdown_v1" || l.Level != LevelSystem || !l.Ratified || l.System != nil {
		t.Errorf("loaded %s at level %q (ratified %v, system %v)", l.Pack.PackID, l.Level, l.Ratified, l.System)
	}
	if want := filepath.Join(sysDir, "packs", "safety", "org_lockdown_v1.json"); l.Source != want {
		t.Errorf("source = %q, want %q", l.Source, want)
	}
	// The predicates came with it.
	if v := l.Pack.Judge(ctxOf(testProfile("full-auto", 0, true, false))); v.Rule() != "pack.no_unsafe_outside_sandbox" {
		t.Errorf("rule = %q", v.Rule())
	}
}

func TestSystemLevelAbsent(t *testing.T) {
	base := t.TempDir()
	for name, dir := range map[string]string{
		"no system level":  "",
		"no folder":        filepath.Join(base, "none"),
		"no configuration": base,
	} {
		l, err := Load(LoadOptions{Home: filepath.Join(base, "home"), SystemDir: dir})
		if err != nil || l.Level != LevelShipped || l.Pack.PackID != ShippedPackID {
			t.Errorf("%s: %v, %+v", name, err, l)
		}
	}
}

// A system configuration that names no pack (emptied, cut short, only
// comments) is refused: taken for no system level, it would lift the
// lock-down it held. Only the absence of the file means no system level.
func TestSystemConfigurationNamingNoPack(t *testing.T) {
	needRoot(t)
	for name, content := range map[string]string{
		"empty":          "",
		"white space":    "\n  \n",
		"comments only":  "# safety_pack: org_lockdown_v1\n",
		"empty mapping":  "{}\n",
		"empty document": "---\n",
	} {
		base := t.TempDir()
		writeFile(t, filepath.Join(base, SystemConfigFile), []byte(content))
		_, err := Load(LoadOptions{Home: filepath.Join(base, "home"), SystemDir: base})
		if !errs.Is(err, errs.KindSafetyPack) || !strings.Contains(err.Error(), "system configuration") {
			t.Errorf("%s: err = %v, want the system configuration refused", name, err)
		}
	}
}

// A system folder that is a link to nothing (a volume not mounted) is a
// lock-down that cannot be read: refused, never taken for no system level.
func TestSystemLevelDanglingLink(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "agents")
	if err := os.Symlink(filepath.Join(base, "not-mounted"), dir); err != nil {
		t.Fatal(err)
	}
	_, err := Load(LoadOptions{Home: filepath.Join(base, "home"), SystemDir: dir})
	if !errs.Is(err, errs.KindSafetyPack) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("err = %v, want the pack refused, naming the link", err)
	}
	// A link to nothing above the folder is the same lock-down unread.
	_, err = Load(LoadOptions{Home: filepath.Join(base, "home"), SystemDir: filepath.Join(dir, "etc", "agents")})
	if !errs.Is(err, errs.KindSafetyPack) || !strings.Contains(err.Error(), dir+" is a link to") {
		t.Errorf("below the link: err = %v, want the pack refused, naming the link", err)
	}
}

// The system level naming the shipped pack means the shipped pack, not a
// file under that name.
func TestSystemNamesTheShippedPack(t *testing.T) {
	needRoot(t)
	impostor := lockdown(ShippedPackID, "")
	sysDir, home := systemSetup(t, impostor)
	l, err := Load(LoadOptions{Home: home, SystemDir: sysDir})
	if err != nil || l.Level != LevelShipped || slices.Contains(l.Pack.BoundaryIDs, "no_unsafe_outside_sandbox") {
		t.Errorf("loaded %+v, %v; want the shipped pack", l, err)
	}
	if err := os.RemoveAll(filepath.Join(sysDir, "packs")); err != nil {
		t.Fatal(err)
	}
	if l, err := Load(LoadOptions{Home: home, SystemDir: sysDir}); err != nil || l.Level != LevelShipped {
		t.Errorf("with no file under its name: %+v, %v; want the shipped pack", l, err)
	}
}

// TestSystemBoundsTheUserPack: the user's configured pack is in force only
// when it is at least as strict as the system pack.
func TestSystemBoundsTheUserPack(t *testing.T) {
	needRoot(t)
	sysDir, home := systemSetup(t, lockdown("org_lockdown_v1", ModeWarn))

	// Stricter: every boundary, the same predicate, a stricter mode, and
	// one more boundary.
	user := lockdown("team_lockdown_v1", ModeEnforce)
	user.BoundaryIDs = append(user.BoundaryIDs, "no_weekend_work")
	user.BoundaryDescriptions["no_weekend_work"] = "Weekends are off."
	ratifiedIn(t, home, user)
	l, err := Load(LoadOptions{Home: home, PackID: "team_lockdown_v1", SystemDir: sysDir})
	if err != nil {
		t.Fatal(err)
	}
	if l.Level != LevelUser || l.System == nil || l.System.Pack.PackID != "org_lockdown_v1" {
		t.Errorf("loaded %s at %q, system %+v", l.Pack.PackID, l.Level, l.System)
	}

	for _, tc := range []struct {
		name string
		edit func(p *Pack)
		want string
	}{
		{"a boundary missing", func(p *Pack) {
			p.BoundaryIDs = p.BoundaryIDs[:len(p.BoundaryIDs)-1]
			delete(p.BoundaryDescriptions, "no_unsafe_outside_sandbox")
			p.BoundaryPredicates, p.BoundaryEnforcement = nil, nil
		}, "it lacks boundary no_unsafe_outside_sandbox"},
		{"the predicate dropped", func(p *Pack) { p.BoundaryPredicates, p.BoundaryEnforcement = nil, nil }, "has no predicate"},
		{"the predicate changed", func(p *Pack) { p.BoundaryPredicates["no_unsafe_outside_sandbox"] = "true" }, `has the predicate "true"`},
		{"the mode relaxed", func(p *Pack) { p.BoundaryEnforcement["no_unsafe_outside_sandbox"] = ModeAudit }, "is in audit mode; the system pack enforces it in warn mode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := lockdown("team_lockdown_v1", ModeWarn)
			tc.edit(p)
			ratifiedIn(t, home, p)
			_, err := Load(LoadOptions{Home: home, PackID: "team_lockdown_v1", SystemDir: sysDir})
			wantKind(t, err, errs.KindSafetyPack, "looser than the system pack org_lockdown_v1", tc.want, "remove safety_pack")
		})
	}
}

// TestSystemPackNoOverride: the development override never reaches the
// system pack, while it still lets an unratified user pack load.
func TestSystemPackNoOverride(t *testing.T) {
	needRoot(t)
	sysDir, home := systemSetup(t, lockdown("org_lockdown_v1", ""))
	file := filepath.Join(sysDir, "packs", "safety", "org_lockdown_v1.json")
	data := strings.Replace(string(readFile(t, file)), "Unsafe tools run only in a sandbox.", "Edited.", 1)
	writeFile(t, file, []byte(data))
	_, err := Load(LoadOptions{Home: home, SystemDir: sysDir, AllowUnratified: true})
	wantKind(t, err, errs.KindSafetyPack, "system safety pack org_lockdown_v1", "content has changed", "does not apply to it")
}

func TestSystemTrust(t *testing.T) {
	needRoot(t)
	for _, tc := range []struct {
		name string
		harm func(t *testing.T, sysDir string)
		want string
	}{
		{"configuration writable by others", func(t *testing.T, d string) { chmod(t, filepath.Join(d, SystemConfigFile), 0o646) }, "config.yaml is writable by others (mode 0646)"},
		{"configuration writable by its group", func(t *testing.T, d string) { chmod(t, filepath.Join(d, SystemConfigFile), 0o664) }, "writable by its group (mode 0664)"},
		{"configuration owned by a user", func(t *testing.T, d string) { chown(t, filepath.Join(d, SystemConfigFile), 1000) }, "config.yaml is owned by uid 1000, not by root"},
		{"folder writable by all", func(t *testing.T, d string) { chmod(t, d, 0o777) }, "writable by its group and others"},
		{"pack folder owned by a user", func(t *testing.T, d string) { chown(t, filepath.Join(d, "packs", "safety"), 1000) }, "safety is owned by uid 1000"},
		{"pack owned by a user", func(t *testing.T, d string) {
			chown(t, filepath.Join(d, "packs", "safety", "org_lockdown_v1.json"), 1000)
		}, "org_lockdown_v1.json is owned by uid 1000"},
		{"report writable by others", func(t *testing.T, d string) {
			chmod(t, filepath.Join(d, "packs", "safety", ReportFileName("org_lockdown_v1")), 0o666)
		}, "mastery_report.json is writable by its group and others"},
		{"unknown key", func(t *testing.T, d string) {
			writeFile(t, filepath.Join(d, SystemConfigFile), []byte("safety_pack: org_lockdown_v1\nsafety_pak: x\n"))
		}, `unknown key "safety_pak" (did you mean "safety_pack"?)`},
		{"not a pack id", func(t *testing.T, d string) {
			writeFile(t, filepath.Join(d, SystemConfigFile), []byte("safety_pack: ../x\n"))
		}, "system configuration"},
		{"pack missing", func(t *testing.T, d string) {
			writeFile(t, filepath.Join(d, SystemConfigFile), []byte("safety_pack: other_v1\n"))
		}, "the system safety pack other_v1 is missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sysDir, home := systemSetup(t, lockdown("org_lockdown_v1", ""))
			tc.harm(t, sysDir)
			_, err := Load(LoadOptions{Home: home, SystemDir: sysDir})
			wantKind(t, err, errs.KindSafetyPack, tc.want)
			// Never a fall back to the shipped pack, nor to the user's.
			_, err = Load(LoadOptions{Home: home, SystemDir: sysDir, AllowUnratified: true})
			wantKind(t, err, errs.KindSafetyPack, tc.want)
		})
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func chown(t *testing.T, path string, uid int) {
	t.Helper()
	if err := os.Chown(path, uid, -1); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestUntrustedWithoutOwner(t *testing.T) {
	// A FileInfo with no stat record cannot be checked, so it is not
	// trusted.
	info := fakeInfo{}
	if why := untrusted(info); !strings.Contains(why, "cannot be checked") {
		t.Errorf("untrusted = %q", why)
	}
}

type fakeInfo struct{ os.FileInfo }

func (fakeInfo) Sys() any { return nil }

// A folder on the way to the system folder that a user other than root
// could write to lets that user move the lock-down away, and a missing
// folder means no system level: it is refused, present or not. So is a
// link on the way that a user owns. A folder of root's with the sticky
// bit (/tmp) is fine: only root may move what root put there.
func TestSystemFolderAbove(t *testing.T) {
	needRoot(t)
	for _, tc := range []struct {
		name string
		// harm changes what is above sysDir (base/opt/etc/agents); it
		// returns the system folder to load.
		harm func(t *testing.T, base, sysDir string) string
		want string // "" when the system pack is in force
	}{
		{"folder above owned by a user", func(t *testing.T, base, d string) string {
			chown(t, filepath.Join(base, "opt"), 1000)
			return d
		}, "the folder " + filepath.Join("BASE", "opt") + ", on the way to the system configuration folder"},
		{"folder above owned by a user, system folder moved away", func(t *testing.T, base, d string) string {
			chown(t, filepath.Join(base, "opt"), 1000)
			if err := os.Rename(d, d+".old"); err != nil {
				t.Fatal(err)
			}
			return d
		}, "is owned by uid 1000, not by root"},
		{"folder above writable by others", func(t *testing.T, base, d string) string {
			chmod(t, filepath.Join(base, "opt"), 0o757)
			return d
		}, "is writable by others (mode 0757)"},
		{"folder above writable by its group", func(t *testing.T, base, d string) string {
			chmod(t, filepath.Join(base, "opt", "etc"), 0o775)
			return d
		}, "is writable by its group (mode 0775)"},
		{"folder above writable by all, with the sticky bit", func(t *testing.T, base, d string) string {
			chmod(t, filepath.Join(base, "opt"), 0o777|os.ModeSticky)
			return d
		}, ""},
		{"link owned by a user", func(t *testing.T, base, d string) string {
			link := filepath.Join(base, "agents")
			symlink(t, d, link)
			if err := os.Lchown(link, 1000, -1); err != nil {
				t.Fatal(err)
			}
			return link
		}, "is owned by uid 1000, not by root: its owner could point it elsewhere"},
		{"link owned by root", func(t *testing.T, base, d string) string {
			link := filepath.Join(base, "agents")
			symlink(t, d, link)
			return link
		}, ""},
		{"folder above the link's target owned by a user", func(t *testing.T, base, d string) string {
			link := filepath.Join(base, "agents")
			symlink(t, d, link)
			chown(t, filepath.Join(base, "opt", "etc"), 1000)
			return link
		}, "the folder " + filepath.Join("BASE", "opt", "etc") + ", on the way"},
		{"folder above reached by .. after a link, owned by a user", func(t *testing.T, base, d string) string {
			// base/to-agents/../agents is d to the kernel, which steps
			// out of the link's target; as tidied text it is
			// base/agents, where nothing is.
			symlink(t, d, filepath.Join(base, "to-agents"))
			chown(t, filepath.Join(base, "opt", "etc"), 1000)
			return base + "/to-agents/../agents"
		}, "the folder " + filepath.Join("BASE", "opt", "etc") + ", on the way"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			sysDir := filepath.Join(base, "opt", "etc", "agents")
			writeFile(t, filepath.Join(sysDir, SystemConfigFile), []byte("safety_pack: org_lockdown_v1\n"))
			ratifiedIn(t, sysDir, lockdown("org_lockdown_v1", ""))
			for _, d := range []string{base, filepath.Join(base, "opt"), filepath.Join(base, "opt", "etc")} {
				chmod(t, d, 0o755)
			}
			dir := tc.harm(t, base, sysDir)
			l, err := Load(LoadOptions{Home: filepath.Join(base, "home"), SystemDir: dir})
			if tc.want == "" {
				if err != nil || l.Level != LevelSystem {
					t.Fatalf("err = %v, want the system pack in force", err)
				}
				return
			}
			wantKind(t, err, errs.KindSafetyPack, strings.ReplaceAll(tc.want, "BASE", base))
		})
	}
}

// A system configuration that is a link to nothing is a lock-down that
// cannot be read, as a system folder that is one is: only no file at all
// means no system level.
func TestSystemConfigurationDanglingLink(t *testing.T) {
	needRoot(t)
	sysDir, home := systemSetup(t, lockdown("org_lockdown_v1", ""))
	file := filepath.Join(sysDir, SystemConfigFile)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("config.d", "current.yaml"), file); err != nil {
		t.Fatal(err)
	}
	_, err := Load(LoadOptions{Home: home, SystemDir: sysDir})
	wantKind(t, err, errs.KindSafetyPack, "config.yaml cannot be read: it is a link to "+filepath.Join("config.d", "current.yaml")+", which does not exist")
}

// TestDanglingLinkOnWalksAsTheKernel: a link to nothing on the way to the
// system folder is found where the kernel would meet it, a ".." after a
// link stepping out of the link's target: tidied as text, a/../x/agents
// would be taken for x/agents beside a, which is simply absent.
func TestDanglingLinkOnWalksAsTheKernel(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"b/c", "x"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"a": "b/c", "b/x": "nowhere"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	link, target := danglingLinkOn(filepath.Join(dir, "a") + "/../x/agents")
	if link != filepath.Join(dir, "b", "x") || target != "nowhere" {
		t.Errorf("a/../x/agents: link %q to %q, want %s to nowhere", link, target, filepath.Join(dir, "b", "x"))
	}
	// The x beside a is a real folder: through it, nothing dangles.
	if link, _ := danglingLinkOn(filepath.Join(dir, "x", "agents")); link != "" {
		t.Errorf("x/agents: link %q, want none", link)
	}
	if link, target := danglingLinkOn(filepath.Join(dir, "b", "x", "agents")); link != filepath.Join(dir, "b", "x") || target != "nowhere" {
		t.Errorf("b/x/agents: link %q to %q", link, target)
	}
}
