package automationprofile

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/schema"
)

func runSchema(t *testing.T, kind, format string) string {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	deps := &cmdutil.Deps{IO: ios, Config: cmdutil.Config{Format: format}}
	if err := schemaRun(&schemaOptions{Run: deps.Run(), kind: kind}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestSchemaKindFlag(t *testing.T) {
	tests := []struct {
		args    []string
		want    string
		wantErr bool
	}{
		{nil, schema.Profile, false},
		{[]string{"--kind", "action"}, schema.Action, false},
		{[]string{"--kind=safety-pack"}, schema.SafetyPack, false},
		{[]string{"--kind", "nope"}, "", true},
		{[]string{"extra"}, "", true},
	}
	for _, tt := range tests {
		var got string
		cmd := newSchemaCmd(&cmdutil.Deps{}, func(o *schemaOptions) error { got = o.kind; return nil })
		cmd.SetArgs(tt.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if tt.wantErr {
			if err == nil {
				t.Errorf("%v: want an error", tt.args)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%v: kind %q, err %v; want %q", tt.args, got, err, tt.want)
		}
	}
	cmd := newSchemaCmd(&cmdutil.Deps{}, func(*schemaOptions) error { return nil })
	cmd.SetArgs([]string{"--kind", "nope"})
	cmd.SetErr(&bytes.Buffer{})
	if err := cmd.Execute(); !errs.Is(err, errs.KindUsage) {
		t.Errorf("unknown kind: got %v, want a usage error", err)
	}
}

// TestSchemaPrintsTheBundle checks every format but table prints the
// stand-alone schema, json, plain and rich byte for byte alike.
func TestSchemaPrintsTheBundle(t *testing.T) {
	for _, kind := range schema.Names() {
		want, err := schema.Bundle(kind)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"json", "plain", "rich"} {
			if got := runSchema(t, kind, f); got != string(want) {
				t.Errorf("%s -f %s: output is not the bundled schema", kind, f)
			}
		}
		var fromJSON, fromYAML any
		if err := json.Unmarshal(want, &fromJSON); err != nil {
			t.Fatal(err)
		}
		y := runSchema(t, kind, "yaml")
		if err := yaml.Unmarshal([]byte(y), &fromYAML); err != nil {
			t.Fatalf("%s -f yaml: %v", kind, err)
		}
		// Compare through JSON, which gives both sides the same number types.
		b, _ := json.Marshal(fromYAML)
		var norm any
		_ = json.Unmarshal(b, &norm)
		if !reflect.DeepEqual(norm, fromJSON) {
			t.Errorf("%s -f yaml is not the same document as -f json", kind)
		}
		if !strings.HasPrefix(y, "$schema: ") {
			t.Errorf("%s -f yaml does not keep the key order:\n%.60s", kind, y)
		}
	}
}

// TestSchemaTable checks the rows the table format lists (field, type,
// required), independent of how the table renderer draws them.
func TestSchemaTable(t *testing.T) {
	tests := []struct {
		kind string
		rows [][3]string
	}{
		{schema.Profile, [][3]string{
			{"name", "profile name", "yes"},
			{"schema_version", `"1.0"`, ""},
			{"auto_checkpoint_restore", "number 0..1", ""},
			{"safety.max_retries_per_step", "integer 0..100", ""},
			{"safety.max_cost_per_plan", "number >= 0 or null", ""},
			{"guards", "object or null", ""},
			{"guards.tool_allowlist", "array of non-blank string or null", ""},
		}},
		{schema.Action, [][3]string{
			{"name", "namespace/name", "yes"},
			{"automation_profile", "null or profile name", ""},
			{"safety_profile.require_sandbox", "boolean", ""},
		}},
		{schema.SafetyPack, [][3]string{
			{"schema_version", `"1.0.0"`, "yes"},
			{"boundary_ids", "array of string", "yes"},
		}},
	}
	for _, tt := range tests {
		doc, err := schema.Bundle(tt.kind)
		if err != nil {
			t.Fatal(err)
		}
		v, err := render.NewSchemaView(doc)
		if err != nil {
			t.Fatal(err)
		}
		tables := v.Tables()
		if len(tables) != 1 || len(tables[0].Header) != 4 {
			t.Fatalf("%s: tables %v, want one of four columns", tt.kind, tables)
		}
		got := map[[3]string]bool{}
		for _, r := range tables[0].Rows {
			got[[3]string{r[0], r[1], r[2]}] = true
			if r[3] == "" {
				t.Errorf("%s: field %s has no description", tt.kind, r[0])
			}
		}
		for _, r := range tt.rows {
			if !got[r] {
				t.Errorf("%s: no row %q in %v", tt.kind, r, tables[0].Rows)
			}
		}
	}
}

func TestSchemaHelpShowsModeline(t *testing.T) {
	cmd := newSchemaCmd(&cmdutil.Deps{}, nil)
	if !strings.Contains(cmd.Long, "# yaml-language-server: $schema=") {
		t.Error("help lacks the yaml-language-server modeline")
	}
}
