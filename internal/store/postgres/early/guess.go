package early

import (
	"strconv"
	"time"
)

// libpqEnv are the libpq environment variables that change where or how a
// connection is made, or what its start-up message holds (the password's
// do not).
var libpqEnv = []string{"PGHOST", "PGPORT", "PGDATABASE", "PGUSER", "PGAPPNAME", "PGCONNECT_TIMEOUT",
	"PGSSLMODE", "PGSSLKEY", "PGSSLCERT", "PGSSLCERTMODE", "PGSSLSNI", "PGSSLROOTCERT", "PGSSLPASSWORD",
	"PGSSLNEGOTIATION", "PGTARGETSESSIONATTRS", "PGSERVICE", "PGSERVICEFILE", "PGTZ", "PGOPTIONS",
	"PGMINPROTOCOLVERSION", "PGMAXPROTOCOLVERSION", "PGCHANNELBINDING", "PGREQUIREAUTH"}

// guessFrom reads the store URL and the lock timeout from the command line
// and the environment as the command will, and returns what to connect
// to; ok is false when there is nothing to do early.
func guessFrom(args []string, getenv func(string) string) (g Guess, ok bool) {
	words, plan := commandWords(args)
	tables := readsStore(words, plan)
	if tables == nil {
		return Guess{}, false
	}
	a := scanArgs(args)
	if a.unsure || a.help {
		return Guess{}, false
	}
	if a.printConfig {
		a.hook = false // not a hook: the command reads the environment
	}
	url, lockTimeout := a.store, a.lockTimeout
	if !a.storeSet && !a.hook {
		// A hook reads no store from the environment; an empty --store
		// names the file store.
		url = getenv("AGENTS_STORE")
	}
	if lockTimeout == "" {
		lockTimeout = getenv("AGENTS_LOCK_TIMEOUT")
	}
	u, ok := parseURL(url)
	if !ok {
		return Guess{}, false
	}
	for _, k := range []string{"host", "hostaddr", "port", "service", "servicefile"} {
		if _, set := u.query[k]; set {
			return Guess{}, false // the server is not the one the URL's authority names
		}
	}
	if !u.portGiven && (getenv("PGPORT") != "" || getenv("PGSERVICE") != "" || getenv("PGSERVICEFILE") != "") {
		// The port may come from the environment (a --hook that does
		// not make the command a hook's leaves it read).
		return Guess{}, false
	}
	g = Guess{Network: "tcp", Address: u.host + ":" + u.port}
	if a.hook {
		// A hook's store is reached by its URL alone: the environment is
		// not read (postgres.Options.URLOnly).
	} else {
		for _, v := range libpqEnv {
			if getenv(v) != "" {
				return g, true
			}
		}
	}
	g.Params = startupParams(u, lockTimeout)
	if g.Params != nil && !u.password && noPassword(getenv) {
		if name := lookedUp(words, plan); name != "" && !a.stdin {
			// A command that reads its input first (a hook's, or
			// --stdin-json) looks the profile up only once it has read
			// it, however long that takes: it gets the warm-up, so that
			// its decision is made on the profile as it is then.
			g.Ahead = Lookup(g.Params["search_path"], "profiles", name)
		} else {
			g.Ahead = EncodeQuery(Warmup(g.Params["search_path"], tables))
		}
	}
	return g, true
}

// noPassword reports whether the driver will have no password to give the
// server (none in the environment, no password file), so that the server
// cannot be asked for one: it would read the statements sent behind the
// start-up message as the password and end the session.
func noPassword(getenv func(string) string) bool {
	if getenv("PGPASSWORD") != "" || getenv("PGPASSFILE") != "" {
		return false
	}
	home := getenv("HOME")
	if home == "" {
		return false
	}
	return absent(home + "/.pgpass")
}

// commandWords returns the first three words of the command line args
// names, global flags and their values passed over: the group, the verb
// and what follows the verb ("" when a flag does). plan says a --plan
// stands among them; a "--" among them returns nothing.
func commandWords(args []string) (words []string, plan bool) {
	for i := 0; i < len(args) && len(words) < 3; i++ {
		a := args[i]
		switch {
		case a == "--":
			return nil, false
		case a == "--plan" || hasPrefix(a, "--plan="):
			return words, true
		case a == "--home" || a == "--store" || a == "--format" || a == "-f" || a == "--lock-timeout":
			if len(words) < 2 {
				i++ // a global flag's value, before the command
			} else {
				words = append(words, "")
			}
		case hasPrefix(a, "-"):
			if len(words) == 2 {
				words = append(words, "")
			}
		default:
			words = append(words, a)
		}
	}
	return words, false
}

