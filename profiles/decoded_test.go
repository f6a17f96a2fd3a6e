package profiles

import (
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
