#!/usr/bin/env bash
# bench-stock.sh: the whole `lading stock push` command on 100,000 SKUs that
# the account and lading's cache already hold, 1% of them changed: requests
# (writes, reads, from the --json summary), wall time, rows/s and peak RSS
# (GNU time -v), beside a bare read of the same file (lading's CSV reader
# alone, scripts/readrows). Not part of CI.
#
#   scripts/bench-stock.sh                 # 100,000 SKUs (1,000 products x 100 variants)
#   PRODUCTS=100 scripts/bench-stock.sh    # 10,000 SKUs
#   PORT=8799 scripts/bench-stock.sh       # another port for the sandbox
#   BASE=/tmp/base scripts/bench-stock.sh  # the dry run beside another build's
#
# BASE is another lading, a binary or a source tree to build (an earlier
# commit: git worktree add /tmp/base <commit>). The account is then seeded
# and first pushed with BASE, whose state this build opens too (a newer
# schema would keep BASE from opening it); each build dry-runs a copy of
# that state once unmeasured, then RUNS times (default 3) in turn,
# measured; the results files of the last two must be the same, byte for
# byte.
#
# Steps: builds lading and readrows into a temporary directory; starts
# `lading sandbox --db` there; seeds the account with `lading import
# --read-ids` of a generated catalog (generic layout, SKU-000000 ...), which
# fills the cache of SKU ids; pushes a stock file of every SKU once, so that
# the levels are remembered; then measures the local work alone, a dry run
# of the same file with every 100th level changed (read, find the SKUs in
# the state, compare with the levels remembered, plan: no request), against
# the goal of 500,000 rows/s in under 100 MB; then pushes that file,
# measured: it must send exactly 10 writes (1,000 levels, 100 a write) and
# no read. Needs go, awk and GNU time (/usr/bin/time).
set -euo pipefail

PRODUCTS=${PRODUCTS:-1000}
VARIANTS=100
PORT=${PORT:-8798}
TOKEN=bench-token
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/time ]] || fail "GNU time is needed at /usr/bin/time (apt-get install time)"

ROWS=$((PRODUCTS * VARIANTS))
CHANGED=$(((ROWS + 99) / 100))

cd "$ROOT"
go build -o "$WORK/lading" .
go build -o "$WORK/readrows" ./scripts/readrows
SEEDER=$WORK/lading
if [[ -n ${BASE:-} ]]; then
	build_base
	SEEDER=$WORK/lading-base
fi

# The catalog: PRODUCTS products of 100 variants (a Size option each),
# SKU-000000 ..., in lading's generic layout.
awk -v n="$ROWS" -v per="$VARIANTS" 'BEGIN {
	print "product_key,product_name,product_description,product_notes,tags,sku,description,weight,cost,upc,stock,option1_name,option1_value,option2_name,option2_value,option3_name,option3_value"
	for (i = 0; i < n; i++) {
		p = int(i / per)
		printf "P%06d,%s,,,,SKU-%06d,,,,,%d,Size,S%d,,,,\n", p, (i % per == 0 ? "Product " p : ""), i, i % 7, i
	}
}' >"$WORK/catalog.csv"

# stock_file FILE BY: a level for every SKU (sku, quantity), every 100th
# raised by BY: the same levels as the stock package's benchmarks.
stock_file() {
	awk -v n="$ROWS" -v by="$2" 'BEGIN {
		print "sku,quantity"
		for (i = 0; i < n; i++)
			printf "SKU-%06d,%d\n", i, 10 + i % 500 + (i % 100 == 0 ? by : 0)
	}' >"$1"
}
stock_file "$WORK/base.csv" 0
stock_file "$WORK/changed.csv" 1000
echo "input: $ROWS SKUs ($PRODUCTS products x $VARIANTS variants), $CHANGED levels changed," \
	"$(($(stat -c %s "$WORK/changed.csv") / 1000)) kB, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

"$SEEDER" sandbox --addr "127.0.0.1:$PORT" --token "$TOKEN" --db "$WORK/sandbox.db" >"$WORK/sandbox.log" 2>&1 &
SANDBOX_PID=$!
for _ in $(seq 100); do
	grep -q "listening" "$WORK/sandbox.log" && break
	sleep 0.1
done
grep -q "listening" "$WORK/sandbox.log" || { cat "$WORK/sandbox.log" >&2; fail "the sandbox did not start on port $PORT (PORT=... picks another)"; }

