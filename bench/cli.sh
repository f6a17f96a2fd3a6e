#!/bin/sh
# Process-level benchmarks of agents, measured side by side in one run
# against a Go hello-world program (the floor any Go command pays), and
# compared with the targets of docs/performance.md.
#
# It builds agents as a release is built (CGO_ENABLED=0, -trimpath, -s -w)
# and the floor the same way, writes synthetic stores of 10, 1,000 and
# 10,000 custom profiles across 50 namespaces (bench/genstore), and times
# every command with bench/cmdtime: each round runs every command once, in
# a new random order, and the figures are medians over the rounds, so load
# that comes and goes on a shared machine weighs on every command alike.
# Peak memory comes from GNU time (/usr/bin/time -v), installed with
# apt-get when it is missing and the script runs as root.
#
# The PostgreSQL store is measured against the file store in the same run:
# the 10- and 10,000-profile stores are copied into two schemas of the
# server BENCH_POSTGRES names (default: the local server every development
# machine runs), which are dropped at the end with psql. Without a
# reachable server those rows are skipped and said to be.
#
# Usage: bench/cli.sh            (from anywhere in the repository)
#   ROUNDS=100 WARMUP=5 bench/cli.sh
#   BENCH_POSTGRES=postgres://user@host/db bench/cli.sh
# Exits 0 when every target is met, 1 when one is missed.
set -eu