// readsStore returns the tables the command args name reads for certain:
// a command on actions or plans, a decision on a plan, or one on a custom
// profile (namespace/name) named right after the verb; nil for every
// other command, a built-in profile's above all, which may never connect
// (a connection made for nothing costs the server a backend).
func readsStore(words []string, plan bool) []string {
	if plan {
		return []string{"plans", "profiles"}
	}
	if len(words) < 2 {
		return nil
	}
	switch words[0] {
	case "action":
		return []string{"actions"}
	case "plan":
		switch words[1] {
		case "show", "use", "set-automation-profile", "list":
			return []string{"plans", "profiles"}
		}
	case "automation-profile":
		switch words[1] {
		case "show", "check-guard", "check-gate", "history", "diff":
			if len(words) == 3 && indexByte(words[2], '/') >= 0 {
				return []string{"profiles"}
			}
		}
	}
	return nil
}

// lookedUp returns the custom profile whose lookup is the first thing the
// command words name does with the store (show, check-guard, check-gate),
// or "".
func lookedUp(words []string, plan bool) string {
	if plan || len(words) < 3 || words[0] != "automation-profile" || len(words[2]) > maxAheadName || indexByte(words[2], '/') < 0 {
		return ""
	}
	switch words[1] {
	case "show", "check-guard", "check-gate":
		return words[2]
	}
	return ""
}

// commandArgs is what scanArgs finds on the command line.
type commandArgs struct {
	store, lockTimeout string // the last --store and --lock-timeout, before a "--"
	storeSet           bool   // --store was given, if with an empty value
	hook               bool   // --hook stands anywhere
	stdin              bool   // --hook or --stdin-json: the command reads its input first
	printConfig        bool   // --print-config: the command prints a hook's settings, and answers none
	help               bool   // --help or -h: the command prints its help, and reads no store
	// unsure: a --store or --lock-timeout follows a flag that may take it
	// as its value (pflag gives a flag the next argument whatever it
	// looks like), so what the command will use is not known here.
	unsure bool
}

// booleanFlags are the flags of the commands package early acts for that
// take no value: one of them before --store leaves it a flag of its own.
var booleanFlags = []string{"--quiet", "-q", "--sandboxed", "--checkpointed", "--no-sandbox", "--no-checkpoint",
	"--unsafe", "--abstain", "--stdin-json", "--builtin", "--only-differences", "--write", "--print-config", "--help", "-h"}

// scanArgs reads the command line as the flag parser will, as far as
// package early needs it.
func scanArgs(args []string) (a commandArgs) {
	ended := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--hook" || hasPrefix(arg, "--hook=") {
			a.hook, a.stdin = true, true
		}
		if arg == "--stdin-json" || hasPrefix(arg, "--stdin-json=") {
			a.stdin = true
		}
		if arg == "--print-config" || hasPrefix(arg, "--print-config=") {
			a.printConfig = true
		}
		if arg == "--help" || arg == "-h" || hasPrefix(arg, "--help=") {
			a.help = true
		}
		if ended {
			continue
		}
		if arg == "--" {
			if i > 0 && takesValue(args[i-1]) {
				// A flag's value, not the end of the flags: what
				// follows is read as flags.
				a.unsure = true
			}
			ended = true
			continue
		}
		name, value, inline := arg, "", false
		if k, v, found := cut(arg, '='); found && hasPrefix(arg, "--") {
			name, value, inline = k, v, true
		}
		var to *string
		switch name {
		case "--store":
			to, a.storeSet = &a.store, true
		case "--lock-timeout":
			to = &a.lockTimeout
		default:
			continue
		}
		if i > 0 && takesValue(args[i-1]) {
			a.unsure = true
		}
		if !inline {
			if i+1 == len(args) {
				continue
			}
			i++
			value = args[i]
		}
		*to = value
	}
	return a
}

// takesValue reports whether arg is a flag that may take the next
// argument as its value.
func takesValue(arg string) bool {
	if !hasPrefix(arg, "-") || arg == "--" || indexByte(arg, '=') >= 0 {
		return false
	}
	for _, f := range booleanFlags {
		if arg == f {
			return false
		}
	}
	return true
}

