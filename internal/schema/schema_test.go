package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	schemafiles "github.com/agentsctl/agents/docs/schema"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/schema"
	"github.com/agentsctl/agents/internal/schema/schemacheck"
	"github.com/agentsctl/agents/profiles"
)

// corpusFile is one document of the test corpus.
type corpusFile struct {
	kind string // schema name
	path string // relative to testdata, for messages
	data []byte
}

// corpus returns the documents under testdata/<group>/<kind>/.
func corpus(t *testing.T, group string) []corpusFile {
	t.Helper()
	var out []corpusFile
	for _, kind := range schema.Names() {
		dir := filepath.Join("testdata", group, kind)
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, corpusFile{
				kind: kind,
				path: path.Join(group, kind, e.Name()),
				data: data,
			})
		}
	}
	if len(out) == 0 {
		t.Fatalf("no documents under testdata/%s", group)
	}
	return out
}

func problemsOf(t *testing.T, err error) []errs.Problem {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.KindInvalid {
		t.Fatalf("error %v is not an invalid-input error", err)
	}
	if len(e.Problems) == 0 {
		t.Fatalf("error %v carries no problems", err)
	}
	return e.Problems
}

func TestValidDocumentsPass(t *testing.T) {
	for _, c := range append(corpus(t, "valid"), corpus(t, "only-go-refuses")...) {
		t.Run(c.path, func(t *testing.T) {
			if err := schemacheck.ValidateYAML(c.kind, c.data, c.path); err != nil {
				t.Errorf("want valid, got %v", err)
			}
		})
	}
}

// TestInvalidDocumentsFail checks that each invalid document fails, and
// that its problems all point at one place: each file is meant to hold
// exactly one mistake, and a second one would hide whether the first is
// caught.
func TestInvalidDocumentsFail(t *testing.T) {
	for _, c := range corpus(t, "invalid") {
		t.Run(c.path, func(t *testing.T) {
			err := schemacheck.ValidateYAML(c.kind, c.data, c.path)
			if err == nil {
				t.Fatal("want invalid, got valid")
			}
			ps := problemsOf(t, err)
			for _, p := range ps {
				if p.Path != ps[0].Path {
					t.Errorf("problems at several paths, want one mistake per file: %v", ps)
					break
				}
				if p.File != c.path {
					t.Errorf("problem names file %q, want %q", p.File, c.path)
				}
			}
		})
	}
}

func TestProblemLocation(t *testing.T) {
	tests := []struct {
		doc, path string
		line      int
	}{
		{"name: acme/x\nauto_apply: 1.5\n", "auto_apply", 2},
		{"name: acme/x\nsafety:\n  allowed_skill_categories:\n    - code\n    - \" \"\n", "safety.allowed_skill_categories[1]", 5},
		{"name: acme/x\nguards:\n  max_tool_calls_per_step: -1\n", "guards.max_tool_calls_per_step", 3},
		{"description: no name\n", "", 1},
		{"name: acme/x\nsafety:\n  require_sandbox: true\n  require_sandbx: true\n", "safety", 4},
	}
	for _, tt := range tests {
		ps := problemsOf(t, schemacheck.ValidateYAML(schema.Profile, []byte(tt.doc), "p.yaml"))
		if ps[0].Path != tt.path || ps[0].Line != tt.line || ps[0].File != "p.yaml" {
			t.Errorf("%q: problem %+v, want path %q line %d", tt.doc, ps[0], tt.path, tt.line)
		}
	}
}

func TestValidateYAMLRefusesWhatJSONCannotHold(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"nan", "name: acme/x\nauto_apply: .nan\n", "not a finite number"},
		{"timestamp", "name: acme/x\ndescription: 2024-01-01\n", "timestamp"},
		{"non-string key", "name: acme/x\n1: 0.5\n", "not a string"},
		{"duplicate key", "name: acme/x\nname: acme/y\n", "twice"},
		{"two documents", "name: acme/x\n---\nname: acme/y\n", "more than one"},
		{"empty", "", "no YAML document"},
		{"alias bomb", aliasBomb(), "expands to more than"},
		{"unparsable", "name: [\n", "did not find"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := schemacheck.ValidateYAML(schema.Profile, []byte(tt.doc), "p.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
			if !errs.Is(err, errs.KindInvalid) {
				t.Errorf("got kind %v, want invalid", errs.KindOf(err))
			}
		})
	}
}

