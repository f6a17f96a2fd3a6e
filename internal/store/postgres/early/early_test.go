package early

import (
	"bytes"
	"go/build"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

const plain = "postgres://alice@127.0.0.1:5433/reg?sslmode=disable"

// defaults are the start-up parameters the store sends for plain, written
// out by hand.
var defaults = map[string]string{
	"user": "alice", "database": "reg", "search_path": "agents", "application_name": "agents",
	"lock_timeout": "10000", "idle_in_transaction_session_timeout": "30000",
}

func with(over map[string]string) map[string]string {
	m := maps.Clone(defaults)
	maps.Copy(m, over)
	return m
}

func TestGuess(t *testing.T) {
	show := []string{"automation-profile", "show", "acme/strict"}
	args := func(pre ...string) []string { return append(pre, show...) }
	for _, tc := range []struct {
		name   string
		args   []string
		env    func(string) string
		ok     bool
		addr   string
		params map[string]string
	}{
		{"flag", args("--store", plain), env(), true, "127.0.0.1:5433", defaults},
		{"flag with =", args("--store=" + plain), env(), true, "127.0.0.1:5433", defaults},
		{"environment", show, env("AGENTS_STORE", plain), true, "127.0.0.1:5433", defaults},
		{"flag over environment", args("--store", plain), env("AGENTS_STORE", "postgres://bob@10.0.0.1/x?sslmode=disable"), true, "127.0.0.1:5433", defaults},
		{"last flag wins", args("--store", "postgres://bob@10.0.0.1/x", "--store", plain), env(), true, "127.0.0.1:5433", defaults},
		{"default port", args("--store", "postgres://alice@127.0.0.1/reg?sslmode=disable"), env(), true, "127.0.0.1:5432", defaults},
		{"postgresql scheme and a password", args("--store", "postgresql://alice:s3cret@127.0.0.1:5433/reg?sslmode=disable"), env(), true, "127.0.0.1:5433", defaults},
		{"lock timeout flag", args("--lock-timeout", "2s", "--store", plain), env(), true, "127.0.0.1:5433", with(map[string]string{"lock_timeout": "2000"})},
		{"lock timeout 0 is 1ms", args("--lock-timeout=0s", "--store", plain), env(), true, "127.0.0.1:5433", with(map[string]string{"lock_timeout": "1"})},
		{"lock timeout from the environment", args("--store", plain), env("AGENTS_LOCK_TIMEOUT", "1m"), true, "127.0.0.1:5433", with(map[string]string{"lock_timeout": "60000"})},
		{"bad lock timeout", args("--lock-timeout", "soon", "--store", plain), env(), true, "127.0.0.1:5433", nil},
		{"URL settings", args("--store", plain+"&search_path=reg1&application_name=ci&connect_timeout=5"), env(), true, "127.0.0.1:5433",
			with(map[string]string{"search_path": "reg1", "application_name": "ci", "idle_in_transaction_session_timeout": "50000"})},
		{"connect_timeout=0 is the default", args("--store", plain+"&connect_timeout=0"), env(), true, "127.0.0.1:5433", defaults},
		{"TLS asked for: dial only", args("--store", "postgres://alice@127.0.0.1:5433/reg"), env(), true, "127.0.0.1:5433", nil},
		{"sslmode=require: dial only", args("--store", "postgres://alice@127.0.0.1:5433/reg?sslmode=require"), env(), true, "127.0.0.1:5433", nil},
		{"no database: dial only", args("--store", "postgres://alice@127.0.0.1:5433?sslmode=disable"), env(), true, "127.0.0.1:5433", nil},
		{"another setting: dial only", args("--store", plain+"&target_session_attrs=any"), env(), true, "127.0.0.1:5433", nil},
		{"libpq environment: dial only", args("--store", plain), env("PGAPPNAME", "x"), true, "127.0.0.1:5433", nil},
		{"a hook reads no libpq environment", append(args("--store", plain), "--hook", "codex"), env("PGAPPNAME", "x"), true, "127.0.0.1:5433", defaults},
		{"a hook reads no store from the environment", append(show, "--hook", "codex"), env("AGENTS_STORE", plain), false, "", nil},
		{"no user", args("--store", "postgres://127.0.0.1/reg?sslmode=disable"), env(), false, "", nil},
		{"host name", args("--store", "postgres://alice@db.example.com/reg?sslmode=disable"), env(), false, "", nil},
		{"localhost", args("--store", "postgres://alice@localhost/reg?sslmode=disable"), env(), false, "", nil},
		{"IPv6", args("--store", "postgres://alice@[::1]:5432/reg?sslmode=disable"), env(), false, "", nil},
		{"two hosts", args("--store", "postgres://alice@127.0.0.1,127.0.0.2/reg?sslmode=disable"), env(), false, "", nil},
		{"a NUL in the user", args("--store", "postgres://a\x00database\x00x@127.0.0.1/reg?sslmode=disable"), env(), false, "", nil},
		{"not ASCII", args("--store", plain+"&application_name=caf\u00e9"), env(), false, "", nil},
		{"two @", args("--store", "postgres://a@b@127.0.0.1/reg?sslmode=disable"), env(), false, "", nil},
		{"escapes", args("--store", "postgres://al%69ce@127.0.0.1/reg?sslmode=disable"), env(), false, "", nil},
		{"a plus is a space", args("--store", plain+"&application_name=a+b"), env(), false, "", nil},
		{"repeated key", args("--store", plain+"&sslmode=disable"), env(), false, "", nil},
		{"leading zero", args("--store", "postgres://alice@127.0.0.01/reg?sslmode=disable"), env(), false, "", nil},
		{"bad port", args("--store", "postgres://alice@127.0.0.1:99999/reg?sslmode=disable"), env(), false, "", nil},
		{"a file store", args("--store", "/tmp/home"), env(), false, "", nil},
		{"no store", show, env(), false, "", nil},
		{"a built-in profile", []string{"--store", plain, "automation-profile", "show", "manual"}, env(), false, "", nil},
		{"a built-in's decision", []string{"--store", plain, "automation-profile", "check-guard", "ci", "--tool", "x"}, env(), false, "", nil},
		{"a custom profile's decision", []string{"--store", plain, "automation-profile", "check-guard", "acme/x", "--tool", "x"}, env(), true, "127.0.0.1:5433", defaults},
		{"a plan's decision", []string{"--store", plain, "automation-profile", "check-guard", "--plan", "p1", "--tool", "x"}, env(), true, "127.0.0.1:5433", defaults},
		{"a flag before the name", []string{"--store", plain, "automation-profile", "show", "-f", "json", "acme/x"}, env(), false, "", nil},
		{"plans", []string{"plan", "list", "--store", plain}, env(), true, "127.0.0.1:5433", defaults},
		{"actions", []string{"action", "show", "local/deploy", "--store", plain}, env(), true, "127.0.0.1:5433", defaults},
		{"version", []string{"--store", plain, "version"}, env(), false, "", nil},
		{"help", []string{"--store", plain, "automation-profile", "--help"}, env(), false, "", nil},
		{"after --", []string{"automation-profile", "show", "acme/x", "--", "--store", plain}, env(), false, "", nil},
		{"--home before the command", []string{"--home", "/h", "--store", plain, "automation-profile", "show", "acme/x"}, env(), true, "127.0.0.1:5433", defaults},
		{"an empty --store is the file store", args("--store="), env("AGENTS_STORE", plain), false, "", nil},
		{"an empty --store, apart", args("--store", ""), env("AGENTS_STORE", plain), false, "", nil},
		{"--store the value of another flag", []string{"automation-profile", "check-guard", "acme/x", "--category", "--store=" + plain, "--tool", "t"}, env(), false, "", nil},
		{"--store the value of -f", []string{"-f", "--store", plain, "automation-profile", "show", "acme/x"}, env(), false, "", nil},
		{"--store after a boolean flag", []string{"-q", "--store", plain, "automation-profile", "show", "acme/x"}, env(), true, "127.0.0.1:5433", defaults},
		{"--lock-timeout the value of another flag", []string{"--store", plain, "automation-profile", "check-guard", "acme/x", "--category", "--lock-timeout=1s"}, env(), false, "", nil},
		{"a host in the query", args("--store", plain+"&host=127.0.0.2"), env(), false, "", nil},
		{"a port in the query", args("--store", plain+"&port=5434"), env(), false, "", nil},
		{"a service in the query", args("--store", plain+"&service=reg"), env(), false, "", nil},
		{"PGPORT and no port in the URL", args("--store", "postgres://alice@127.0.0.1/reg?sslmode=disable"), env("PGPORT", "5434"), false, "", nil},
		{"PGSERVICE and no port in the URL", args("--store", "postgres://alice@127.0.0.1/reg?sslmode=disable"), env("PGSERVICE", "reg"), false, "", nil},
		{"PGPORT and a port in the URL: dial only", args("--store", plain), env("PGPORT", "5434"), true, "127.0.0.1:5433", nil},
		{"PGPORT and no port in the URL, for a hook too", append(args("--store", "postgres://alice@127.0.0.1/reg?sslmode=disable"), "--hook", "codex"), env("PGPORT", "5434"), false, "", nil},
		{"--print-config reads the libpq environment", append(args("--store", plain), "--hook", "codex", "--print-config"), env("PGAPPNAME", "x"), true, "127.0.0.1:5433", nil},
		{"-- as a flag's value", []string{"automation-profile", "show", "acme/x", "--home", "--", "--store", plain}, env(), false, "", nil},
		{"-- as a flag's value, before the command", []string{"--home", "--", "--store", plain, "automation-profile", "show", "acme/x"}, env("AGENTS_STORE", plain), false, "", nil},
		{"help", args("--store", plain, "--help"), env(), false, "", nil},
		{"-h", args("--store", plain, "-h"), env(), false, "", nil},
		{"a value with a second =", args("--store", plain+"&application_name=a=b"), env(), false, "", nil},
		{"a schema the store refuses: dial only", args("--store", plain+"&search_path=Reg"), env(), true, "127.0.0.1:5433", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := guessFrom(tc.args, tc.env)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tc.ok, g)
			}
			if !ok {
				return
			}
			if g.Network != "tcp" || g.Address != tc.addr {
				t.Errorf("dials %s %s, want tcp %s", g.Network, g.Address, tc.addr)
			}
			if !reflect.DeepEqual(g.Params, tc.params) {
				t.Errorf("params\n got %v\nwant %v", g.Params, tc.params)
			}
		})
	}
}

