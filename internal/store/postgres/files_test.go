//go:build unix

package postgres_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store/postgres"
)

// TestFilesThatAreNotRegular: a file the driver would read as the URL is
// parsed (a root certificate, a client certificate or key, a password or
// service file) that is a FIFO, a device or a folder is refused at once as
// invalid, naming where it was named: the driver reads such files whole
// with no deadline, so a FIFO would leave the command waiting and
// /dev/zero would fill its memory.
func TestFilesThatAreNotRegular(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	for _, v := range []string{"PGSERVICEFILE", "PGPASSFILE", "PGSSLROOTCERT", "PGSSLCERT", "PGSSLKEY", "PGSERVICE"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	svc := filepath.Join(dir, "services.conf")
	if err := os.WriteFile(svc, []byte("[reg]\nhost=127.0.0.1\nport=1\nsslmode=verify-full\nsslrootcert="+fifo+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const base = "postgres://someone:hunter2secret@127.0.0.1:1/db"
	tests := []struct {
		url, env, value string
		where           string
	}{
		{base + "?sslmode=verify-full&sslrootcert=" + fifo, "", "", "the store URL's sslrootcert is " + fifo + ", a FIFO"},
		{base + "?sslmode=verify-full&sslrootcert=/dev/zero", "", "", "/dev/zero, a character device"},
		{base + "?sslcert=" + fifo + "&sslkey=" + fifo, "", "", "sslcert is " + fifo},
		{base + "?passfile=" + dir, "", "", "passfile is " + dir + ", a directory"},
		{base, "PGSSLROOTCERT", fifo, "PGSSLROOTCERT is " + fifo},
		{"postgres:///db?service=reg", "PGSERVICEFILE", svc, "service reg's sslrootcert is " + fifo},
		{base + "?servicefile=/dev/null&service=reg", "", "", "servicefile is /dev/null, a character device"},
	}
	for _, tt := range tests {
		if tt.env != "" {
			t.Setenv(tt.env, tt.value)
		}
		done := make(chan error, 1)
		go func() {
			_, err := postgres.Open(tt.url, postgres.Options{})
			done <- err
		}()
		select {
		case err := <-done:
			if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), tt.where) || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("%s: %v, want invalid input saying %q", tt.url, err, tt.where)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still waiting after 5 s", tt.url)
		}
		if tt.env != "" {
			os.Unsetenv(tt.env)
		}
	}
	// The system's CAs are no file; a regular file passes.
	crt := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(crt, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := postgres.Open(base+"?sslmode=verify-full&sslrootcert=system", postgres.Options{}); err != nil {
		t.Errorf("sslrootcert=system: %v", err)
	}
	if _, err := postgres.Open(base+"?sslmode=disable&passfile="+crt, postgres.Options{}); err != nil {
		t.Errorf("a regular passfile: %v", err)
	}
}
