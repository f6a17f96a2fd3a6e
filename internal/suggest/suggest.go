// Package suggest finds what a person most likely meant by a word that
// names nothing: the nearest known key of a file, the nearest profile,
// action, plan id, command or flag. It is a leaf: every layer may use it.
package suggest

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Key returns the entry of known nearest to key, or "" when none is close
// enough to be what the writer meant. Case and - versus _ are ignored; a
// swap of two neighbouring letters counts as one edit. A key of whole
// words that begins exactly one known key (max_retries for
// max_retries_per_step), or that exactly one known key of at least two
// words begins (safety_profile where safety is known), is taken for it.
func Key(key string, known []string) string {
	if len(key) > 64 {
		return ""
	}
	norm := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(key)), "-", "_")
	best, bestDist := nearest(norm, known, func(k string) string { return k })
	if bestDist >= 0 && bestDist <= limit(norm) {
		return best
	}
	if len(norm) < 4 {
		return ""
	}
	if k := Unique(known, func(k string) bool { return strings.HasPrefix(k, norm+"_") }); k != "" {
		return k
	}
	return Unique(known, func(k string) bool { return len(k) >= 4 && strings.HasPrefix(norm, k+"_") })
}

// Name returns the candidate the user most likely meant by name, or ""
// when none is close: the same name in another case; the one candidate
// whose part after the slash is name (a name typed without its
// namespace); the nearest by edit distance, within a third of the name's
// length (one edit for a short name); or the one candidate that name
// begins. Against a candidate of the same namespace only the parts after
// the slash are compared, with the limit of the typed part's length: a
// shared namespace makes no two names alike (acme/nope is not acme/com0).
// name itself is never suggested: a name the store lists but cannot read
// is not found, and "did you mean" the same name helps no one.
func Name(name string, candidates []string) string {
	lower := strings.ToLower(strings.TrimSpace(name))
	if lower == "" || len(lower) > 200 {
		return ""
	}
	if slices.Contains(candidates, name) {
		candidates = slices.DeleteFunc(slices.Clone(candidates), func(c string) bool { return c == name })
	}
	for _, c := range candidates {
		if strings.ToLower(c) == lower {
			return c
		}
	}
	if !strings.Contains(lower, "/") {
		if c := Unique(candidates, func(c string) bool {
			_, leaf, ok := strings.Cut(c, "/")
			return ok && leaf == lower
		}); c != "" {
			return c
		}
	}
	if best := nearestName(lower, candidates); best != "" {
		return best
	}
	if utf8.RuneCountInString(lower) >= 3 {
		return Unique(candidates, func(c string) bool { return strings.HasPrefix(c, lower) })
	}
	return ""
}

// Unique returns the one candidate for which keep is true, or "" when
// there is none or more than one.
func Unique(candidates []string, keep func(string) bool) string {
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

// limit is how many edits away a word may be from what was meant: one for
// a short word, a third of a longer one's length.
func limit(word string) int {
	if n := utf8.RuneCountInString(word); n > 5 {
		return max(2, n/3)
	}
	return 1
}

// nearestName returns the candidate nearest to name (lower-cased) within
// the limit of what is compared, or "" when none is; the first wins a tie.
// A candidate of name's namespace is compared by the part after the slash.
func nearestName(name string, candidates []string) string {
	ns, leaf, namespaced := strings.Cut(name, "/")
	best, bestDist := "", -1
	for _, c := range candidates {
		a, b := name, strings.ToLower(c)
		if cns, cleaf, ok := strings.Cut(b, "/"); namespaced && ok && cns == ns {
			a, b = leaf, cleaf
		}
		d := editDistance(a, b)
		if d <= limit(a) && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// nearest returns the candidate nearest to word (compared as norm gives
// it) and its distance, or -1 when there are none; the first wins a tie.
func nearest(word string, candidates []string, norm func(string) string) (string, int) {
	best, bestDist := "", -1
	for _, c := range candidates {
		if d := editDistance(word, norm(c)); bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best, bestDist
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of neighbours each cost one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows: two back (for swaps), previous, current.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
