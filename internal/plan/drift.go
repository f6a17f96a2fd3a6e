package plan

// Drift is how what would resolve now differs from what a plan recorded.
type Drift struct {
	// AutomationProfile is set when the automation profile would differ:
	// another profile, another level, or the same profile changed.
	AutomationProfile *AutomationChange `json:"automation_profile"`
	// SafetyProfile is set when the safety profile would differ.
	SafetyProfile *SafetyChange `json:"safety_profile"`
	// Levels names the levels whose settings differ from the record.
	Levels []string `json:"levels"`
	// Error says why resolving now fails, when it does (a profile or the
	// action removed, a configuration file broken); the other fields are
	// then empty.
	Error *string `json:"error"`
}

// AutomationChange is a changed automation profile.
type AutomationChange struct {
	Recorded AutomationRef `json:"recorded"`
	Now      AutomationRef `json:"now"`
	Reason   string        `json:"reason"`
}

// SafetyOrigin is where a safety profile came from, and its digest.
type SafetyOrigin struct {
	Provenance  string  `json:"provenance"`
	Source      string  `json:"source"`
	FromProfile *string `json:"from_profile"`
	SHA256      string  `json:"sha256"`
}

// SafetyChange is a changed safety profile.
type SafetyChange struct {
	Recorded SafetyOrigin `json:"recorded"`
	Now      SafetyOrigin `json:"now"`
	// Fields lists the safety fields whose values differ.
	Fields []string `json:"fields"`
	Reason string   `json:"reason"`
}

// RecordCheck says whether a plan's record agrees with the content-addressed
// snapshots it cites. A record that does not (edited by hand, or its
// snapshots removed) is shown, but nothing is decided under it.
type RecordCheck struct {
	// Verified is true when every snapshot is there and the record says
	// what they say.
	Verified bool `json:"verified"`
	// Problem says what does not agree when Verified is false.
	Problem *string `json:"problem"`
}
