package cmdutil

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

// Nearest returns the candidate the user most likely meant by name, or ""
// when none is close: the same name in another case; the one candidate
// whose part after the slash is name (a name typed without its
// namespace); the nearest by edit distance, within a third of the name's
// length (one edit for a short name); or the one candidate that name
// begins.
func Nearest(name string, candidates []string) string {
	lower := strings.ToLower(strings.TrimSpace(name))
	if lower == "" || len(lower) > 200 {
		return ""
	}
	for _, c := range candidates {
		if strings.ToLower(c) == lower {
			return c
		}
	}
	if !strings.Contains(lower, "/") {
		if c := only(candidates, func(c string) bool {
			_, leaf, ok := strings.Cut(c, "/")
			return ok && leaf == lower
		}); c != "" {
			return c
		}
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		if d := editDistance(lower, strings.ToLower(c)); bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := 1
	if n := utf8.RuneCountInString(lower); n > 5 {
		limit = max(2, n/3)
	}
	if bestDist >= 0 && bestDist <= limit {
		return best
	}
	if utf8.RuneCountInString(lower) >= 3 {
		return only(candidates, func(c string) bool { return strings.HasPrefix(c, lower) })
	}
	return ""
}

// only returns the one candidate for which keep is true, or "" when there
// is none or more than one.
func only(candidates []string, keep func(string) bool) string {
	found := ""
	for _, c := range candidates {
		if !keep(c) {
			continue
		}
		if found != "" {
			return ""
		}
		found = c
	}
	return found
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of neighbouring characters that turn a into b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	rows := make([][]int, len(ra)+1)
	for i := range rows {
		rows[i] = make([]int, len(rb)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(ra)][len(rb)]
}

// DidYouMean returns err with its hint replaced by "did you mean ...?" when
// suggestion is not empty. err must be an *errs.Error; anything else is
// returned as it is.
func DidYouMean(err error, suggestion string) error {
	var e *errs.Error
	if suggestion == "" || !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Hint = fmt.Sprintf("did you mean %q?", suggestion)
	return &c
}

// profileCandidates are the names a profile name may have meant: the
// built-ins, then the stored custom profiles. A store that cannot be read
// gives the built-ins alone: a suggestion is a courtesy, never a reason
// to fail.
func (d *Deps) profileCandidates() []string {
	names := append([]string(nil), profile.BuiltinNames...)
	if st, err := d.Store(); err == nil {
		var custom []string
		d.silently(func() { custom, _ = st.Profiles().Names(d.Ctx(), store.Query{}) })
		names = append(names, custom...)
	}
	return names
}

// actionCandidates are the names of the stored actions, or none when the
// store cannot be read.
func (d *Deps) actionCandidates() []string {
	st, err := d.Store()
	if err != nil {
		return nil
	}
	var names []string
	d.silently(func() { names, _ = st.Actions().Names(d.Ctx(), store.Query{}) })
	return names
}

// NearestAction returns the stored action name nearest to name, or "".
func NearestAction(deps *Deps, name string) string {
	return Nearest(name, deps.actionCandidates())
}

// NearestProfile returns the built-in or stored profile name nearest to
// name, or "".
func NearestProfile(deps *Deps, name string) string {
	return Nearest(name, deps.profileCandidates())
}

// LookupAction returns the stored action with the given name. A name that
// cannot be an action's is not found, with the reason; a name not stored is
// not found; either suggests the nearest stored name.
func LookupAction(deps *Deps, name string) (*action.Action, error) {
	if err := action.ValidateName(name); err != nil {
		e := errs.NotFound("action %q not found: %s", name, err.Error()).
			WithHint("run 'agents action list' to see the actions")
		return nil, DidYouMean(e, Nearest(name, deps.actionCandidates()))
	}
	st, err := deps.Store()
	if err != nil {
		return nil, err
	}
	a, err := st.Actions().Get(deps.Ctx(), name)
	if errs.Is(err, errs.KindNotFound) {
		return nil, DidYouMean(err, Nearest(name, deps.actionCandidates()))
	}
	return a, err
}
