package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"reflect"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
)

// TestProfileCodecCoversEveryField fills every field of a profile through
// reflection and checks one trip through the codec keeps it. A field added
// to AutomationProfile fails here until the codec writes it (and its
// version changes, so caches written without it are not read).
func TestProfileCodecCoversEveryField(t *testing.T) {
	for variant := range 3 {
		p := &profile.AutomationProfile{}
		fill(reflect.ValueOf(p).Elem(), variant)
		got, err := readProfile(NewReader(appendProfile(nil, p)))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, p) {
			t.Errorf("variant %d: round trip changed the profile:\n got %+v\nwant %+v", variant, got, p)
		}
	}
	// Nil and empty lists mean different things and must stay apart.
	p := &profile.AutomationProfile{Name: "acme/a", SchemaVersion: profile.SchemaVersion, AutoApply: 0.5, Safety: profile.DefaultSafetyProfile()}
	p.Guards = &profile.AutomationGuard{ToolAllowlist: []string{}}
	got, err := readProfile(NewReader(appendProfile(nil, p)))
	if err != nil || got.Guards.ToolAllowlist == nil || got.Guards.ToolDenylist != nil {
		t.Errorf("lists: allowlist %#v denylist %#v (%v)", got.Guards.ToolAllowlist, got.Guards.ToolDenylist, err)
	}
	// A payload cut short is an error, never a partial profile.
	b := appendProfile(nil, p)
	for n := range len(b) {
		if _, err := readProfile(NewReader(b[:n])); err == nil {
			t.Fatalf("a payload cut to %d of %d bytes reads back", n, len(b))
		}
	}
}

// fill sets every field reachable from v to a value other than its zero,
// varied by variant.
func fill(v reflect.Value, variant int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d-%s", variant, v.Type().Name()))
	case reflect.Float64:
		v.SetFloat(0.25 + float64(variant))
	case reflect.Int:
		v.SetInt(int64(7 + variant))
	case reflect.Bool:
		v.SetBool(variant != 1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), variant)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), variant, variant)
		for i := range variant {
			fill(s.Index(i), variant+i)
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), variant+i)
		}
	default:
		panic("fill: unhandled kind " + v.Kind().String())
	}
}

// profileLayouts pins each version of the profile codec to one layout: of
// AutomationProfile (every field's name, type and tags, nested ones
// included) and of the encoding (the bytes of three filled profiles). A
// change to either fails TestProfileCodecVersionPinsLayout until the
// version changes and the new layout is added here, so caches and fast
// forms written under an old layout, which a build without release flags
// (the same version and commit tag) could otherwise take for its own, are
// never read.
var profileLayouts = map[uint32]string{
	1: "aafc84e36e153ce48ac0ba657357b4350904769e36703145f597a4070ee32535",
}

func TestProfileCodecVersionPinsLayout(t *testing.T) {
	h := sha256.New()
	writeLayout(h, reflect.TypeOf(profile.AutomationProfile{}))
	for variant := range 3 {
		p := &profile.AutomationProfile{}
		fill(reflect.ValueOf(p).Elem(), variant)
		h.Write(appendProfile(nil, p))
	}
	got := hex.EncodeToString(h.Sum(nil))
	want, ok := profileLayouts[profileCodec.Version()]
	if !ok || want != got {
		t.Errorf("the profile codec's layout is %s, but version %d was pinned to %q: change its version and add the layout to profileLayouts", got, profileCodec.Version(), want)
	}
}

// writeLayout writes the names, types and tags of t's fields, recursively.
func writeLayout(w io.Writer, t reflect.Type) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice:
		fmt.Fprintf(w, "%s(", t.Kind())
		writeLayout(w, t.Elem())
		fmt.Fprint(w, ")")
	case reflect.Struct:
		fmt.Fprintf(w, "%s{", t.Name())
		for i := range t.NumField() {
			f := t.Field(i)
			fmt.Fprintf(w, "%s %q ", f.Name, f.Tag)
			writeLayout(w, f.Type)
			fmt.Fprint(w, ";")
		}
		fmt.Fprint(w, "}")
	default:
		fmt.Fprint(w, t.String())
	}
}
