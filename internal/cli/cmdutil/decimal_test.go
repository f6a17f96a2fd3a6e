package cmdutil

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// A number flag takes plain decimal notation only: strconv would read 010
// as 8 and 0x10 as 16, a smaller figure than the caller meant.
func TestDecimalFlags(t *testing.T) {
	tests := []struct {
		flag, value string
		want        string // the reason's start; "" when the value is taken
	}{
		{"calls", "10", ""},
		{"calls", "0", ""},
		{"calls", "-1", ""}, // left for the range check
		{"calls", "010", LeadingZero},
		{"calls", "00", LeadingZero},
		{"calls", "0x10", NotWholeDecimal},
		{"calls", "0o7", NotWholeDecimal},
		{"calls", "0b1", NotWholeDecimal},
		{"calls", "1_0", NotWholeDecimal},
		{"calls", "+3", NotWholeDecimal},
		{"calls", "", NotWholeDecimal},
		{"calls", "3.0", NotWholeDecimal},
		{"cost", "0.5", ""},
		{"cost", ".5", ""},
		{"cost", "5.", ""},
		{"cost", "010", ""}, // decimal ten: no other reading
		{"cost", "1e-3", ""},
		{"cost", "1E+2", ""},
		{"cost", "0x1p-1", NotDecimal},
		{"cost", "1_0", NotDecimal},
		{"cost", "NaN", ""}, // left for the range check
		{"cost", "-Inf", ""},
		{"cost", "1e", NotDecimal},
		{"cost", ".", NotDecimal},
		{"cost", "", NotDecimal},
		{"cost", " 1", NotDecimal},
		// A figure that is not 0 must not read as 0 or lose digits.
		{"cost", "1e-400", NearZero},
		{"cost", "5e-324", NearZero},
		{"cost", "0.0000e-999", ""},
		{"cost", "2.2250738585072014e-308", ""},
	}
	for _, tt := range tests {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		var calls int
		var cost float64
		fs.IntVar(&calls, "calls", 0, "")
		fs.Float64Var(&cost, "cost", 0, "")
		Decimal(fs, "calls", "cost")
		err := fs.Set(tt.flag, tt.value)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("--%s %q: %v, want it taken", tt.flag, tt.value, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), "flag: "+tt.want)):
			t.Errorf("--%s %q: %v, want %q", tt.flag, tt.value, err, tt.want)
		}
	}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var calls int
	fs.IntVar(&calls, "calls", 0, "")
	Decimal(fs, "calls")
	if err := fs.Set("calls", "10"); err != nil || calls != 10 {
		t.Errorf("--calls 10 = %d, %v", calls, err)
	}
}