// aliasBomb returns a small document whose aliases expand to millions of
// values.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	return b.String()
}

func TestValidateGoValues(t *testing.T) {
	if err := schemacheck.Validate(schema.SafetyProfile, profile.DefaultSafetyProfile()); err != nil {
		t.Errorf("default safety profile: %v", err)
	}
	bad := profile.DefaultSafetyProfile()
	bad.MaxRetriesPerStep = 101
	ps := problemsOf(t, schemacheck.Validate(schema.SafetyProfile, bad))
	if ps[0].Path != "max_retries_per_step" {
		t.Errorf("problem %+v, want path max_retries_per_step", ps[0])
	}
	if err := schemacheck.Validate(schema.Profile, map[string]any{"name": "acme/x", "auto_apply": 2}); err == nil {
		t.Error("a map with auto_apply 2 validated")
	}
}

// TestBuiltinsValidate checks every built-in twice: its file as written,
// and its canonical form (every field present, as show prints it).
func TestBuiltinsValidate(t *testing.T) {
	files, err := fs.Glob(profiles.Builtin, "builtin/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(profile.BuiltinNames) {
		t.Fatalf("found %d built-in files, want %d", len(files), len(profile.BuiltinNames))
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			data, err := fs.ReadFile(profiles.Builtin, f)
			if err != nil {
				t.Fatal(err)
			}
			if err := schemacheck.ValidateYAML(schema.Profile, data, f); err != nil {
				t.Errorf("file: %v", err)
			}
			p, _, err := profile.DecodeProfile(data, f)
			if err != nil {
				t.Fatal(err)
			}
			if err := schemacheck.Validate(schema.Profile, p); err != nil {
				t.Errorf("canonical form: %v", err)
			}
		})
	}
}

// exampleKinds maps the folders under examples/ to the schema their
// documents follow. A folder missing here fails the test, so no example
// goes unchecked.
var exampleKinds = map[string]string{
	"profiles":        schema.Profile,
	"safety-profiles": schema.SafetyProfile,
	"actions":         schema.Action,
	"packs":           schema.SafetyPack,
}

func TestExamplesValidate(t *testing.T) {
	root := filepath.Join("..", "..", "examples")
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		t.Skip("no examples/ folder")
	}
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(p)
		if ext != ".yaml" && ext != ".yml" && ext != ".json" {
			return nil
		}
		if strings.HasSuffix(p, ".mastery_report.json") {
			return nil // a pack's seal, not a pack; verify checks it
		}
		rel, _ := filepath.Rel(root, p)
		top, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		kind, ok := exampleKinds[top]
		if !ok {
			t.Errorf("%s: no schema for examples/%s; add the folder to exampleKinds", rel, top)
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		if err := schemacheck.ValidateYAML(kind, data, rel); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d examples validated", n)
}

func TestShippedPacksValidate(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "packs", "safety", "*.json"))
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".mastery_report.json") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n++
		if err := schemacheck.ValidateYAML(schema.SafetyPack, data, f); err != nil {
			t.Errorf("%v", err)
		}
	}
	if n == 0 {
		t.Skip("no packs/safety/*.json")
	}
}

func TestEveryFileHasAName(t *testing.T) {
	files, err := fs.Glob(schemafiles.FS, "*.schema.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, n := range schema.Names() {
		f, err := schema.File(n)
		if err != nil {
			t.Fatal(err)
		}
		named = append(named, f)
	}
	sort.Strings(files)
	sort.Strings(named)
	if !slices.Equal(files, named) {
		t.Errorf("embedded files %v, named files %v", files, named)
	}
}

func TestUnknownName(t *testing.T) {
	for _, f := range []func() error{
		func() error { _, err := schema.Get("nope"); return err },
		func() error { _, err := schema.JSON("nope"); return err },
		func() error { _, err := schema.Bundle("nope"); return err },
		func() error { return schemacheck.Validate("nope", map[string]any{}) },
		func() error { return schemacheck.ValidateYAML("nope", []byte("{}"), "x") },
	} {
		err := f()
		if !errs.Is(err, errs.KindUsage) || !strings.Contains(err.Error(), `"nope"`) {
			t.Errorf("got %v, want a usage error naming the schema", err)
		}
	}
}

