package postgres

import (
	"os"
	"path/filepath"

	"github.com/jackc/pgservicefile"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/safefile"
)

// fileSettings are the settings that name a file the driver reads as it
// parses the URL, with the environment variable that may name it instead.
var fileSettings = []struct{ key, env string }{
	{"servicefile", "PGSERVICEFILE"},
	{"passfile", "PGPASSFILE"},
	{"sslrootcert", "PGSSLROOTCERT"},
	{"sslcert", "PGSSLCERT"},
	{"sslkey", "PGSSLKEY"},
}

// checkFiles refuses (invalid input, exit 3) the files the store's settings
// could have the driver read that are there but are not regular files: a
// FIFO, a device, a folder. The driver reads them whole, with no limit and
// no deadline, so a FIFO nobody writes would leave the command waiting and
// /dev/zero would fill its memory. Every place a file may be named counts,
// whichever of them the driver would take: the URL, the service it names
// (its file checked before it is read), the environment, and the files
// under the home the driver reads by default. The messages name the
// setting and the file, never the URL.
func checkFiles(url string) error {
	q := query(url)
	home, _ := os.UserHomeDir()
	defaults := map[string]string{}
	if home != "" {
		defaults = map[string]string{
			"servicefile": filepath.Join(home, ".pg_service.conf"),
			"passfile":    filepath.Join(home, ".pgpass"),
			"sslrootcert": filepath.Join(home, ".postgresql", "root.crt"),
			"sslcert":     filepath.Join(home, ".postgresql", "postgresql.crt"),
			"sslkey":      filepath.Join(home, ".postgresql", "postgresql.key"),
		}
	}
	// named holds, for each setting, where a file is named and the file.
	named := map[string][][2]string{}
	for _, set := range fileSettings {
		named[set.key] = [][2]string{
			{"the store URL's " + set.key, q[set.key]},
			{set.env, os.Getenv(set.env)},
			{"the default " + set.key, defaults[set.key]},
		}
	}
	check := func(key string) error {
		for _, n := range named[key] {
			if key == "sslrootcert" && n[1] == "system" {
				continue // the system's CAs, no file
			}
			if err := regular(n[0], n[1]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := check("servicefile"); err != nil {
		return err
	}
	if svc := firstSet(q["service"], os.Getenv("PGSERVICE")); svc != "" {
		file := firstSet(q["servicefile"], os.Getenv("PGSERVICEFILE"), defaults["servicefile"])
		if sf, err := pgservicefile.ReadServicefile(file); err == nil {
			if s, err := sf.GetService(svc); err == nil {
				for _, set := range fileSettings {
					named[set.key] = append(named[set.key], [2]string{"service " + svc + "'s " + set.key, s.Settings[set.key]})
				}
			}
		}
	}
	for _, set := range fileSettings[1:] {
		if err := check(set.key); err != nil {
			return err
		}
	}
	return nil
}

// regular refuses file, named by where, when it is there and is not a
// regular file (where a link leads counts).
func regular(where, file string) error {
	if file == "" {
		return nil
	}
	info, err := os.Stat(file)
	if err != nil || info.Mode().IsRegular() {
		return nil // a file not there, or unreadable, is the driver's to report
	}
	return errs.New(errs.KindInvalid, "%s is %s, %s, not a regular file", where, file, safefile.Describe(info.Mode())).
		WithHint("name a regular file there: the PostgreSQL driver reads the file whole, so a pipe or device could leave the command waiting")
}
