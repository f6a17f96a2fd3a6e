package cli

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/viper"
)

// TestConfigValuesMatchViper: for every config.yaml that configValues
// reads without viper, viper would have given the same settings, each
// key set or not and with the same value of the same type.
func TestConfigValuesMatchViper(t *testing.T) {
	keys := []string{"format", "lock_timeout", "store", "safety_pack", "automation_profile", "Format", "hooks"}
	values := []string{
		"json", "table", "5s", "1m", "5", "0", "-3", "2.5", "0.0", "true", "false", "null", `"10s"`, `""`,
		"postgres://u@h/db", "acme_safety_v1", "acme/strict", "[]", "{}", "yes", "~", "1e3", "007",
		"plain words", `"quoted: text"`, "123456789012345678",
	}
	r := rand.New(rand.NewPCG(3, 5))
	written := 0
	for i := range 5000 {
		var b bytes.Buffer
		for range 1 + r.IntN(4) {
			k := keys[r.IntN(len(keys))]
			if k == "hooks" && r.IntN(2) == 0 {
				b.WriteString("hooks:\n  sandboxed: true\n")
				continue
			}
			b.WriteString(k + ": " + values[r.IntN(len(values))] + "\n")
		}
		data := b.Bytes()
		got, err := configValues(data, "config.yaml")
		fv := viper.New()
		fv.SetConfigType("yaml")
		verr := fv.ReadConfig(bytes.NewReader(data))
		if _, ok := got.(writtenSettings); !ok {
			if (err != nil) != (verr != nil) {
				t.Fatalf("case %d: configValues err %v, viper err %v", i, err, verr)
			}
			continue
		}
		written++
		if verr != nil {
			t.Fatalf("case %d: read without viper, but viper refuses it (%v):\n%s", i, verr, data)
		}
		for _, k := range []string{"format", "lock_timeout", "store", "safety_pack", "automation_profile"} {
			if got.IsSet(k) != fv.IsSet(k) || !reflect.DeepEqual(got.Get(k), fv.Get(k)) {
				t.Fatalf("case %d, key %s: IsSet %v, Get %#v without viper; IsSet %v, Get %#v with it:\n%s",
					i, k, got.IsSet(k), got.Get(k), fv.IsSet(k), fv.Get(k), data)
			}
		}
	}
	if written < 500 {
		t.Fatalf("only %d of 5000 files were read without viper: the comparison exercises too little", written)
	}
	// A file viper must read still reports viper's error.
	if _, err := configValues([]byte("format: [\n"), "config.yaml"); err == nil || !strings.Contains(err.Error(), "cannot read configuration") {
		t.Fatalf("broken YAML: %v", err)
	}
}
