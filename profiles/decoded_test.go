package profiles

import (
	"bytes"
	"io/fs"
	"reflect"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
)

// TestDecodedMatchesTheFiles holds the compiled-in built-ins to what their
// files decode to. When it fails, run 'go generate ./profiles'.
func TestDecodedMatchesTheFiles(t *testing.T) {
	for _, name := range profile.BuiltinNames {
		path := "builtin/" + name + ".yaml"
		data, err := fs.ReadFile(Builtin, path)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := profile.DecodeProfile(data, path)
		if err != nil {
			t.Fatal(err)
		}
		got := Decoded(name)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the compiled-in profile differs from %s; run 'go generate ./profiles'\n got %+v\nwant %+v", name, path, got, want)
		}
		if got == Decoded(name) || &got.Safety.AllowedSkillCategories == &Decoded(name).Safety.AllowedSkillCategories {
			t.Errorf("%s: two calls share a value", name)
		}
	}
	if Decoded("acme/strict") != nil || Decoded("") != nil {
		t.Error("a name that is not a built-in decodes to a profile")
	}
}

// TestStoredForms holds each compiled-in stored form to what
// profile.Encode writes for the built-in: a plan's record of a built-in is
// checked against it. When it fails, run 'go generate ./profiles'.
func TestStoredForms(t *testing.T) {
	for _, name := range profile.BuiltinNames {
		want, _, err := profile.Encode(Decoded(name))
		if err != nil {
			t.Fatal(err)
		}
		if got := StoredForm(name); !bytes.Equal(got, want) {
			t.Errorf("%s: the compiled-in stored form differs from what profile.Encode writes; run 'go generate ./profiles'\n got %q\nwant %q", name, got, want)
		}
	}
	if StoredForm("acme/strict") != nil || StoredForm("") != nil {
		t.Error("a name that is not a built-in has a stored form")
	}
}