// TestAhead: statements go behind the start-up message only when the
// driver can have no password to give (the server would read them as
// one): the lookup of the profile a show or a decision names, else a
// warm-up of the tables the command reads.
func TestAhead(t *testing.T) {
	home := t.TempDir()
	withPass := t.TempDir()
	if err := os.WriteFile(filepath.Join(withPass, ".pgpass"), []byte("*:*:*:*:x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	lookup := Lookup(DefaultSchema, "profiles", "acme/x")
	warm := func(tables ...string) []byte { return EncodeQuery(Warmup(DefaultSchema, tables)) }
	long := "acme/" + strings.Repeat("x", maxAheadName)
	for _, tc := range []struct {
		name string
		args []string
		env  func(string) string
		want []byte
	}{
		{"a profile", []string{"--store", plain, "automation-profile", "show", "acme/x"}, env("HOME", home), lookup},
		{"flags around", []string{"--store", plain, "-f", "json", "automation-profile", "show", "acme/x", "-f", "yaml"}, env("HOME", home), lookup},
		{"a custom profile's guard", []string{"--store", plain, "automation-profile", "check-guard", "acme/x", "--tool", "Read"}, env("HOME", home), lookup},
		{"a custom profile's gate", []string{"--store", plain, "automation-profile", "check-gate", "acme/x", "auto_execute"}, env("HOME", home), lookup},
		{"a very long name", []string{"--store", plain, "automation-profile", "show", long}, env("HOME", home), warm("profiles")},
		{"history", []string{"--store", plain, "automation-profile", "history", "acme/x"}, env("HOME", home), warm("profiles")},
		{"a plan's decision", []string{"--store", plain, "automation-profile", "check-guard", "--plan", "p1"}, env("HOME", home), warm("plans", "profiles")},
		{"plans", []string{"--store", plain, "plan", "show", "p1"}, env("HOME", home), warm("plans", "profiles")},
		{"actions", []string{"--store", plain, "action", "list"}, env("HOME", home), warm("actions")},
		{"a hook reads its input first", []string{"--store", plain, "automation-profile", "check-guard", "acme/x", "--hook", "claude-code"}, env("HOME", home), warm("profiles")},
		{"--stdin-json reads its input first", []string{"--store", plain, "automation-profile", "check-guard", "acme/x", "--stdin-json"}, env("HOME", home), warm("profiles")},
		{"--stdin-json=true too", []string{"--store", plain, "automation-profile", "check-guard", "acme/x", "--stdin-json=true"}, env("HOME", home), warm("profiles")},
		{"a password file", []string{"--store", plain, "automation-profile", "show", "acme/x"}, env("HOME", withPass), nil},
		{"PGPASSFILE", []string{"--store", plain, "automation-profile", "show", "acme/x"}, env("HOME", home, "PGPASSFILE", "/x"), nil},
		{"PGPASSWORD", []string{"--store", plain, "automation-profile", "show", "acme/x"}, env("HOME", home, "PGPASSWORD", "x"), nil},
		{"no home", []string{"--store", plain, "automation-profile", "show", "acme/x"}, env(), nil},
		{"a password in the URL", []string{"--store", "postgres://alice:pw@127.0.0.1:5433/reg?sslmode=disable", "automation-profile", "show", "acme/x"}, env("HOME", home), nil},
		{"an empty password in the URL", []string{"--store", "postgres://alice:@127.0.0.1:5433/reg?sslmode=disable", "automation-profile", "show", "acme/x"}, env("HOME", home), nil},
		{"no start-up sent", []string{"--store", "postgres://alice@127.0.0.1:5433/reg", "automation-profile", "show", "acme/x"}, env("HOME", home), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := guessFrom(tc.args, tc.env)
			if !ok {
				t.Fatal("no guess")
			}
			if !bytes.Equal(g.Ahead, tc.want) {
				t.Errorf("ahead %q, want %q", g.Ahead, tc.want)
			}
		})
	}
	for _, table := range []string{"profiles", "plans", "actions"} {
		if !strings.Contains(Warmup(DefaultSchema, []string{table}), "FROM "+table+" WHERE name = ''") || !strings.HasPrefix(Warmup(DefaultSchema, nil), "SELECT set_config('lock_timeout', '1', true); ") {
			t.Errorf("Warmup(%s) = %q", table, Warmup(DefaultSchema, []string{table}))
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	p := map[string]string{"user": "alice", "database": "reg", "b": "", "a": "x y"}
	b := Encode(protocol30, p)
	// Written out by hand: length, version 3.0, the pairs sorted.
	want := []byte("\x00\x00\x00\x2a\x00\x03\x00\x00a\x00x y\x00b\x00\x00database\x00reg\x00user\x00alice\x00\x00")
	if !bytes.Equal(b, want) {
		t.Fatalf("Encode = %q, want %q", b, want)
	}
	v, got, ok := Decode(b)
	if !ok || v != protocol30 || !reflect.DeepEqual(got, p) {
		t.Fatalf("Decode = %x %v %v", v, got, ok)
	}
	for _, bad := range [][]byte{
		nil,
		want[:len(want)-1],                   // length disagrees
		append(append([]byte{}, want...), 0), // length disagrees
		[]byte("\x00\x00\x00\x0c\x00\x03\x00\x00a\x00b\x00"),               // no final NUL pair end
		[]byte("\x00\x00\x00\x11\x00\x03\x00\x00a\x00x\x00a\x00y\x00\x00"), // a name twice
	} {
		if _, _, ok := Decode(bad); ok {
			t.Errorf("Decode(%q) accepted", bad)
		}
	}
}

// TestImportsOnlyEarlyPackages: the package imports nothing that a Go
// program initializes late (os, strings and encoding/binary wait for
// unicode, reflect and more), so that its init, and the connection it
// begins, come early in the process's start.
func TestImportsOnlyEarlyPackages(t *testing.T) {
	allowed := []string{"context", "errors", "strconv", "sync", "syscall", "time"}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		ctx := build.Default
		ctx.GOOS = goos
		bp, err := ctx.ImportDir(".", 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range bp.Imports {
			if !slices.Contains(allowed, imp) {
				t.Errorf("%s: the package imports %s; it may import only %v", goos, imp, allowed)
			}
		}
	}
}
