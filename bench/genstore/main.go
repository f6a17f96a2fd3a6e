// Command genstore writes a synthetic store for the benchmarks: n custom
// automation profiles spread across 50 namespaces, in the canonical YAML the
// store itself writes (profile.Encode), under home/profiles/, each with
// its history as the store keeps it (the content as an object under
// home/objects/, one put in home/history/profiles/), so that a decision
// under one is taken as under a profile agents registered. The
// profiles vary in every threshold, in their safety limits and in whether
// they carry guards, so decoding them costs what real ones cost.
//
//	go run ./bench/genstore -n 10000 -home /tmp/agents-10k
//
// Names are ns00/profile-00000 ... ns49/profile-<n-1>: profile i is in
// namespace ns<i mod 50>. The output is the same for the same n.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

// recorded is when the history says each profile was put: fixed, so that
// the output is the same for the same n.
var recorded = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// namespaces is how many namespaces the profiles are spread across.
const namespaces = 50

func main() {
	n := flag.Int("n", 1000, "how many custom profiles to write")
	home := flag.String("home", "", "the agents home to write them into (created; must not hold profiles already)")
	flag.Parse()
	if *home == "" || *n < 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: genstore -n <count> -home <dir>")
		os.Exit(2)
	}
	if err := generate(*home, *n); err != nil {
		fmt.Fprintln(os.Stderr, "genstore:", err)
		os.Exit(1)
	}
}

// nameOf returns the name of profile i.
func nameOf(i int) string { return fmt.Sprintf("ns%02d/profile-%05d", i%namespaces, i) }

func generate(home string, n int) error {
	dir := filepath.Join(home, "profiles")
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s exists already; give an empty home", dir)
	}
	logs, objects := filepath.Join(home, "history", "profiles"), filepath.Join(home, "objects")
	for ns := range min(n, namespaces) {
		for _, d := range []string{dir, logs} {
			if err := os.MkdirAll(filepath.Join(d, fmt.Sprintf("ns%02d", ns)), 0o755); err != nil {
				return err
			}
		}
	}
	if err := os.MkdirAll(objects, 0o755); err != nil {
		return err
	}
	for i := range n {
		data, _, err := profile.Encode(synthetic(i))
		if err != nil {
			return fmt.Errorf("profile %d: %w", i, err)
		}
		name := filepath.FromSlash(nameOf(i))
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), data, 0o644); err != nil {
			return err
		}
		digest := canon.Digest(data)
		if err := os.WriteFile(filepath.Join(objects, digest), data, 0o644); err != nil {
			return err
		}
		line, err := json.Marshal(store.HistoryEntry{Digest: digest, Time: recorded, Event: store.EventPut})
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(logs, name+".log"), append(line, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// synthetic returns profile i: thresholds, limits and guards derived from i.
func synthetic(i int) *profile.AutomationProfile {
	p := &profile.AutomationProfile{
		Name:          nameOf(i),
		Description:   fmt.Sprintf("Synthetic profile %d for the benchmarks", i),
		SchemaVersion: profile.SchemaVersion,
		Safety:        profile.DefaultSafetyProfile(),
	}
	for g, gate := range profile.Gates {
		gate.Set(p, float64((i+g*3)%11)/10)
	}
	if i%2 == 0 {
		p.Safety.AllowedSkillCategories = []string{"code", "docs", "tests"}
		cost := float64(10 + i%90)
		p.Safety.MaxCostPerPlan = &cost
	}
	p.Safety.MaxRetriesPerStep = i % 5
	if i%3 == 0 {
		calls := 10 + i%40
		p.Guards = &profile.AutomationGuard{
			MaxToolCallsPerStep:      &calls,
			ToolDenylist:             []string{"shell_exec", "network_fetch"},
			RequireApprovalForWrites: i%2 == 1,
			RequireApprovalForApply:  true,
		}
	}
	return p
}
