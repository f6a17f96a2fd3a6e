package cmdutil_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/cli/cmdutil/cmdtest"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/registry"
)

func TestGroup(t *testing.T) {
	e := cmdtest.New(t, "json")
	verb := func(use string) cmdutil.Verb {
		return cmdutil.NewVerb(use, func() *cobra.Command {
			return &cobra.Command{Use: use, RunE: func(*cobra.Command, []string) error { return nil }}
		})
	}
	deps := &cmdutil.Deps{}
	g := cmdutil.Group(deps, "widget", &cobra.Command{Short: "Manage widgets"}, verb("show"), verb("list"))
	if g.Use != "widget <command>" || g.Name() != "widget" {
		t.Errorf("Use = %q, Name = %q", g.Use, g.Name())
	}
	names := func(c *cobra.Command) (out []string) {
		for _, v := range c.Commands() {
			out = append(out, v.Name())
		}
		return out
	}
	for _, tt := range []struct {
		branch []string
		want   string
	}{
		{nil, "list show"},
		{[]string{"widget", "show", "x"}, "show"},
		{[]string{"widget", "shwo"}, "list show"},
		{[]string{"widget"}, "list show"},
		{[]string{"gadget", "show"}, "list show"},
	} {
		d := &cmdutil.Deps{Branch: tt.branch}
		c := cmdutil.Group(d, "widget", &cobra.Command{}, verb("show"), verb("list"))
		if got := strings.Join(names(c), " "); got != tt.want {
			t.Errorf("branch %q built %q, want %q", tt.branch, got, tt.want)
		}
	}
	if err := e.Run(g, "shwo"); !errs.Is(err, errs.KindUsage) || !strings.Contains(err.Error(), `"shwo"`) {
		t.Errorf("an unknown verb: %v", err)
	}
	if err := e.Run(g); err != nil || !strings.Contains(e.Out.String(), "Manage widgets") {
		t.Errorf("no verb printed %q, %v", e.Out, err)
	}
}

type argOptions struct{ name string }

func TestRunEArg(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{{nil, ""}, {[]string{"acme/x"}, "acme/x"}} {
		opts := &argOptions{name: ""}
		var ran, intercepted *argOptions
		run := func(o *argOptions) error { ran = o; return nil }
		if err := cmdutil.RunEArg(opts, nil, run, &opts.name)(nil, tt.args); err != nil || ran != opts || opts.name != tt.want {
			t.Errorf("%q: run got %+v (%v), name %q", tt.args, ran, err, opts.name)
		}
		ran = nil
		runF := func(o *argOptions) error { intercepted = o; return nil }
		if err := cmdutil.RunEArg(opts, runF, run, &opts.name)(nil, tt.args); err != nil || ran != nil || intercepted != opts {
			t.Errorf("%q: a test's runF was not the one called: run %v, runF %v", tt.args, ran, intercepted)
		}
	}
}

func kind(k errs.Kind) *errs.Kind { return &k }

type doc struct{ Name, Kind string }

func TestRemove(t *testing.T) {
	tests := []struct {
		name    string
		yes     bool
		found   bool
		wantOut bool
		wantErr *errs.Kind
	}{
		{"confirmed by --yes", true, true, true, nil},
		{"not found", true, false, false, kind(errs.KindNotFound)},
		{"no terminal and no --yes", false, true, false, kind(errs.KindUsage)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := cmdtest.New(t, "json")
			e.Deps.SetConfig(e.Deps.Config)
			var asked string
			remove := func(name string, confirm registry.Confirm) (*doc, error) {
				asked = name
				if !tt.found {
					return nil, errs.NotFound("widget %q not found", name)
				}
				// --yes asks nothing: the confirmation is nil.
				if (confirm == nil) != tt.yes {
					t.Errorf("confirmation nil = %v with --yes %v", confirm == nil, tt.yes)
				}
				if confirm != nil {
					if ok, err := confirm(); !ok || err != nil {
						return nil, err
					}
				}
				return &doc{Name: "acme/stored", Kind: "widget"}, nil
			}
			err := cmdutil.Remove(e.Deps.UI(), "widget", "acme/given", tt.yes, remove, func(d *doc) string { return d.Name })
			e.Deps.UI().Flush()
			if asked != "acme/given" {
				t.Errorf("removed %q, not the name given", asked)
			}
			if tt.wantErr != nil && !errs.Is(err, *tt.wantErr) || tt.wantErr == nil && err != nil {
				t.Fatalf("err = %v, want kind %v", err, tt.wantErr)
			}
			var printed doc
			if !tt.wantOut {
				if e.Out.Len() != 0 {
					t.Errorf("printed %q", e.Out)
				}
				return
			}
			if err := json.Unmarshal(e.Out.Bytes(), &printed); err != nil || printed.Name != "acme/stored" || printed.Kind != "widget" {
				t.Errorf("printed %q (%v), want the removed document", e.Out, err)
			}
			// A person is told the name the store had, not the one given.
			e.Out.Reset()
			e.Deps.Config.Format = "plain"
			if err := cmdutil.Remove(e.Deps.UI(), "widget", "acme/given", tt.yes, remove, func(d *doc) string { return d.Name }); err != nil ||
				!strings.Contains(e.Out.String(), "acme/stored") || strings.Contains(e.Out.String(), "acme/given") {
				t.Errorf("plain: printed %q, %v", e.Out, err)
			}
		})
	}
}

type filesOptions struct{ files []string }

func TestRunEArgs(t *testing.T) {
	opts := &filesOptions{}
	var ran *filesOptions
	run := func(o *filesOptions) error { ran = o; return nil }
	if err := cmdutil.RunEArgs(opts, nil, run, &opts.files)(nil, []string{"b.yaml", "a.yaml"}); err != nil || ran != opts ||
		strings.Join(opts.files, ",") != "b.yaml,a.yaml" {
		t.Errorf("ran %v (%v), files %q", ran, err, opts.files)
	}
}

func TestNameFlag(t *testing.T) {
	e := cmdtest.New(t, "json")
	var got string
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	cmdutil.NameFlag(cmd, e.Deps, &got, "plan", "the plan", cmdutil.PlanIDs)
	if _, ok := cmd.GetFlagCompletionFunc("plan"); !ok {
		t.Error("--plan is not completed")
	}
	if err := e.Run(cmd, "--plan", "01jq"); err != nil || got != "01jq" {
		t.Errorf("--plan 01jq gave %q, %v", got, err)
	}
}

func TestConfigFlagsTakeNoArguments(t *testing.T) {
	e := cmdtest.New(t, "json")
	var config string
	var update bool
	cmd := &cobra.Command{Use: "add", RunE: func(*cobra.Command, []string) error { return nil }}
	cmdutil.ConfigFlags(cmd, &config, &update, "the file", "replace it")
	if err := e.Run(cmd, "-c", "a.yaml", "--update"); err != nil || config != "a.yaml" || !update {
		t.Errorf("-c a.yaml --update: %q %v, %v", config, update, err)
	}
	if err := e.Run(cmd, "-c", "a.yaml", "extra"); !errs.Is(err, errs.KindUsage) || !strings.Contains(err.Error(), "given with --config") {
		t.Errorf("an argument: %v", err)
	}
}
