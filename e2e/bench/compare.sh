#!/usr/bin/env bash
# Before and after, side by side in one run: builds todo-shell at REF
# (default main) as "before", this checkout as "after", and this checkout
# with -tags tearenderer (Bubble Tea v2's own inline renderer instead of
# the painter) as "tea", then runs the whole-process benchmarks of
# e2e/process_bench_test.go against the three in turn, ROUNDS times
# (default 5), and prints the median and range of each figure.
#
#   e2e/bench/compare.sh [REF] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
ref=${1:-main}
rounds=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/src"
git archive "$ref" | tar -x -C "$out/src"
(cd "$out/src" && go build -o "$out/before" .)
go build -o "$out/after" .
go build -tags tearenderer -o "$out/tea" .
go test -c -o "$out/e2e.test" ./e2e
cd e2e
for ((i = 1; i <= rounds; i++)); do
	for name in before after tea; do
		run() { TODO_SHELL_BINARY="$out/$name" "$out/e2e.test" -test.run '^$' -test.bench "$1" -test.benchtime "$2" | sed -n "s/^Benchmark/$name Benchmark/p"; }
		run 'Process(True|Help)$' 20x
		run 'ProcessFirstPrompt(SilentTerminal)?$' 10x
		run 'ProcessIdle$' 1x
		run 'ProcessKeystrokeEcho$' 1x
	done
done >"$out/results"
python3 - "$out/results" <<'PY'
import sys, collections, statistics
vals = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    name, bench = f[0], f[1].split('-')[0].replace('BenchmarkProcess', '')
    for v, unit in zip(f[3::2], f[4::2]):
        if unit in ('B/op', 'allocs/op'):
            continue
        x = float(v)
        if unit == 'ns/op':
            x, unit = x / 1e6, 'ms/op'
        vals[(bench, unit, name)].append(x)
rows = sorted({(b, u) for b, u, _ in vals})
print(f"{'benchmark':28} {'unit':22} {'before':>22} {'after':>22} {'tea':>22}")
for b, u in rows:
    cells = []
    for name in ('before', 'after', 'tea'):
        xs = vals.get((b, u, name))
        cells.append(f"{statistics.median(xs):.3g} ({min(xs):.3g}–{max(xs):.3g})" if xs else '')
    print(f"{b:28} {u:22} " + ' '.join(f'{c:>22}' for c in cells))
PY
