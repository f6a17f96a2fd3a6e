package iostreams

import "testing"

func TestColorAndPrompt(t *testing.T) {
	tests := []struct {
		name                       string
		stdin, stdout, noColor, ci bool
		wantColor, wantPrompt      bool
	}{
		{"pipe", false, false, false, false, false, false},
		{"terminal", true, true, false, false, true, true},
		{"NO_COLOR", true, true, true, false, false, true},
		{"CI", true, true, false, true, true, false},
		{"stdin piped", false, true, false, false, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, _, _ := Test()
			s.SetStdinTTY(tt.stdin)
			s.SetStdoutTTY(tt.stdout)
			s.SetNoColor(tt.noColor)
			s.SetCI(tt.ci)
			if got := s.ColorEnabled(); got != tt.wantColor {
				t.Errorf("ColorEnabled = %v, want %v", got, tt.wantColor)
			}
			if got := s.CanPrompt(); got != tt.wantPrompt {
				t.Errorf("CanPrompt = %v, want %v", got, tt.wantPrompt)
			}
		})
	}
}

func TestTerminalWidth(t *testing.T) {
	s, _, _, _ := Test()
	if w := s.TerminalWidth(); w != 0 {
		t.Errorf("width of a buffer = %d, want 0", w)
	}
	s.SetWidth(120)
	if w := s.TerminalWidth(); w != 120 {
		t.Errorf("width = %d, want 120", w)
	}
}

func TestEndLine(t *testing.T) {
	s, _, _, errOut := Test()
	s.EndLine()
	if errOut.Len() != 0 {
		t.Errorf("EndLine with no line open wrote %q", errOut.String())
	}
	s.SetLineOpen(true)
	s.EndLine()
	s.EndLine()
	if got := errOut.String(); got != "\n" {
		t.Errorf("EndLine twice on an open line wrote %q, want one line break", got)
	}
}
