//go:build unix

package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/profile"
	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/postgres/pgtest"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// pgStore is a migrated registry in a schema of its own on the test
// server, for the binary to use.
type pgStore struct {
	t      *testing.T
	url    string // the store URL (its search_path names the schema)
	schema string
	home   string // an agents home for everything but the store
}

func newPgStore(t *testing.T) *pgStore {
	t.Helper()
	u := pgtest.Schema(t)
	p := &pgStore{t: t, url: u, schema: pgtest.SchemaOf(t, u), home: filepath.Join(t.TempDir(), "home")}
	if r := p.run("store", "migrate"); r.code != 0 {
		t.Fatalf("store migrate: exit %d: %s", r.code, r.stderr)
	}
	return p
}

// cmd returns the binary set up to use the store.
func (p *pgStore) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command(agentsBinary(p.t), args...)
	cmd.Env = append(os.Environ(), "AGENTS_HOME="+p.home, "AGENTS_STORE="+p.url, "CI=true", "NO_COLOR=1")
	return cmd
}

// hookRead runs the binary set up to use the store, with env added to
// its environment, on a Claude Code call to Read in the default mode.
func (p *pgStore) hookRead(env []string, args ...string) result {
	p.t.Helper()
	cmd := p.cmd(args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(claudeRead)
	r, err := runCmd(cmd)
	if err != nil {
		p.t.Fatal(err)
	}
	return r
}

// claudeRead is Claude Code's call to Read /x in the default mode.
const claudeRead = `{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Read","tool_input":{"file_path":"/x"}}`

func (p *pgStore) run(args ...string) result {
	p.t.Helper()
	r, err := runCmd(p.cmd(args...))
	if err != nil {
		p.t.Fatal(err)
	}
	return r
}

// conn connects to the test server as its administrator, to look at the
// registry's tables from outside.
func (p *pgStore) conn() *pgx.Conn {
	p.t.Helper()
	c, err := pgx.Connect(context.Background(), pgtest.URL(p.t))
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// backend reads the registry's tables directly, for the contention check.
func (p *pgStore) backend() contentionBackend {
	t := p.t
	c := p.conn()
	ctx := context.Background()
	s := p.schema
	return contentionBackend{
		cmd: p.cmd,
		history: func(name string) ([]historyEvent, bool) {
			rows, err := c.Query(ctx, "SELECT event, digest, at FROM "+s+".history WHERE collection = 'profiles' AND name = $1 ORDER BY seq", name)
			if err != nil {
				t.Fatal(err)
			}
			events, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (historyEvent, error) {
				var e historyEvent
				err := r.Scan(&e.Event, &e.Digest, &e.Time)
				return e, err
			})
			if err != nil {
				t.Fatal(err)
			}
			return events, false
		},
		object: func(digest string) ([]byte, error) {
			var data []byte
			err := c.QueryRow(ctx, "SELECT data FROM "+s+".objects WHERE digest = $1", digest).Scan(&data)
			return data, err
		},
		stored: func(name string) *profile.AutomationProfile {
			var data []byte
			err := c.QueryRow(ctx, "SELECT content FROM "+s+".profiles WHERE name = $1", name).Scan(&data)
			if err == pgx.ErrNoRows {
				return nil
			}
			if err != nil {
				t.Fatal(err)
			}
			pr, _, err := profile.DecodeProfile(data, name)
			if err != nil {
				t.Fatalf("stored %s does not parse: %v", name, err)
			}
			return pr
		},
		audit: func() {
			// Every held profile's version is the last put of its history.
			var n int
			err := c.QueryRow(ctx, `SELECT count(*) FROM `+s+`.profiles p WHERE p.digest IS DISTINCT FROM
				(SELECT h.digest FROM `+s+`.history h WHERE h.collection = 'profiles' AND h.name = p.name ORDER BY seq DESC LIMIT 1)`).Scan(&n)
			if err != nil || n != 0 {
				t.Errorf("%d profiles are not the last version their history records (%v)", n, err)
			}
		},
	}
}

// TestStressPostgresContention is TestStressContention against one
// PostgreSQL database: separate agents processes, each with its own
// connection, and the history table replayed serially.
func TestStressPostgresContention(t *testing.T) {
	runContention(t, newPgStore(t).backend())
}

// TestPostgresKilledMidTransaction terminates the connection of a writer
// that has written its object and row and is about to log its history
// event: it must exit 75, naming the server, and leave nothing of its
// change behind.
func TestPostgresKilledMidTransaction(t *testing.T) {
	p := newPgStore(t)
	src := t.TempDir()
	v1, _ := profileFile(t, src, "v1.yaml", "name: acme/x\ndescription: one\nauto_apply: 0.5\n")
	v2, _ := profileFile(t, src, "v2.yaml", "name: acme/x\ndescription: two\nauto_apply: 0.7\n")
	if r := p.run("automation-profile", "add", "-c", v1); r.code != 0 {
		t.Fatalf("add: %d %s", r.code, r.stderr)
	}
	ctx := context.Background()
	admin := p.conn()
	count := func(sql string) int {
		var n int
		if err := admin.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	objects := count("SELECT count(*) FROM " + p.schema + ".objects")

	// Hold the history row the writer will insert, so it waits there,
	// inside its transaction, with its other writes done.
	blocker := p.conn()
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	d := sha256Hex([]byte("blocker"))
	if _, err := tx.Exec(ctx, "INSERT INTO "+p.schema+".objects VALUES ($1, 'blocker'::bytea)", d); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO "+p.schema+".history (collection, name, seq, event, digest, at) VALUES ('profiles', 'acme/x', 2, 'put', $1, now())", d); err != nil {
		t.Fatal(err)
	}

	cmd := p.cmd("--lock-timeout", "1m", "automation-profile", "add", "--update", "-c", v2)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	deadline := time.Now().Add(30 * time.Second)
	for pid == 0 && time.Now().Before(deadline) {
		err := admin.QueryRow(ctx, `SELECT pid FROM pg_stat_activity WHERE application_name = 'agents'
			AND wait_event_type = 'Lock' AND state = 'active' AND query LIKE '%INSERT INTO history%'`).Scan(&pid)
		if err != nil && err != pgx.ErrNoRows {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if pid == 0 {
		_ = cmd.Process.Kill()
		t.Fatal("the writer never waited on its history insert")
	}
	if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 75 || !strings.Contains(errOut.String(), "127.0.0.1:5432") {
		t.Fatalf("killed writer: exit %d, want 75 naming the server:\n%s", code, errOut.String())
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	// Nothing of the change: the old version, one event, no new object.
	r := p.run("automation-profile", "show", "acme/x", "-f", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"description": "one"`) {
		t.Errorf("after the kill: exit %d %s", r.code, r.stdout)
	}
	if n := count("SELECT count(*) FROM " + p.schema + ".history"); n != 1 {
		t.Errorf("%d history events after the kill, want 1", n)
	}
	if n := count("SELECT count(*) FROM " + p.schema + ".objects"); n != objects {
		t.Errorf("%d objects after the kill, want %d", n, objects)
	}
	// And the next writer goes ahead.
	if r := p.run("automation-profile", "add", "--update", "-c", v2); r.code != 0 {
		t.Errorf("next writer: exit %d: %s", r.code, r.stderr)
	}
	t.Logf("killed writer: exit %d: %s", code, strings.TrimSpace(errOut.String()))
}

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

const claudeInput = `{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Read","tool_input":{"file_path":"/src/main.go"},"cwd":"/"}`

// TestPostgresUnreachable: a server that is not there gives exit 75 (2 in
// a hook, which must block), naming the host and never the password.
func TestPostgresUnreachable(t *testing.T) {
	const secret = "Cl0sed-p0rt-pw"
	u := fmt.Sprintf("postgres://agents:%s@127.0.0.1:%d/agents?sslmode=disable", secret, closedPort(t))
	home := t.TempDir()
	src := t.TempDir()
	f, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.5\n")
	for _, args := range [][]string{
		{"automation-profile", "list"},
		{"automation-profile", "show", "acme/x", "-f", "json"},
		{"automation-profile", "add", "-c", f},
		{"plan", "list"},
		{"store", "migrate"},
	} {
		start := time.Now()
		r := runAgents(t, home, append([]string{"--store", u}, args...)...)
		if r.code != 75 || !strings.Contains(r.stderr, "127.0.0.1:"+closedPort0(u)) {
			t.Errorf("%v: exit %d, want 75 naming the server:\n%s", args, r.code, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("%v printed the password:\n%s%s", args, r.stdout, r.stderr)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%v took %s", args, d)
		}
	}
	// A hook names its store with --store, as the snippet does (it reads
	// none from the environment).
	cmd := exec.Command(agentsBinary(t), "--store", u, "automation-profile", "check-guard", "acme/x", "--hook", "claude-code")
	cmd.Env = append(os.Environ(), "AGENTS_HOME="+home, "CI=true")
	cmd.Stdin = strings.NewReader(claudeInput)
	r, err := runCmd(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if r.code != 2 || strings.Contains(r.stdout+r.stderr, secret) || !strings.Contains(r.stdout, "deny") || !strings.Contains(r.stderr, "unreachable") {
		t.Errorf("hook with the store unreachable: exit %d, want 2 and a deny:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// closedPort0 returns the port of a URL.
func closedPort0(u string) string {
	p, _ := url.Parse(u)
	return p.Port()
}

// TestPostgresReadOnlyRole: a role with read grants lists, shows, resolves
// and decides; a write is refused with exit 7 and a clear message.
func TestPostgresReadOnlyRole(t *testing.T) {
	p := newPgStore(t)
	src := t.TempDir()
	f, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.5\n")
	g, _ := profileFile(t, src, "y.yaml", "name: acme/y\nauto_apply: 0.5\n")
	if r := p.run("automation-profile", "add", "-c", f); r.code != 0 {
		t.Fatal(r.stderr)
	}
	role := pgtest.RoleName("ro")
	pgtest.Exec(t, "CREATE ROLE "+role+" LOGIN",
		"GRANT USAGE ON SCHEMA "+p.schema+" TO "+role,
		"GRANT SELECT ON ALL TABLES IN SCHEMA "+p.schema+" TO "+role)
	t.Cleanup(func() { pgtest.Exec(t, "DROP OWNED BY "+role, "DROP ROLE "+role) })
	ro := *p
	ro.url = pgtest.WithUser(t, p.url, role)
	for _, args := range [][]string{
		{"automation-profile", "list", "-f", "plain"},
		{"automation-profile", "show", "acme/x"},
		{"automation-profile", "history", "acme/x"},
		{"automation-profile", "check-guard", "acme/x", "--tool", "x"},
		{"automation-profile", "check-gate", "acme/x", "auto_apply", "--confidence", "0.9"},
		{"automation-profile", "resolve"},
		{"plan", "list"},
	} {
		if r := ro.run(args...); r.code != 0 && !(args[1] == "check-guard" && r.code == 10) {
			t.Errorf("%v as the reader: exit %d: %s", args, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"automation-profile", "add", "-c", g},
		{"automation-profile", "remove", "acme/x", "--yes"},
	} {
		r := ro.run(args...)
		if r.code != 7 || !strings.Contains(r.stderr, role) || !strings.Contains(r.stderr, "hint") {
			t.Errorf("%v as the reader: exit %d, want 7:\n%s", args, r.code, r.stderr)
		}
	}
	if r := p.run("automation-profile", "list", "-f", "plain"); !strings.Contains(r.stdout, "acme/x") || strings.Contains(r.stdout, "acme/y") {
		t.Errorf("the registry changed: %s", r.stdout)
	}
}

// TestPostgresRoleWithoutGrants: a role that may not use the registry's
// schema, or may use it but read none of its tables, is refused with exit
// 7 naming the role, whatever the command (store migrate included), never
// told that the schema was never migrated; a hook blocks.
func TestPostgresRoleWithoutGrants(t *testing.T) {
	p := newPgStore(t)
	src := t.TempDir()
	f, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.5\n")
	if r := p.run("automation-profile", "add", "-c", f); r.code != 0 {
		t.Fatal(r.stderr)
	}
	none := pgtest.RoleName("none")
	usage := pgtest.RoleName("usage")
	pgtest.Exec(t, "CREATE ROLE "+none+" LOGIN", "CREATE ROLE "+usage+" LOGIN",
		"GRANT USAGE ON SCHEMA "+p.schema+" TO "+usage)
	t.Cleanup(func() { pgtest.Exec(t, "DROP OWNED BY "+none+", "+usage, "DROP ROLE "+none+", "+usage) })
	for _, role := range []string{none, usage} {
		as := *p
		as.url = pgtest.WithUser(t, p.url, role)
		for _, args := range [][]string{
			{"automation-profile", "list", "-f", "plain"},
			{"automation-profile", "show", "acme/x"},
			{"automation-profile", "check-gate", "acme/x", "auto_apply", "--confidence", "0.9"},
			{"automation-profile", "add", "-c", f, "--update"},
			{"plan", "list"},
			{"store", "migrate"},
		} {
			r := as.run(args...)
			if r.code != 7 || !strings.Contains(r.stderr, role) || strings.Contains(r.stderr, "never migrated") ||
				strings.Contains(r.stderr, "can read the registry") || !strings.Contains(r.stderr, "hint:") {
				t.Errorf("%v as %s: exit %d, want 7 naming the role:\n%s", args, role, r.code, r.stderr)
			}
		}
		cmd := as.cmd("--store", as.url, "automation-profile", "check-guard", "acme/x", "--hook", "claude-code")
		cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/x"}}`)
		r, err := runCmd(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if r.code != 2 || !strings.Contains(r.stdout, `"permissionDecision":"deny"`) || !strings.Contains(r.stderr, role) {
			t.Errorf("hook as %s: exit %d, want 2 and a deny naming the role:\n%s\n%s", role, r.code, r.stdout, r.stderr)
		}
	}
}

// copySummary is what store copy -f json prints.
type copySummary struct {
	SourceDigest string `json:"source_digest"`
	TargetDigest string `json:"target_digest"`
	Changed      bool   `json:"changed"`
	Match        bool   `json:"match"`
}

func copyJSON(t *testing.T, p *pgStore, args ...string) (copySummary, result) {
	t.Helper()
	r := p.run(append([]string{"store", "copy", "-f", "json"}, args...)...)
	var s copySummary
	if r.code == 0 {
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
			t.Fatalf("store copy printed no summary: %v\n%s", err, r.stdout)
		}
	}
	return s, r
}

// TestPostgresStoreCopy copies a home into PostgreSQL and back out into
// another home, comparing digests and files.
func TestPostgresStoreCopy(t *testing.T) {
	p := newPgStore(t)
	home := filepath.Join(t.TempDir(), "src")
	s, err := filestore.Open(home, filestore.Options{LockTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	storetest.Fill(t, s)
	// A plan from before plans kept history: copied as it is, with no
	// history event the database would have to cite an object for.
	logs, _ := filepath.Glob(filepath.Join(home, "history", "plans", "*.log"))
	if len(logs) < 2 {
		t.Fatalf("the filled store has %d plan histories", len(logs))
	}
	if err := os.Remove(logs[0]); err != nil {
		t.Fatal(err)
	}

	in, r := copyJSON(t, p, "--from", home, "--to", p.url)
	if r.code != 0 || !in.Changed || !in.Match || in.SourceDigest != in.TargetDigest {
		t.Fatalf("copy in: exit %d %+v\n%s", r.code, in, r.stderr)
	}
	again, r := copyJSON(t, p, "--from", home, "--to", p.url)
	if r.code != 0 || again.Changed || again.TargetDigest != in.TargetDigest {
		t.Fatalf("second copy in: exit %d %+v", r.code, again)
	}
	back := filepath.Join(t.TempDir(), "back")
	out, r := copyJSON(t, p, "--from", p.url, "--to", back)
	if r.code != 0 || !out.Match || out.SourceDigest != in.SourceDigest {
		t.Fatalf("copy out: exit %d %+v (in: %+v)\n%s", r.code, out, in, r.stderr)
	}
	storetest.SameTree(t, home, back)
	// The same history, as the command shows it.
	h1 := runAgents(t, home, "automation-profile", "history", "acme/b", "-f", "json")
	h2 := p.run("automation-profile", "history", "acme/b", "-f", "json")
	if h1.code != 0 || h1.stdout != h2.stdout {
		t.Errorf("history differs:\n%s\n%s", h1.stdout, h2.stdout)
	}
	// Other content under a name: refused, then forced.
	f, _ := profileFile(t, t.TempDir(), "a.yaml", "name: acme/a\ndescription: changed\n")
	if r := p.run("automation-profile", "add", "--update", "-c", f); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if _, r := copyJSON(t, p, "--from", p.url, "--to", back); r.code != 5 || !strings.Contains(r.stderr, "acme/a") {
		t.Fatalf("copy over other content: exit %d\n%s", r.code, r.stderr)
	}
	if _, r := copyJSON(t, p, "--from", p.url, "--to", back, "--force"); r.code != 0 {
		t.Fatalf("forced copy: exit %d\n%s", r.code, r.stderr)
	}
	if r := runAgents(t, back, "automation-profile", "show", "acme/a", "-f", "json"); !strings.Contains(r.stdout, `"changed"`) {
		t.Errorf("forced copy did not replace acme/a: %s", r.stdout)
	}
}

// TestPostgresStoreCopyIntoItself: store copy refuses two URLs that name
// one registry (the same server, database and schema), however they are
// written, as it refuses the same URL twice.
func TestPostgresStoreCopyIntoItself(t *testing.T) {
	p := newPgStore(t)
	u, err := url.Parse(p.url)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	other := func(edit func(v *url.URL, q url.Values)) string {
		v, q := *u, url.Values{}
		for k, vs := range u.Query() {
			q[k] = vs
		}
		edit(&v, q)
		// Encode sorts the parameters: search_path then comes after
		// sslmode, wherever p.url has it.
		v.RawQuery = q.Encode()
		return v.String()
	}
	for _, to := range []string{
		other(func(v *url.URL, _ url.Values) { v.Scheme = "postgresql" }),
		other(func(v *url.URL, _ url.Values) { v.User = url.UserPassword("someone", "pw") }),
		other(func(v *url.URL, _ url.Values) {
			if v.Port() == "5432" {
				v.Host = v.Hostname() // the default port
			}
		}),
		other(func(_ *url.URL, q url.Values) { q.Set("application_name", "copy") }),
	} {
		if to == p.url {
			t.Fatalf("%s is written as the store URL is", to)
		}
		r := p.run("store", "copy", "--from", p.url, "--to", to)
		if r.code != 2 || !strings.Contains(r.stderr, "the same store") {
			t.Errorf("copy into %s: exit %d, want 2:\n%s", to, r.code, r.stderr)
		}
	}
	q.Set("search_path", q.Get("search_path")+"_other")
	u.RawQuery = q.Encode()
	if r := p.run("store", "copy", "--from", p.url, "--to", u.String()); r.code != 3 || !strings.Contains(r.stderr, "never migrated") {
		t.Errorf("copy into another schema: exit %d, want 3 (not migrated):\n%s", r.code, r.stderr)
	}
}

// TestPostgresPasswordNeverPrinted runs failing commands whose store URL
// carries a password, and greps every output for it.
func TestPostgresPasswordNeverPrinted(t *testing.T) {
	p := newPgStore(t)
	const secret = "S3cr3t-pw-4f9e"
	base, err := url.Parse(p.url)
	if err != nil {
		t.Fatal(err)
	}
	base.User = url.UserPassword(base.User.Username(), secret)
	withPw := base.String()
	unmigrated := pgtest.WithParam(t, withPw, "search_path", "agents_never_migrated")
	noDB := *base
	noDB.Path = "/agents_no_such_database"
	closed := fmt.Sprintf("postgres://u:%s@127.0.0.1:%d/x?sslmode=disable", secret, closedPort(t))
	home := t.TempDir()
	cfgHome := t.TempDir()
	writeFile(t, filepath.Join(cfgHome, "config.yaml"), "store: "+closed+"\n")
	os.Chmod(filepath.Join(cfgHome, "config.yaml"), 0o600)
	badCfg := t.TempDir()
	writeFile(t, filepath.Join(badCfg, "config.yaml"), "store: mysql://u:"+secret+"@h/x\n")
	os.Chmod(filepath.Join(badCfg, "config.yaml"), 0o600)
	src := t.TempDir()
	f, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.5\n")

	cases := []struct {
		home string
		env  string
		args []string
	}{
		{home, "", []string{"--store", unmigrated, "automation-profile", "list"}},
		{home, "", []string{"--store", unmigrated, "automation-profile", "add", "-c", f, "-f", "json"}},
		{home, "", []string{"--store", noDB.String(), "automation-profile", "list", "-f", "yaml"}},
		{home, "", []string{"--store", closed, "automation-profile", "show", "acme/x"}},
		{home, "", []string{"--store", "postgres://u:" + secret + "@127.0.0.1:notaport/x", "automation-profile", "list"}},
		{home, "", []string{"--store", "postgres://u:" + secret + "@127.0.0.1/x?sslmode=sometimes", "automation-profile", "list"}},
		{home, "", []string{"--store", "mysql://u:" + secret + "@127.0.0.1/x", "automation-profile", "list", "-f", "json"}},
		{home, "", []string{"store", "copy", "--from", closed, "--to", t.TempDir()}},
		{home, "", []string{"store", "copy", "--from", unmigrated, "--to", t.TempDir(), "-f", "json"}},
		{home, "", []string{"store", "copy", "--from", withPw, "--to", withPw}},
		{home, "", []string{"--store", unmigrated, "store", "migrate", "--bogus"}},
		{home, closed, []string{"automation-profile", "list"}},
		{home, closed, []string{"--help"}},
		{home, closed, []string{"store", "migrate", "--help"}},
		{cfgHome, "", []string{"automation-profile", "list"}},
		{badCfg, "", []string{"automation-profile", "list", "-f", "json"}},
	}
	for _, c := range cases {
		cmd := exec.Command(agentsBinary(t), c.args...)
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+c.home, "CI=true", "NO_COLOR=1", "AGENTS_STORE="+c.env)
		r, err := runCmd(cmd)
		if err != nil {
			t.Fatal(err)
		}
		all := r.stdout + r.stderr
		for _, form := range []string{secret, url.QueryEscape(secret)} {
			if strings.Contains(all, form) {
				t.Errorf("%v printed the password:\n%s", c.args, all)
			}
		}
		help := c.args[len(c.args)-1] == "--help"
		if r.code == 0 && !help {
			t.Errorf("%v: exit 0, want a failure:\n%s", c.args, all)
		}
	}
}

// Two profiles of one name, acme/coder: one that asks before Read (on
// its denylist), and one that does not.
const (
	strictCoder = "name: acme/coder\nauto_decisions_execute: 0\nguards:\n  tool_denylist: [Read]\n"
	looseCoder  = "name: acme/coder\nauto_decisions_execute: 0\n"
)

// addCoder adds a profile to the PostgreSQL store, or to the home's file
// store.
func (p *pgStore) addCoder(postgres bool, content string) {
	p.t.Helper()
	file := filepath.Join(p.t.TempDir(), "coder.yaml")
	writeFile(p.t, file, content)
	cmd := p.cmd("automation-profile", "add", "-c", file)
	if !postgres {
		cmd.Env = append(cmd.Env, "AGENTS_STORE=")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		p.t.Fatalf("add (PostgreSQL %v): %v %s", postgres, err, out)
	}
}

// TestPostgresHookSnippetNamesTheStore: a hook installed from a command
// whose store came from AGENTS_STORE decides from that store, though the
// agent runs it with an environment of its own: the snippet names the
// store. Here the home's file store holds a looser profile of the same
// name, which the hook must not use.
func TestPostgresHookSnippetNamesTheStore(t *testing.T) {
	skipWhereClaudeAdmin(t)
	p := newPgStore(t)
	p.addCoder(true, strictCoder)
	p.addCoder(false, looseCoder)
	// A profile the PostgreSQL store alone holds is found by the command
	// that prints the settings, as by the hook it installs.
	p.addCoder(true, "name: acme/only\nauto_decisions_execute: 0\n")
	if r := p.run("automation-profile", "check-guard", "acme/only", "--hook", "claude-code", "--print-config"); r.code != 0 {
		t.Errorf("--print-config for a profile in the store it names: exit %d %s", r.code, r.stderr)
	}
	r := p.run("automation-profile", "check-guard", "acme/coder", "--hook", "claude-code", "--sandboxed", "--print-config")
	if r.code != 0 {
		t.Fatalf("--print-config: %d %s", r.code, r.stderr)
	}
	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &settings); err != nil {
		t.Fatal(err)
	}
	command := settings.Hooks["PreToolUse"][0].Hooks[0].Command
	if !strings.Contains(command, `--store "$2"`) || !strings.HasSuffix(command, " "+hook.ShellQuote(p.url)) {
		t.Fatalf("the command does not name the store: %s", command)
	}
	c := exec.Command("sh", "-c", command)
	c.Stdin = strings.NewReader(claudeRead)
	c.Env = []string{"PATH=/usr/bin:/bin"} // the agent's environment: no AGENTS_STORE
	out, err := c.Output()
	if err != nil || !strings.Contains(string(out), `"permissionDecision":"ask"`) || !strings.Contains(string(out), "denylist") {
		t.Errorf("the installed hook answered %s (%v); want the PostgreSQL profile's ask for a denylisted tool", out, err)
	}
}

// TestPostgresHookIgnoresAgentsStore: AGENTS_STORE in the environment the
// agent runs its hook with cannot point the hook at another store: the
// hook reads the store its command names, or the home's, never that one.
func TestPostgresHookIgnoresAgentsStore(t *testing.T) {
	skipWhereClaudeAdmin(t)
	p := newPgStore(t)
	// The home's file store holds the strict profile; PostgreSQL a
	// looser one of the same name.
	p.addCoder(false, strictCoder)
	p.addCoder(true, looseCoder)
	r := p.hookRead(nil, "automation-profile", "check-guard", "acme/coder", "--hook", "claude-code", "--sandboxed")
	if r.code != 0 || !strings.Contains(r.stdout, `"permissionDecision":"ask"`) || !strings.Contains(r.stderr, "AGENTS_STORE is ignored by a hook") {
		t.Errorf("a hook with AGENTS_STORE set: exit %d\n%s%s\nwant the home's profile's ask, and a warning", r.code, r.stdout, r.stderr)
	}
	// Outside a hook, AGENTS_STORE chooses the store as documented.
	if r := p.run("automation-profile", "check-guard", "acme/coder", "--tool", "Read", "-f", "json"); !strings.Contains(r.stdout, `"allowed": true`) {
		t.Errorf("check-guard with AGENTS_STORE: %s%s", r.stdout, r.stderr)
	}
}

// TestPostgresHookIgnoresLibpqEnvironment: what the store URL leaves out
// (here the port) a hook does not take from the libpq environment
// (PGPORT), which the agent running it sets; other commands do.
func TestPostgresHookIgnoresLibpqEnvironment(t *testing.T) {
	p := newPgStore(t)
	if !strings.Contains(p.url, "@127.0.0.1:5432/") {
		t.Skip("the test server is not at 127.0.0.1:5432, the port a URL without one means")
	}
	p.addCoder(true, looseCoder)
	if err := os.MkdirAll(p.home, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(p.home, "config.yaml"), "store: \""+strings.Replace(p.url, "127.0.0.1:5432", "127.0.0.1", 1)+"\"\n")
	env := []string{"AGENTS_STORE=", "PGPORT=1", "PGHOST=192.0.2.1"}
	r := p.hookRead(env, "automation-profile", "check-guard", "acme/coder", "--hook", "claude-code", "--sandboxed")
	if r.code != 0 || !strings.Contains(r.stdout, `"permissionDecision":"allow"`) {
		t.Errorf("a hook with PGPORT set: exit %d\n%s%s\nwant the store's answer", r.code, r.stdout, r.stderr)
	}
	show := p.cmd("automation-profile", "show", "acme/coder")
	show.Env = append(show.Env, env...)
	if r, err := runCmd(show); err != nil || r.code != 75 {
		t.Errorf("show with PGPORT=1: exit %d, want 75 (the environment counts outside a hook): %s", r.code, r.stderr)
	}
}

// TestPostgresHostilePasswordsNeverPrinted: a store URL whose password
// holds what ends a URL's user information early (/ ? # @ : and others),
// written raw, is refused or fails to connect; no output of any path (the
// URL refused, the server not there, JSON errors, a store copy, a hook's
// reply on stdout, a config.yaml naming it) shows the password or any
// recognisable part of it.
func TestPostgresHostilePasswordsNeverPrinted(t *testing.T) {
	port := closedPort(t)
	home := t.TempDir()
	for _, secret := range []string{
		"k9X+Qw/Zr7Lp==", "Tr0ub@dor#3x", "Tr0ub@d?or3x", "a1b2/c3d4?e5f6#g7h8@i9j0:k1l2",
		"pa55:w0rd:m0re", "100%sure", "p%40ss%2Fw0rd", "w1th sp4ces s3cret", "ünïcødé-密码",
		"pluses+and=equals", "tra1l@@@", "x9y8/z7w6",
	} {
		for _, u := range []string{
			"postgres://agents_writer:" + secret + "@db.invalid/agents?sslmode=verify-full",
			fmt.Sprintf("postgres://u:%s@127.0.0.1:%d/test?sslmode=disable", secret, port),
			fmt.Sprintf("postgres://u:%s@127.0.0.1:%d/test", url.QueryEscape(secret), port),
		} {
			cfgHome := t.TempDir()
			writeFile(t, filepath.Join(cfgHome, "config.yaml"), "store: '"+u+"'\n")
			os.Chmod(filepath.Join(cfgHome, "config.yaml"), 0o600)
			for _, c := range []struct {
				home  string
				stdin string
				args  []string
			}{
				{home, "", []string{"--store", u, "automation-profile", "show", "acme/x"}},
				{home, "", []string{"--store", u, "automation-profile", "list", "-f", "json"}},
				{home, "", []string{"store", "copy", "--from", u, "--to", filepath.Join(t.TempDir(), "to"), "-f", "json"}},
				{home, claudeInput, []string{"--store", u, "automation-profile", "check-guard", "acme/x", "--hook", "claude-code"}},
				{home, "", []string{"--store", u, "automation-profile", "check-guard", "acme/x", "--hook", "claude-code", "--print-config"}},
				{cfgHome, "", []string{"automation-profile", "show", "acme/x", "-f", "yaml"}},
				{cfgHome, claudeInput, []string{"automation-profile", "check-guard", "acme/x", "--hook", "claude-code"}},
			} {
				cmd := exec.Command(agentsBinary(t), c.args...)
				cmd.Env = append(os.Environ(), "AGENTS_HOME="+c.home, "CI=true", "NO_COLOR=1", "AGENTS_STORE=")
				cmd.Stdin = strings.NewReader(c.stdin)
				r, err := runCmd(cmd)
				if err != nil {
					t.Fatal(err)
				}
				if r.code == 0 {
					t.Errorf("%v: exit 0, want a failure", c.args)
				}
				all := r.stdout + r.stderr
				for _, part := range passwordParts(secret) {
					if strings.Contains(all, part) {
						t.Errorf("%v (%s) printed %q of the password:\n%s", c.args[:min(len(c.args), 4)], u, part, all)
					}
				}
			}
		}
	}
}

// passwordParts returns the password, its escaped forms, and each of its
// parts between the characters a parser could split it at that is long
// enough to be recognised.
func passwordParts(secret string) []string {
	parts := []string{secret, url.QueryEscape(secret), url.PathEscape(secret)}
	for _, p := range strings.FieldsFunc(secret, func(r rune) bool { return strings.ContainsRune("/?#@:&=+% ", r) }) {
		if len(p) >= 4 {
			parts = append(parts, p)
		}
	}
	return parts
}

// TestPostgresLockTimeoutZero: with --lock-timeout 0 ("try once, do not
// wait"), a read of a table another session holds locked gives up with
// exit 75 rather than wait for ever (PostgreSQL's lock_timeout 0 means
// no limit).
func TestPostgresLockTimeoutZero(t *testing.T) {
	p := newPgStore(t)
	p.addCoder(true, "name: acme/x\nauto_apply: 0.5\n")
	ctx := context.Background()
	tx, err := p.conn().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "LOCK TABLE "+p.schema+".profiles IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--lock-timeout", "0", "automation-profile", "show", "acme/x"},
		{"--lock-timeout", "0s", "automation-profile", "list"},
	} {
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		cmd := p.cmd(args...)
		run := exec.CommandContext(cctx, cmd.Path, cmd.Args[1:]...)
		run.Env = cmd.Env
		r, err := runCmd(run)
		cancel()
		if err != nil {
			t.Fatalf("%v did not return: %v", args, err)
		}
		if r.code != 75 || !strings.Contains(r.stderr, "locked") {
			t.Errorf("%v with the table locked: exit %d, want 75:\n%s", args, r.code, r.stderr)
		}
	}
}

// freezingProxy listens on a local port and forwards each connection to
// the server at upstream until the server has answered the startup (its
// first ReadyForQuery); from then on it swallows whatever the client
// sends: a server that stops answering once connected. It returns the
// proxy's address.
func freezingProxy(t *testing.T, upstream string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				s, err := net.Dial("tcp", upstream)
				if err != nil {
					return
				}
				defer s.Close()
				var frozen atomic.Bool
				go func() {
					// Server to client, message by message (no SSL: the
					// URL says sslmode=disable): type, length, body.
					defer c.Close()
					hdr := make([]byte, 5)
					for {
						if _, err := io.ReadFull(s, hdr); err != nil {
							return
						}
						body := make([]byte, int(binary.BigEndian.Uint32(hdr[1:]))-4)
						if _, err := io.ReadFull(s, body); err != nil {
							return
						}
						if hdr[0] == 'Z' {
							frozen.Store(true)
						}
						if _, err := c.Write(append(hdr, body...)); err != nil {
							return
						}
						hdr = make([]byte, 5)
					}
				}()
				buf := make([]byte, 32<<10)
				for {
					n, err := c.Read(buf)
					if err != nil {
						return
					}
					if !frozen.Load() {
						if _, err := s.Write(buf[:n]); err != nil {
							return
						}
					}
				}
			}()
		}
	}()
	return l.Addr().String()
}

// TestPostgresServerStopsAnswering: a server (or network) that passes the
// startup and then answers nothing does not hang a command: past the
// reply timeout (here 10 × connect_timeout=1) it ends with exit 75,
// naming the server and never the password, and a store copy into it
// writes nothing.
func TestPostgresServerStopsAnswering(t *testing.T) {
	p := newPgStore(t)
	src := t.TempDir()
	f, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.5\n")
	if r := p.run("automation-profile", "add", "-c", f); r.code != 0 {
		t.Fatal(r.stderr)
	}
	home := filepath.Join(t.TempDir(), "home")
	if r := runAgents(t, home, "automation-profile", "add", "-c", f); r.code != 0 {
		t.Fatal(r.stderr)
	}
	const secret = "Fr0zen-pr0xy-pw"
	u, err := url.Parse(pgtest.WithParam(t, p.url, "connect_timeout", "1"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := freezingProxy(t, u.Host)
	u.Host = proxy
	u.User = url.UserPassword(u.User.Username(), secret)
	frozen := u.String()
	// Each command waits out the whole reply timeout (ten connect
	// timeouts, on top of the lock timeout, here none), so they run side
	// by side.
	cmds := [][]string{
		{"--lock-timeout", "0", "--store", frozen, "automation-profile", "show", "acme/x"},
		{"--lock-timeout", "0", "--store", frozen, "automation-profile", "list", "-f", "json"},
		{"--lock-timeout", "0", "store", "copy", "--from", home, "--to", frozen},
		{"--lock-timeout", "0", "store", "copy", "--from", frozen, "--to", filepath.Join(t.TempDir(), "to")},
	}
	type outcome struct {
		r   result
		err error
	}
	done := make([]chan outcome, len(cmds))
	for i, args := range cmds {
		done[i] = make(chan outcome, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, agentsBinary(t), args...)
			cmd.Env = append(os.Environ(), "AGENTS_HOME="+home, "CI=true", "NO_COLOR=1", "AGENTS_STORE=")
			r, err := runCmd(cmd)
			done[i] <- outcome{r, err}
		}()
	}
	for i, args := range cmds {
		o := <-done[i]
		r := o.r
		if o.err != nil {
			t.Fatalf("%v did not return: %v", args, o.err)
		}
		if r.code != 75 || !strings.Contains(r.stderr, proxy) || !strings.Contains(r.stderr, "no answer") {
			t.Errorf("%v through a server that stopped answering: exit %d, want 75 naming %s:\n%s", args, r.code, proxy, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("%v printed the password:\n%s%s", args, r.stdout, r.stderr)
		}
	}
	// The copy into the frozen store wrote nothing: the home's acme/x,
	// the same content, would have added the home's put.
	if got := p.run("automation-profile", "history", "acme/x", "-f", "json"); strings.Count(got.stdout, `"put"`) != 1 {
		t.Errorf("history of acme/x after the frozen copy:\n%s%s", got.stdout, got.stderr)
	}
}

// TestPostgresEarlyStart runs the commands whose connection starts while
// the process starts (package early) against the test server: the answer
// is the store's whether the early start was used, refused (a lock
// timeout from config.yaml, which the early start does not read) or left
// unused by a command that failed first, and a hook decides from it.
func TestPostgresEarlyStart(t *testing.T) {
	p := newPgStore(t)
	p.addCoder(true, strictCoder)
	p.addCoder(false, looseCoder)
	want := `"tool_denylist": [` // the strict profile, in PostgreSQL
	show := func(how string, cmd *exec.Cmd) {
		t.Helper()
		r, err := runCmd(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if r.code != 0 || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "Read") {
			t.Errorf("show, %s: exit %d\n%s%s", how, r.code, r.stdout, r.stderr)
		}
	}
	show("store from the environment", p.cmd("automation-profile", "show", "acme/coder", "-f", "json"))
	flag := p.cmd("--store", p.url, "automation-profile", "show", "acme/coder", "-f", "json")
	flag.Env = append(flag.Env, "AGENTS_STORE=")
	show("store from --store", flag)
	show("lock timeout from --lock-timeout", p.cmd("--lock-timeout", "3s", "automation-profile", "show", "acme/coder", "-f", "json"))
	writeFile(t, filepath.Join(p.home, "config.yaml"), "lock_timeout: 3s\n")
	os.Chmod(filepath.Join(p.home, "config.yaml"), 0o600)
	show("lock timeout from config.yaml", p.cmd("automation-profile", "show", "acme/coder", "-f", "json"))

	r := p.hookRead(nil, "--store", p.url, "automation-profile", "check-guard", "acme/coder", "--hook", "claude-code", "--sandboxed")
	// Where Claude Code's administrators' settings could answer the ask,
	// it is a deny; the rule is the same either way.
	if r.code != 0 || claudeAdmin() == "" && !strings.Contains(r.stdout, `"permissionDecision":"ask"`) || !strings.Contains(r.stdout, "tool_denylist") {
		t.Errorf("hook on the stored profile: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	start := time.Now()
	if r := p.run("automation-profile", "show", "acme/coder", "--bogus"); r.code != 2 || !strings.Contains(r.stderr, "bogus") {
		t.Errorf("a usage error after the early start: exit %d\n%s", r.code, r.stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a command that left its early connection unused took %v to end", d)
	}
}

// TestPostgresSessionEndsWithTheProcess: a lookup's connection, which the
// process leaves for the kernel to close as it exits, ends its session on
// the server when the process has gone: none is left behind.
func TestPostgresSessionEndsWithTheProcess(t *testing.T) {
	p := newPgStore(t)
	p.addCoder(true, strictCoder)
	app := "exit_" + p.schema
	p.url = pgtest.WithParam(t, p.url, "application_name", app)
	for range 3 {
		if r := p.run("automation-profile", "show", "acme/coder", "-f", "json"); r.code != 0 || !strings.Contains(r.stdout, "tool_denylist") {
			t.Fatalf("show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
	c := p.conn()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := c.QueryRow(context.Background(), "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", app).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions of processes that have exited are still open", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// passwordServer stands in for a PostgreSQL server that asks every
// connection for an MD5 password and refuses what it gets, as the real one
// does: a wrong password, or a message that is not a password at all. It
// counts the connections it accepted.
func passwordServer(t *testing.T) (addr string, conns *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	conns = new(atomic.Int32)
	fatal := func(code, msg string) []byte {
		body := []byte("SFATAL\x00C" + code + "\x00M" + msg + "\x00\x00")
		b := []byte{'E', 0, 0, 0, 0}
		binary.BigEndian.PutUint32(b[1:], uint32(4+len(body)))
		return append(b, body...)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(10 * time.Second))
				var n [4]byte
				if _, err := io.ReadFull(c, n[:]); err != nil {
					return
				}
				if _, err := io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint32(n[:]))-4); err != nil {
					return
				}
				c.Write([]byte{'R', 0, 0, 0, 12, 0, 0, 0, 5, 1, 2, 3, 4}) // MD5, salt 1 2 3 4
				var typ [1]byte
				if _, err := io.ReadFull(c, typ[:]); err != nil {
					return
				}
				if typ[0] == 'p' {
					c.Write(fatal("28P01", `password authentication failed for user "alice"`))
				} else {
					c.Write(fatal("08P01", fmt.Sprintf("expected password response, got message type %d", typ[0])))
				}
			}()
		}
	}()
	return l.Addr().String(), conns
}

// TestPostgresPasswordAskedAfterStatementsAhead: statements go behind the
// start-up message only where no password can be given; a server that asks
// for one all the same reads them as the password and ends the session, and
// the store connects again as it would have without them, to the same
// answer as a command that sent nothing ahead.
func TestPostgresPasswordAskedAfterStatementsAhead(t *testing.T) {
	run := func(env ...string) (result, int32) {
		t.Helper()
		addr, conns := passwordServer(t)
		cmd := exec.Command(agentsBinary(t), "--store", "postgres://alice@"+addr+"/reg?sslmode=disable", "automation-profile", "show", "acme/x")
		cmd.Env = append(os.Environ(), append([]string{"AGENTS_HOME=" + t.TempDir(), "HOME=" + t.TempDir(), "CI=true", "NO_COLOR=1"}, env...)...)
		r, err := runCmd(cmd)
		if err != nil {
			t.Fatal(err)
		}
		return r, conns.Load()
	}
	ahead, n := run()
	// A password file that does not exist still stops anything going
	// ahead (only the start-up message goes early).
	plain, m := run("PGPASSFILE=/nonexistent/pgpass")
	if n < 2 || n > 3 || m != 1 {
		// With statements ahead: the early connection, refused, and the
		// one made again (and, where the refusal came as a reset, the
		// driver's cancel request on the first).
		t.Errorf("connections: %d with statements ahead (want 2 or 3), %d without (want 1)", n, m)
	}
	norm := func(s string) string {
		// The servers listen on different ports.
		return regexp.MustCompile(`127\.0\.0\.1:\d+`).ReplaceAllString(s, "SERVER")
	}
	if ahead.code != plain.code || norm(ahead.stderr) != norm(plain.stderr) || ahead.code == 0 || !strings.Contains(plain.stderr, "password") {
		t.Errorf("with statements ahead: exit %d\n%s\nwithout: exit %d\n%s", ahead.code, ahead.stderr, plain.code, plain.stderr)
	}
}

// TestPostgresDecisionReadsTheProfileAfterItsInput: a decision that reads
// its input first (a hook's, --stdin-json) decides on the profile as it
// is once the input has come, not as it was when the process started,
// though the connection was begun then: a profile tightened in between
// blocks the call.
func TestPostgresDecisionReadsTheProfileAfterItsInput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		input string
		want  func(r result) bool
	}{
		{"--stdin-json", []string{"automation-profile", "check-guard", "acme/coder", "--stdin-json", "-f", "json"},
			`{"tool":"Read"}`, func(r result) bool { return r.code == 10 && strings.Contains(r.stdout, "tool_denylist") }},
		{"a hook", []string{"automation-profile", "check-guard", "acme/coder", "--hook", "claude-code", "--sandboxed"},
			claudeInput, func(r result) bool {
				return r.code == 0 && !strings.Contains(r.stdout, `"allow"`) && strings.Contains(r.stdout, "tool_denylist")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPgStore(t)
			p.addCoder(true, looseCoder)
			cmd := p.cmd(append([]string{"--store", p.url}, tc.args...)...)
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var out, errOut strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Long enough for the process to have started and begun its
			// connection, and for an answer sent then to be too old.
			time.Sleep(400 * time.Millisecond)
			file := filepath.Join(t.TempDir(), "coder.yaml")
			writeFile(t, file, strictCoder)
			if r := p.run("automation-profile", "add", "-c", file, "--update"); r.code != 0 {
				t.Fatalf("tighten: exit %d: %s", r.code, r.stderr)
			}
			io.WriteString(in, tc.input)
			in.Close()
			err = cmd.Wait()
			r := result{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errOut.String()}
			if err != nil && r.code < 0 {
				t.Fatal(err)
			}
			if !tc.want(r) {
				t.Errorf("decided on the profile as it was before its input came: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestPostgresDecisionHoldsProfileToItsHistory: a profile's row changed
// by SQL, content, digest and object all consistent (what a role with the
// writer's grants, or a trigger, can do without agents), but not the
// version the profile's history last recorded, is decided under by
// nothing: check-guard and check-gate refuse it (exit 3) and a hook
// blocks (exit 2), as they do a hand-edited file in a home
// (docs/decisions.md, "The rule"). Putting the profile again records it.
func TestPostgresDecisionHoldsProfileToItsHistory(t *testing.T) {
	skipWhereClaudeAdmin(t)
	p := newPgStore(t)
	p.addCoder(true, strictCoder)
	p.addCoder(true, strings.Replace(looseCoder, "acme/coder", "acme/other", 1))
	loose := "convert_to(replace(convert_from(content, 'UTF8'), 'acme/other', 'acme/coder'), 'UTF8')"
	sc := p.schema
	pgtest.Exec(t,
		"INSERT INTO "+sc+".objects (digest, data) SELECT encode(sha256("+loose+"), 'hex'), "+loose+" FROM "+sc+".profiles WHERE name = 'acme/other'",
		"UPDATE "+sc+".profiles SET (content, digest, decoded, decoded_by, decoded_for) = (SELECT "+loose+", encode(sha256("+loose+"), 'hex'), NULL::bytea, NULL::text, NULL::text FROM "+sc+".profiles WHERE name = 'acme/other') WHERE name = 'acme/coder'")
	if r := p.run("automation-profile", "check-guard", "acme/coder", "--tool", "Read", "-f", "json"); r.code != 3 {
		t.Errorf("check-guard under a row its history never recorded: exit %d, want 3\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := p.run("automation-profile", "check-gate", "acme/coder", "auto_decisions_execute", "--confidence", "0.5", "-f", "json"); r.code != 3 {
		t.Errorf("check-gate under a row its history never recorded: exit %d, want 3\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := p.hookRead(nil, "automation-profile", "check-guard", "acme/coder", "--hook", "claude-code", "--store", p.url, "--sandboxed")
	if r.code != 2 || !strings.Contains(r.stdout, `"permissionDecision":"deny"`) {
		t.Errorf("a hook under a row its history never recorded: exit %d\n%s%s\nwant a deny and exit 2", r.code, r.stdout, r.stderr)
	}
	file := filepath.Join(t.TempDir(), "coder.yaml")
	writeFile(t, file, strictCoder)
	if r := p.run("automation-profile", "add", "-c", file, "--update"); r.code != 0 {
		t.Fatalf("add --update: exit %d: %s", r.code, r.stderr)
	}
	if r := p.run("automation-profile", "check-guard", "acme/coder", "--tool", "Read", "-f", "json"); r.code != 10 {
		t.Errorf("check-guard once the profile is put again: exit %d, want 10 (Read is on its denylist)\n%s%s", r.code, r.stdout, r.stderr)
	}
}