// storeURL is the part of a store URL the early connection uses.
type storeURL struct {
	user, host, port, database string
	password                   bool // the URL holds one
	portGiven                  bool // the URL names the port
	query                      map[string]string
}

// parseURL reads postgres://user[:password]@a.b.c.d[:port][/database][?k=v&...]
// written plainly: no percent-escapes, no '+' (a query's space), one host
// given by its IPv4 address. Anything else is left to the driver.
func parseURL(s string) (storeURL, bool) {
	var u storeURL
	rest, ok := cutPrefix(s, "postgres://")
	if !ok {
		if rest, ok = cutPrefix(s, "postgresql://"); !ok {
			return u, false
		}
	}
	if indexAny(rest, "%+#,\\") >= 0 {
		return u, false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] <= ' ' || rest[i] >= 0x7f {
			// Spaces, control bytes (a NUL would end a name in the
			// start-up message and begin another) and all but ASCII.
			return u, false
		}
	}
	authority, tail := rest, ""
	if i := indexAny(rest, "/?"); i >= 0 {
		authority, tail = rest[:i], rest[i:]
	}
	at := indexByte(authority, '@')
	if at < 0 || countByte(authority, '@') != 1 {
		return u, false // a second '@' is refused by the store (storeurl.CheckAuthority)
	}
	u.user, _, u.password = cut(authority[:at], ':')
	if u.user == "" {
		return u, false
	}
	hostport := authority[at+1:]
	u.host, u.port, _ = cut(hostport, ':')
	u.portGiven = u.port != ""
	if u.port == "" {
		u.port = "5432"
	}
	if _, _, err := splitAddress(u.host + ":" + u.port); err != nil {
		return u, false
	}
	path, query, _ := cut(tail, '?')
	u.database, _ = cutPrefix(path, "/")
	if indexByte(u.database, '/') >= 0 {
		return u, false
	}
	u.query = map[string]string{}
	if query != "" {
		for rest := query; ; {
			kv, more, found := cut(rest, '&')
			k, v, _ := cut(kv, '=')
			if _, dup := u.query[k]; dup || k == "" || indexByte(v, '=') >= 0 {
				return u, false // a second '=' the driver refuses
			}
			u.query[k] = v
			if !found {
				break
			}
			rest = more
		}
	}
	return u, true
}

// startupParams are the parameters the store sends when it connects to u,
// or nil when u leaves some of them to the driver or its defaults: the
// user, the database, sslmode=disable (otherwise a TLS request goes
// first), and no query key but those below.
func startupParams(u storeURL, lockTimeout string) map[string]string {
	if u.database == "" || u.query["sslmode"] != "disable" {
		return nil
	}
	p := map[string]string{"user": u.user, "database": u.database}
	connectTimeout := DefaultConnectTimeout
	for k, v := range u.query {
		switch k {
		case "sslmode":
		case "connect_timeout":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 || n > 1<<31 {
				return nil
			}
			if n > 0 {
				connectTimeout = time.Duration(n) * time.Second
			}
		case "search_path":
			if !PlainIdent(v) {
				return nil // the store refuses it, or reads another schema from it
			}
			p[k] = v
		case "application_name", "lock_timeout", "idle_in_transaction_session_timeout":
			p[k] = v
		default:
			return nil
		}
	}
	lt := DefaultLockTimeout
	if lockTimeout != "" {
		d, err := time.ParseDuration(lockTimeout)
		if err != nil || d < 0 {
			return nil
		}
		lt = d
	}
	setDefault(p, "search_path", DefaultSchema)
	setDefault(p, "application_name", DefaultAppName)
	setDefault(p, "lock_timeout", strconv.FormatInt(max(1, lt.Milliseconds()), 10))
	setDefault(p, "idle_in_transaction_session_timeout", strconv.FormatInt(max(1, (ReplyTimeoutFactor*connectTimeout).Milliseconds()), 10))
	return p
}

func setDefault(p map[string]string, k, v string) {
	if p[k] == "" {
		p[k] = v
	}
}

// PlainIdent reports whether s is a lower-case SQL identifier that needs
// no quoting, as the store requires of a schema's name: a letter or
// underscore, then letters, digits or underscores, at most 63 bytes.
// (Checked by hand: a regular expression compiled at start-up would cost
// every agents process, whatever its store.)
func PlainIdent(s string) bool {
	if s == "" || len(s) > 63 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