// TestIDsMatchFiles checks each $id ends in its own file name, so that the
// relative $refs between the schemas resolve to the right files.
func TestIDsMatchFiles(t *testing.T) {
	for _, n := range schema.Names() {
		var doc map[string]any
		mustUnmarshal(t, n, &doc)
		f, _ := schema.File(n)
		id, _ := doc["$id"].(string)
		if !strings.HasSuffix(id, "/docs/schema/"+f) {
			t.Errorf("%s: $id %q does not end in /docs/schema/%s", n, id, f)
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema is %v", n, doc["$schema"])
		}
	}
}

func mustUnmarshal(t *testing.T, name string, v any) {
	t.Helper()
	js, err := schema.JSON(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestJSONIsTheYAMLDocument checks the JSON form says the same as the YAML
// source and keeps its key order.
func TestJSONIsTheYAMLDocument(t *testing.T) {
	for _, n := range schema.Names() {
		src, err := schema.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		var fromYAML, fromJSON any
		if err := yaml.Unmarshal(src, &fromYAML); err != nil {
			t.Fatal(err)
		}
		mustUnmarshal(t, n, &fromJSON)
		// Normalise the YAML side's numbers and maps through JSON.
		b, err := json.Marshal(fromYAML)
		if err != nil {
			t.Fatal(err)
		}
		var want any
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(want, fromJSON) {
			t.Errorf("%s: JSON differs from the YAML source", n)
		}
		js, _ := schema.JSON(n)
		if !bytes.HasPrefix(js, []byte("{\n  \"$schema\": ")) {
			t.Errorf("%s: JSON does not start with $schema as the source does:\n%.80s", n, js)
		}
	}
}

func TestJSONEscapesInvisibleCharacters(t *testing.T) {
	js, err := schema.JSON(schema.SafetyProfile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`\u00a0\u1680\u2000-\u200a`)) {
		t.Error("the blank-entry pattern does not show its spaces as \\u escapes")
	}
	for _, r := range string(js) {
		if r > 0x7e {
			t.Fatalf("JSON holds the raw character %U", r)
		}
	}
}

// TestBundleStandsAlone compiles each bundle with nothing else available
// (any attempt to load another document fails) and checks it judges the
// whole corpus as the separate schemas do.
func TestBundleStandsAlone(t *testing.T) {
	docs := append(corpus(t, "valid"), corpus(t, "invalid")...)
	for _, n := range schema.Names() {
		t.Run(n, func(t *testing.T) {
			b, err := schema.Bundle(n)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			id := doc.(map[string]any)["$id"].(string)
			c := jsonschema.NewCompiler()
			c.UseLoader(refuseLoader{})
			if err := c.AddResource(id, doc); err != nil {
				t.Fatal(err)
			}
			sch, err := c.Compile(id)
			if err != nil {
				t.Fatalf("bundle does not compile alone: %v", err)
			}
			checked := 0
			for _, d := range docs {
				if d.kind != n {
					continue
				}
				var inst any
				if yaml.Unmarshal(d.data, &inst) != nil || hasNoJSONForm(inst) {
					continue // refused before any schema looks at it
				}
				js, _ := json.Marshal(inst)
				v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(js))
				bundled := sch.Validate(v) == nil
				separate := schemacheck.Validate(n, inst) == nil
				if bundled != separate {
					t.Errorf("%s: bundle says valid=%v, separate schemas say %v", d.path, bundled, separate)
				}
				checked++
			}
			if checked == 0 {
				t.Error("no corpus documents checked")
			}
		})
	}
}

// hasNoJSONForm reports whether a decoded YAML value holds something
// json.Marshal cannot encode faithfully.
func hasNoJSONForm(v any) bool {
	_, err := json.Marshal(v)
	if err != nil {
		return true
	}
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			if hasNoJSONForm(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if hasNoJSONForm(e) {
				return true
			}
		}
	case nil, bool, string, int, float64, uint64, int64:
	default:
		return true
	}
	return false
}

type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("bundle tried to load %s", url)
}

