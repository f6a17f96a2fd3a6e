package store

import (
	"fmt"
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