FLAGS=(--base-url "http://127.0.0.1:$PORT" --token "$TOKEN" --quiet --rate 1000 --burst 100)
LADING=("$SEEDER" "${FLAGS[@]}")
STATE=(--state "$WORK/state.db")

# row LABEL [WRITES READS]: prints the last measure's figures.
row() {
	awk -v l="$1" -v s="$SECS" -v n="$ROWS" -v m="$RSS_MB" -v c="$CPU" -v w="${2:--}" -v r="${3:--}" \
		'BEGIN { printf "%-16s %8.3f s %10s rows/s %6d MB peak RSS %6.2f s CPU %7s writes %6s reads\n", l, s, (s > 0 ? sprintf("%.0f", n / s) : "-"), m, c, w, r }'
}

measure "seeding" "${LADING[@]}" import --template generic --read-ids "${STATE[@]}" --json \
	--results "$WORK/import.results.csv" "$WORK/catalog.csv"
row "seed (import)" "$(field writes)" "$(field reads)"

measure "first push" "${LADING[@]}" stock push --template stock --settle 0 "${STATE[@]}" --json \
	--results "$WORK/base.results.csv" "$WORK/base.csv"
row "push, all" "$(field writes)" "$(field reads)"
[[ $(field writes) -eq $(((ROWS + 99) / 100)) ]] || fail "the push of every level sent $(field writes) writes, want $(((ROWS + 99) / 100))"

# dry_run LABEL BINARY STATE: measures a dry run of the changed file.
dry_run() {
	measure "$1" "$2" "${FLAGS[@]}" stock push --template stock --settle 0 --dry-run --state "$3" --json \
		--results "$WORK/$1.results.csv" "$WORK/changed.csv"
	[[ $(field writes) -eq 0 && $(field reads) -eq 0 ]] || fail "the dry run sent $(field writes) writes and $(field reads) reads, want none"
}

if [[ -n ${BASE:-} ]]; then
	cp "$WORK/state.db" "$WORK/base.db"
	cp "$WORK/state.db" "$WORK/new.db"
	dry_run base "$WORK/lading-base" "$WORK/base.db" # unmeasured: each
	dry_run new "$WORK/lading" "$WORK/new.db"        # state as it stays
	for run in $(seq "${RUNS:-3}"); do
		echo "dry run $run: load $(cut -d' ' -f1-3 /proc/loadavg)"
		dry_run base "$WORK/lading-base" "$WORK/base.db"
		row "dry run, BASE"
		dry_run new "$WORK/lading" "$WORK/new.db"
		row "dry run, this"
	done
	cmp -s "$WORK/base.results.csv" "$WORK/new.results.csv" || fail "the dry runs' results files differ"
	echo "the dry runs' results files are the same, byte for byte"
	LADING=("$WORK/lading" "${FLAGS[@]}")
	STATE=(--state "$WORK/new.db")
else
	dry_run dry "$WORK/lading" "$WORK/state.db"
	row "dry run, 1%" "$(field writes)" "$(field reads)"
fi
DRY=$SECS DRY_RSS=$RSS_MB DRY_CPU=$CPU

measure "1% push" "${LADING[@]}" stock push --template stock --settle 0 "${STATE[@]}" --json \
	--results "$WORK/changed.results.csv" "$WORK/changed.csv"
WRITES=$(field writes) READS=$(field reads) PUSH=$SECS
row "push, 1% changed" "$WRITES" "$READS"
WANT=$(((CHANGED + 99) / 100))
[[ $WRITES -eq $WANT && $READS -eq 0 ]] || fail "the 1% push sent $WRITES writes and $READS reads, want $WANT writes and no read"
[[ $(($(wc -l <"$WORK/changed.results.csv") - 1)) -eq $ROWS ]] || fail "the results file has not one line per row"

measure "bare read" "$WORK/readrows" "$WORK/changed.csv"
[[ $(cat "$WORK/out") -eq $ROWS ]] || fail "the bare read counted $(cat "$WORK/out") rows, want $ROWS"
row "bare read"
awk -v a="$PUSH" -v b="$SECS" 'BEGIN { if (b > 0) printf "the 1%% push takes %.1fx the bare read\n", a / b }'
awk -v a="$DRY" -v n="$ROWS" -v m="$DRY_RSS" -v c="$DRY_CPU" 'BEGIN { if (a > 0) printf "local work (the dry run): %.0f rows/s (goal: 500,000 or more; %.0f rows a second of its CPU time), %d MB peak RSS (goal: under 100 MB)\n", n / a, (c > 0 ? n / c : 0), m }'