func TestBundleEmbedsReferencedSchemas(t *testing.T) {
	tests := map[string][]string{
		schema.Profile:       {"safety_profile"},
		schema.SafetyProfile: nil,
		schema.Action:        {"automation_profile", "safety_profile"},
		schema.SafetyPack:    nil,
	}
	for n, want := range tests {
		b, err := schema.Bundle(n)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Defs map[string]struct {
				ID string `json:"$id"`
			} `json:"$defs"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		var got []string
		for k, v := range doc.Defs {
			if v.ID != "" {
				got = append(got, k)
			}
		}
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: embedded %v, want %v", n, got, want)
		}
	}
}

// TestSchemaMatchesGoTypes keeps the schema's field lists in step with the
// Go types: a field added to one and not the other fails here.
func TestSchemaMatchesGoTypes(t *testing.T) {
	var ap, sp map[string]any
	mustUnmarshal(t, schema.Profile, &ap)
	mustUnmarshal(t, schema.SafetyProfile, &sp)
	defs := ap["$defs"].(map[string]any)
	guards := defs["guards"].(map[string]any)

	tests := []struct {
		name   string
		schema map[string]any
		typ    any
	}{
		{"automation profile", ap, profile.AutomationProfile{}},
		{"safety profile", sp, profile.SafetyProfile{}},
		{"guards", guards, profile.AutomationGuard{}},
	}
	for _, tt := range tests {
		props := tt.schema["properties"].(map[string]any)
		var got, deprecated []string
		for k, v := range props {
			if v.(map[string]any)["deprecated"] == true {
				deprecated = append(deprecated, k)
				continue
			}
			got = append(got, k)
		}
		// The deprecated keys are the legacy flat safety flags, in the
		// automation profile only.
		sort.Strings(deprecated)
		wantDeprecated := []string(nil)
		if tt.name == "automation profile" {
			wantDeprecated = []string{"allow_unsafe_tools", "require_checkpoints", "require_sandbox"}
		}
		if !slices.Equal(deprecated, wantDeprecated) {
			t.Errorf("%s: deprecated properties %v, want %v", tt.name, deprecated, wantDeprecated)
		}
		want := jsonFields(reflect.TypeOf(tt.typ))
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: schema properties %v, Go fields %v", tt.name, got, want)
		}
	}

	props := ap["properties"].(map[string]any)
	for _, g := range profile.GateNames() {
		p, _ := props[g].(map[string]any)
		if p["$ref"] != "#/$defs/threshold" {
			t.Errorf("%s is not a threshold in the schema", g)
		}
	}
	var enum []string
	for _, v := range defs["builtin_name"].(map[string]any)["enum"].([]any) {
		enum = append(enum, v.(string))
	}
	if !slices.Equal(enum, profile.BuiltinNames) {
		t.Errorf("built-in names %v, want %v", enum, profile.BuiltinNames)
	}
	if c := props["schema_version"].(map[string]any)["const"]; c != profile.SchemaVersion {
		t.Errorf("schema_version const %v, want %q", c, profile.SchemaVersion)
	}
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// TestCustomNamePatternMatchesGo checks the schema's name rules against
// profile.CheckCustomName on names near every edge.
func TestCustomNamePatternMatchesGo(t *testing.T) {
	long := strings.Repeat("a", 63)
	names := []string{
		"acme/strict", "a/b", "0/9", "a-b/c-d", long + "/" + long, long + "a/b", "a/" + long + "a",
		"acme", "acme/", "/strict", "acme//strict", "acme/team/strict", "../x", "x/..", "Acme/x",
		"acme/-x", "acme/x-", "-acme/x", "acme/x_y", "acme/x.y", "acme/x y", " acme/x", "acme/x\n",
		"con/x", "acme/con", "acme/nul", "acme/com1", "acme/com0", "acme/lpt9", "lpt10/x", "acme/console",
		"acme/cön", "аcme/x", "",
	}
	for _, n := range names {
		doc := map[string]any{"name": n, "automation_profile": nil,
			"description": "", "definition_of_done": "d", "strategy_actor": "s", "execution_actor": "e"}
		schemaOK := schemacheck.Validate(schema.Action, doc) == nil
		goOK := profile.CheckCustomName(n) == ""
		if schemaOK != goOK {
			t.Errorf("%q: schema valid=%v, Go valid=%v", n, schemaOK, goOK)
		}
	}
}
