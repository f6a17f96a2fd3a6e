package strictyaml

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// viaYAML is the tree yaml.v3 builds for a one-document file.
func viaYAML(data []byte) (*yaml.Node, bool) {
	var doc, extra yaml.Node
	if err := safeDecode(data, &doc, &extra); err != nil || len(doc.Content) != 1 {
		return nil, false
	}
	return doc.Content[0], true
}

// agree fails the test when fastParse takes data and builds another tree
// than yaml.v3 does. It reports whether fastParse took it.
func agree(t *testing.T, name string, data []byte) bool {
	t.Helper()
	fast, ok := fastParse(data)
	if !ok {
		return false
	}
	want, wok := viaYAML(data)
	if !wok {
		t.Errorf("%s: fastParse took a file yaml.v3 refuses:\n%s", name, data)
		return true
	}
	if !reflect.DeepEqual(fast, want) {
		g, _ := json.Marshal(fast)
		w, _ := json.Marshal(want)
		t.Errorf("%s: fastParse and yaml.v3 disagree on\n%s\nfast:   %s\nyaml.v3: %s", name, data, g, w)
	}
	return true
}

// corpus is every YAML file of the repository.
func corpus(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[path] = data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// generated writes documents in the form agents writes and just outside
// it: the shapes fastParse reads, with values chosen to sit on either side
// of what it takes.
func generated(r *rand.Rand) []byte {
	// Values fastParse takes, and values on the edge of them.
	good := []string{
		"0", "1", "-1", "0.5", "-0.25", "10", "3.14159", "123456789012345678", "-0", "0.0",
		"true", "false", "null", "plain text", "Synthetic profile 3", "shell_exec",
		"ns03/profile-00003", "x.y,z (w); v", `"1.0"`, `""`, `"a b: c # d"`, "[]", "{}",
	}
	edge := []string{
		"007", "1.", ".5", "1e3", "0x1F", "1_000", "+1", "1234567890123456789", "True", "FALSE", "Null", "~",
		"yes", "No", "on", "OFF", "y", "N", "a  b", `"with \"escape\""`, `"a\nb"`, `'single'`,
		"[a]", "{a: b}", "a: b", "a #b", "#c", "&anchor x", "*alias", "!tag x", "- x", "-x", "a-", "x.",
		"2001-12-14", ".inf", ".nan", "<<", "?", "|", ">", "%", "@x", "`x`", "x:", "é", "-1.5e3", "1.5.5",
	}
	value := func() string {
		if r.IntN(10) < 8 {
			return good[r.IntN(len(good))]
		}
		return edge[r.IntN(len(edge))]
	}
	keys := []string{"name", "description", "auto_apply", "safety", "guards", "tool_denylist", "x1", "_k", "name", "safety", "Key", "k-y", "<<", "a b"}
	var b bytes.Buffer
	var block func(ind, depth int)
	block = func(ind, depth int) {
		for range 1 + r.IntN(4) {
			b.WriteString(strings.Repeat(" ", ind))
			b.WriteString(keys[r.IntN(len(keys))])
			switch r.IntN(6) {
			case 0:
				if depth < 3 {
					b.WriteString(":\n")
					block(ind+2, depth+1)
					continue
				}
				b.WriteString(": x\n")
			case 1:
				b.WriteString(":\n")
				in := ind + 2*r.IntN(2)
				for range 1 + r.IntN(3) {
					b.WriteString(strings.Repeat(" ", in) + "- " + value() + "\n")
				}
			default:
				b.WriteString(": " + value() + "\n")
			}
		}
	}
	block(0, 0)
	if r.IntN(8) == 0 {
		b.WriteString("\n")
	}
	return b.Bytes()
}

// mutate changes one byte of data, inserts one or deletes one.
func mutate(r *rand.Rand, data []byte) []byte {
	out := append([]byte{}, data...)
	if len(out) == 0 {
		return out
	}
	i := r.IntN(len(out))
	bytesToUse := []byte(" -:#\"'\n\tx0.[]{}&*!|>")
	switch r.IntN(3) {
	case 0:
		out[i] = bytesToUse[r.IntN(len(bytesToUse))]
	case 1:
		out = append(out[:i], append([]byte{bytesToUse[r.IntN(len(bytesToUse))]}, out[i:]...)...)
	default:
		out = append(out[:i], out[i+1:]...)
	}
	return out
}

// TestFastParseAgrees holds fastParse to yaml.v3 over the repository's
// YAML files, documents generated on both sides of what it reads, and
// mutations of each.
func TestFastParseAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	taken, tried := 0, 0
	try := func(name string, data []byte) {
		tried++
		if agree(t, name, data) {
			taken++
		}
	}
	files := corpus(t)
	if len(files) < 20 {
		t.Fatalf("only %d YAML files found in the repository", len(files))
	}
	builtinTaken := 0
	for name, data := range files {
		if agree(t, name, data) && strings.Contains(name, "builtin") {
			builtinTaken++
		}
		for range 30 {
			try(name+" (mutated)", mutate(r, data))
		}
	}
	for i := range 20000 {
		data := generated(r)
		try("generated", data)
		if i%4 == 0 {
			try("generated (mutated)", mutate(r, data))
		}
	}
	// The test means something only if fastParse takes a good share of
	// what it is given, the built-in profiles among them.
	if builtinTaken < 8 || taken < tried/10 {
		t.Fatalf("fastParse took %d of %d documents and %d built-in profiles: the comparison exercises too little", taken, tried, builtinTaken)
	}
}

func FuzzFastParse(f *testing.F) {
	for _, seed := range []string{
		"name: acme/x\nauto_apply: 0.5\n",
		"a:\n  - x\n  - 1\nb: {}\n",
		"a:\n- x\nb:\n  c: \"1.0\"\n",
		"a: yes\n",
		"a: 1e3\n",
		"a:  b\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, "fuzz", data)
	})
}