ROUNDS=${ROUNDS:-100}
BENCH_POSTGRES=${BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
WARMUP=${WARMUP:-5}
GO=${GO:-go}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/agents-bench.XXXXXX")
pgschemas=
cleanup() {
	for sc in $pgschemas; do
		psql -q "$BENCH_POSTGRES" -c "DROP SCHEMA IF EXISTS $sc CASCADE" >/dev/null 2>&1 || true
	done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

say() { printf '%s\n' "$*" >&2; }

say "building into $work"
cd "$root"
for target in agents:./cmd/agents hello:./bench/hello depsfloor:./bench/depsfloor exprfloor:./bench/exprfloor allfloor:./bench/allfloor; do
	CGO_ENABLED=0 "$GO" build -trimpath -ldflags '-s -w' -o "$work/${target%%:*}" "${target#*:}"
done
"$GO" build -o "$work/genstore" ./bench/genstore
"$GO" build -o "$work/cmdtime" ./bench/cmdtime

say "writing stores of 10, 1,000 and 10,000 custom profiles"
for n in 10 1000 10000; do
	"$work/genstore" -n "$n" -home "$work/s$n"
done
# One listing of each store fills its cache, as the first listing on any
# machine does.
for n in 10 1000 10000; do
	AGENTS_HOME="$work/s$n" "$work/agents" automation-profile list -f json >/dev/null
done

# The same stores in PostgreSQL, copied with store copy: one schema each.
pg=
sep='?'
case $BENCH_POSTGRES in *'?'*) sep='&' ;; esac
if command -v psql >/dev/null && psql -q "$BENCH_POSTGRES" -c 'SELECT 1' >/dev/null 2>&1; then
	for n in 10 10000; do
		sc="agents_bench_$$_$n"
		pgschemas="$pgschemas $sc"
		url="$BENCH_POSTGRES${sep}search_path=$sc"
		AGENTS_HOME="$work/pgh" "$work/agents" --store "$url" store migrate >/dev/null
		say "copying the $n-profile store into PostgreSQL"
		AGENTS_HOME="$work/pgh" "$work/agents" store copy --from "$work/s$n" --to "$url" >/dev/null
		eval "pg$n=\$url"
	done
	pg=yes
else
	say "no PostgreSQL server at $BENCH_POSTGRES (or no psql): the PostgreSQL rows are skipped"
fi

# A home whose config.yaml names a ratified pack of its own, so that the
# decisions below verify a pack read from disk, and the hook inputs.
cp -R "$work/s10" "$work/pack"
mkdir -p "$work/pack/packs/safety"
cp "$root/bench/testdata/bench_safety_v1.json" "$work/pack/packs/safety/bench_safety_v1.json"
AGENTS_HOME="$work/pack" "$work/agents" safety-pack ratify "$work/pack/packs/safety/bench_safety_v1.json" >/dev/null
printf 'safety_pack: bench_safety_v1\n' >"$work/pack/config.yaml"
printf '{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Read","tool_input":{"file_path":"/src/main.go"},"cwd":"%s"}' "$work" >"$work/claude.json"
printf '{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch"},"cwd":"%s"}' "$work" >"$work/codex.json"
printf '{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"/src/main.go"},"cwd":"%s"}' "$work" >"$work/gemini.json"
# A home whose pack in force is the example lock-down, with predicates.
mkdir -p "$work/lockdown/packs/safety"
cp "$root"/examples/packs/acme_lockdown_v1.json "$root"/examples/packs/acme_lockdown_v1.mastery_report.json "$work/lockdown/packs/safety/"
echo "safety_pack: acme_lockdown_v1" >"$work/lockdown/config.yaml"

a="$work/agents automation-profile"
# label, expected exit code, environment, command (fields separated by tabs)
cat >"$work/commands" <<EOF
floor	0	-	$work/hello
libraries	0	-	$work/depsfloor
all-libraries	0	-	$work/allfloor
expr-linked	0	-	$work/exprfloor
version	0	AGENTS_HOME=$work/s10	$work/agents version
show-builtin	0	AGENTS_HOME=$work/s10	$a show manual -f json
show-custom-10	0	AGENTS_HOME=$work/s10	$a show ns03/profile-00003 -f json
show-custom-10k	0	AGENTS_HOME=$work/s10000	$a show ns03/profile-00003 -f json
check-guard-builtin	0	AGENTS_HOME=$work/s10	$a check-guard supervised --tool x -f json
check-guard-custom	0	AGENTS_HOME=$work/s10	$a check-guard ns03/profile-00003 --tool x -f json
check-gate-builtin	0	AGENTS_HOME=$work/s10	$a check-gate cautious auto_execute --confidence 0.8 -f json
check-guard-pack	0	AGENTS_HOME=$work/pack	$a check-guard supervised --tool x -f json
hook-claude-code	0	AGENTS_HOME=$work/s10	$a check-guard ci --hook claude-code --sandboxed <$work/claude.json
hook-codex	0	AGENTS_HOME=$work/s10	$a check-guard ci --hook codex --sandboxed <$work/codex.json
hook-gemini-cli	0	AGENTS_HOME=$work/s10	$a check-guard ci --hook gemini-cli --sandboxed <$work/gemini.json
hook-resolved	0	AGENTS_HOME=$work/s10	$a check-guard --hook claude-code --sandboxed <$work/claude.json
hook-snippet	0	-	$work/agents --home $work/s10 automation-profile check-guard ci --hook claude-code --sandboxed <$work/claude.json
hook-pack	0	AGENTS_HOME=$work/pack	$a check-guard ci --hook claude-code --sandboxed <$work/claude.json
list-1k	0	AGENTS_HOME=$work/s1000	$a list -f json
list-10k	0	AGENTS_HOME=$work/s10000	$a list -f json
list-regex-10k	0	AGENTS_HOME=$work/s10000	$a list ^ns07/ -f json
list-namespace-10k	0	AGENTS_HOME=$work/s10000	$a list --namespace ns07 -f json
pack-show-shipped	0	AGENTS_HOME=$work/s10	$work/agents safety-pack show -f json
pack-show-lockdown	0	AGENTS_HOME=$work/lockdown	$work/agents safety-pack show -f json
pack-check-lockdown	0	AGENTS_HOME=$work/lockdown	$work/agents safety-pack check --profile full-auto -f json
EOF
if [ -n "$pg" ]; then
	cat >>"$work/commands" <<EOF
pg-show-10	0	AGENTS_HOME=$work/pgh AGENTS_STORE=$pg10	$a show ns03/profile-00003 -f json
pg-show-10k	0	AGENTS_HOME=$work/pgh AGENTS_STORE=$pg10000	$a show ns03/profile-00003 -f json
pg-check-guard	0	AGENTS_HOME=$work/pgh AGENTS_STORE=$pg10000	$a check-guard ns03/profile-00003 --tool x -f json
pg-list-10k	0	AGENTS_HOME=$work/pgh AGENTS_STORE=$pg10000	$a list -f json
pg-list-namespace-10k	0	AGENTS_HOME=$work/pgh AGENTS_STORE=$pg10000	$a list --namespace ns07 -f json
EOF
fi

say "timing $(grep -c . "$work/commands") commands, $ROUNDS rounds after $WARMUP warm-up rounds"
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
"$work/cmdtime" -rounds "$ROUNDS" -warmup "$WARMUP" <"$work/commands" >"$work/times"
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')

# Peak memory of the largest listing, by GNU time.
if [ ! -x /usr/bin/time ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	say "installing GNU time"
	{ apt-get update && apt-get install -y time; } >/dev/null 2>&1 || true
fi
rss=
if [ -x /usr/bin/time ]; then
	for _ in 1 2 3; do
		kb=$(AGENTS_HOME="$work/s10000" /usr/bin/time -v "$work/agents" automation-profile list -f json 2>&1 >/dev/null |
			awk -F': ' '/Maximum resident set size/ {print $2}')
		if [ -z "$rss" ] || [ "$kb" -gt "$rss" ]; then rss=$kb; fi
	done
fi

echo "agents $(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo '?'), $("$GO" env GOVERSION) $("$GO" env GOOS)/$("$GO" env GOARCH)"
echo "machine: $(nproc 2>/dev/null || echo '?') cores, $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || echo '?'); load average $load_before before, $load_after after"
echo "medians of $ROUNDS interleaved rounds; quartiles in brackets"
echo
awk -F'\t' -v rss="$rss" -v pg="$pg" '
	{ med[$1] = $2; q1[$1] = $3; q3[$1] = $4; order[++n] = $1 }
	END {
		printf "%-20s %10s  %s\n", "command", "median ms", "[p25, p75]"
		for (i = 1; i <= n; i++) {
			l = order[i]
			printf "%-20s %10.2f  [%.2f, %.2f]\n", l, med[l], q1[l], q3[l]
		}
		print ""
		printf "%-56s %8s %8s  %s\n", "target", "measured", "limit", "result"
		miss = 0
		check("show manual -f json / floor", med["show-builtin"] / med["floor"], 2.5)
		check("check-gate (built-in) / floor", med["check-gate-builtin"] / med["floor"], 2.5)
		check("check-guard (built-in) / floor", med["check-guard-builtin"] / med["floor"], 2.5)
		check("check-guard (custom) / floor", med["check-guard-custom"] / med["floor"], 2.5)
		check("check-guard, configured pack verified / floor", med["check-guard-pack"] / med["floor"], 2.5)
		check("hook claude-code / floor", med["hook-claude-code"] / med["floor"], 2.5)
		check("hook codex / floor", med["hook-codex"] / med["floor"], 2.5)
		check("hook gemini-cli / floor", med["hook-gemini-cli"] / med["floor"], 2.5)
		check("hook, profiles resolved from cwd / floor", med["hook-resolved"] / med["floor"], 2.5)
		check("hook as --print-config runs it (--home first) / floor", med["hook-snippet"] / med["floor"], 2.5)
		check("hook, configured pack verified / floor", med["hook-pack"] / med["floor"], 2.5)
		check("show <custom>: 10,000-profile / 10-profile store", med["show-custom-10k"] / med["show-custom-10"], 1.2)
		check("list -f json, 1,000 profiles / floor", med["list-1k"] / med["floor"], 15)
		check("list -f json, 10,000 / 1,000 profiles", med["list-10k"] / med["list-1k"], 11)
		check("show <custom>, file store (pgx linked) / floor", med["show-custom-10k"] / med["floor"], 2.5)
		if (pg != "") {
			check("PostgreSQL show <custom>, 10,000 / file store", med["pg-show-10k"] / med["show-custom-10k"], 2)
			check("PostgreSQL list -f json, 10,000 / file store", med["pg-list-10k"] / med["list-10k"], 3)
			info("PostgreSQL show <custom>, 10,000 / 10-profile store", med["pg-show-10k"] / med["pg-show-10"])
			info("PostgreSQL check-guard <custom> / file store", med["pg-check-guard"] / med["check-guard-custom"])
			info("PostgreSQL list --namespace, 10,000 / file store", med["pg-list-namespace-10k"] / med["list-namespace-10k"])
		} else {
			printf "%-56s %8s %8s  %s\n", "PostgreSQL show and list / file store", "n/a", "2x, 3x", "not measured (no server)"
		}
		info("init of the libraries alone (bench/depsfloor) / floor", med["libraries"] / med["floor"])
		info("every library, signals caught (bench/allfloor) / floor", med["all-libraries"] / med["floor"])
		info("check-gate (built-in) / bench/allfloor", med["check-gate-builtin"] / med["all-libraries"])
		info("the predicate library linked alone (bench/exprfloor) / floor", med["expr-linked"] / med["floor"])
		info("version / floor", med["version"] / med["floor"])
		info("safety-pack show, shipped pack / floor", med["pack-show-shipped"] / med["floor"])
		info("safety-pack show, lock-down with 3 predicates / floor", med["pack-show-lockdown"] / med["floor"])
		info("safety-pack check --profile full-auto, lock-down / floor", med["pack-check-lockdown"] / med["floor"])
		info("list <regex> over 10,000 (200 listed) / floor", med["list-regex-10k"] / med["floor"])
		info("list --namespace over 10,000 (200 listed) / floor", med["list-namespace-10k"] / med["floor"])
		if (rss == "") {
			printf "%-56s %8s %8s  %s\n", "peak RSS of list over 10,000 (MiB)", "n/a", "< 64", "not measured (no GNU time)"
		} else {
			mib = rss / 1024
			r = mib < 64 ? "PASS" : "MISS"
			if (r == "MISS") miss = 1
			printf "%-56s %8.1f %8s  %s\n", "peak RSS of list over 10,000 (MiB)", mib, "< 64", r
		}
		exit miss
	}
	function check(what, ratio, limit,   r) {
		r = ratio <= limit ? "PASS" : "MISS"
		if (r == "MISS") miss = 1
		printf "%-56s %7.2fx %7.1fx  %s\n", what, ratio, limit, r
	}
	function info(what, ratio) {
		printf "%-56s %7.2fx %8s  %s\n", what, ratio, "-", "(no target)"
	}
' "$work/times"
