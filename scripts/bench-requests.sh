#!/usr/bin/env bash
# Measures what a first upload costs on the rate limit: a catalog of
# PRODUCTS products × 2 variants (Shopify layout), batch size 100, into a
# sandbox throttled to RATE requests/s with the client at the same rate.
# Runs the import twice on fresh sandboxes, without and with --read-ids, and
# prints requests (writes and reads), wall time and the bound
# 1.05 × (requests − burst) ÷ rate (0 when the burst holds them all), side
# by side.
#
#   scripts/bench-requests.sh            # 20000 products, rate 10
#   PRODUCTS=2000 RATE=10 scripts/bench-requests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
products=${PRODUCTS:-20000}
rate=${RATE:-10}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

go build -o "$work/lading" .
go run ./scripts/gencatalog -products "$products" -variants 2 -o "$work/catalog.csv"

port=$((20000 + RANDOM % 20000))
printf "%-12s %9s %7s %6s %9s %9s %9s %6s\n" run requests writes reads throttled wall bound ratio
for flags in "" "--read-ids"; do
	port=$((port + 1))
	"$work/lading" sandbox --addr "127.0.0.1:$port" --token T --rate "$rate" --burst "$rate" >"$work/sandbox.log" 2>&1 &
	sb=$!
	for _ in $(seq 50); do
		curl -s -o /dev/null "http://127.0.0.1:$port/" && break
		sleep 0.1
	done
	rm -f "$work/state.db" "$work/catalog.csv.results.csv"
	start=$(date +%s.%N)
	LADING_BASE_URL="http://127.0.0.1:$port" LADING_TOKEN=T "$work/lading" --quiet --rate "$rate" --burst "$rate" \
		import --template shopify --batch-size 100 --state "$work/state.db" --json $flags "$work/catalog.csv" >"$work/report.json"
	end=$(date +%s.%N)
	kill "$sb"
	wait "$sb" 2>/dev/null || true
	python3 - "$work/report.json" "$start" "$end" "$rate" "${flags:-default}" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
start, end, rate, name = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
wall = end - start
req = rep["requests"]
bound = max(0.0, 1.05 * (req - rate) / rate)
ratio = f"{wall / bound:6.2f}" if bound > 0 else f"{'-':>6}"
print(f"{name:<12} {req:9d} {rep['writes']:7d} {rep['reads']:6d} {rep['throttled']:9d} {wall:8.2f}s {bound:8.2f}s {ratio}")
PY
done
