package profile

import (
	"os"
	"testing"
)

// BenchmarkDecodeProfile decodes a complete profile: every threshold, a full
// safety profile and guards. Stored files are decoded on every list, so
// this is the figure to watch.
func BenchmarkDecodeProfile(b *testing.B) {
	data := []byte(`name: acme/bench
description: A profile with every field set
schema_version: "1.0"
auto_strategize: 0.7
auto_execute: 0.7
auto_apply: 1.0
auto_decisions_strategize: 0.6
auto_decisions_execute: 0.8
auto_validation_fix: 0.7
auto_strategy_revision: 0.8
auto_reversion_from_apply: 0.9
auto_child_plans: 0.7
auto_retry_transient: 0.0
auto_checkpoint_restore: 0.6
safety:
  require_sandbox: true
  require_checkpoints: true
  allow_unsafe_tools: false
  require_human_approval: false
  allowed_skill_categories: [code, test, deploy]
  max_cost_per_plan: 50.0
  max_total_cost: 200.0
  max_retries_per_step: 3
guards:
  max_tool_calls_per_step: 10
  max_total_cost: 5.0
  tool_allowlist: null
  tool_denylist: [shell_exec, file_delete]
  require_approval_for_writes: true
  require_approval_for_apply: true
`)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := DecodeProfile(data, "bench.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeBuiltin decodes a built-in profile file as shipped.
func BenchmarkDecodeBuiltin(b *testing.B) {
	data, err := os.ReadFile("../../profiles/builtin/cautious.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := DecodeProfile(data, "cautious.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}
