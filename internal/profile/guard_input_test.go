package profile

import "testing"

// TestFormatFloat: figures read as written, with one decimal at least,
// and the extremes in exponent form rather than hundreds of digits.
func TestFormatFloat(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{0, "0.0"}, {1, "1.0"}, {0.7, "0.7"}, {12.5, "12.5"}, {-3, "-3.0"},
		{123456789012345678, "123456789012345680.0"},
		{1e308, "1e+308"}, {-2e21, "-2e+21"}, {1e-7, "1e-07"}, {0.000001, "0.000001"},
	} {
		if got := FormatFloat(tt.in); got != tt.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
