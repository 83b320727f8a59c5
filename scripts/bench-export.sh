#!/usr/bin/env bash
# bench-export.sh: the whole `lading export` command on 100,000 variants of
# an unthrottled sandbox, to XLSX and to CSV: wall time, rows/s, peak RSS
# (GNU time -v) and requests (from the --json summary, against the bound
# ceil(records / 250)), beside a bare excelize StreamWriter loop writing the
# same cells (scripts/barexlsx, given the CSV export). Not part of CI.
#
#   scripts/bench-export.sh                 # 100,000 variants (1,000 products x 100 variants)
#   PRODUCTS=100 scripts/bench-export.sh    # 10,000 variants
#   PRODUCTS=10000 scripts/bench-export.sh  # 1,000,000 variants
#   PORT=8799 scripts/bench-export.sh       # another port for the sandbox
#   BASE=/tmp/base RUNS=3 scripts/bench-export.sh  # beside another build's
#
# BASE is another lading, a binary or a source tree to build (an earlier
# commit: git archive <commit> | tar -x -C /tmp/base). Each of RUNS rounds
# (default 1) measures the bare loop, then each export with BASE and with
# this build in turn, against the same sandbox, and says how each
# compares with that round's bare loop.
#
# Steps: builds lading and barexlsx into a temporary directory; starts
# `lading sandbox --db` there, loading into the account (--load) a
# generated catalog (generic layout: SKU-000000 ..., a Size option, UPC,
# weight, cost, opening stock, two tags a product, prices in two tiers);
# then measures `lading export variants` and `lading export products`, to
# .xlsx and .csv, and barexlsx writing the variants CSV export to XLSX.
# barexlsx reads the CSV as it writes, so its time includes a CSV read.
# The sandbox is another process: its work is not in lading's figures, but
# it shares the machine's cores. Needs go, awk and GNU time (/usr/bin/time).
set -euo pipefail

PRODUCTS=${PRODUCTS:-1000}
VARIANTS=100
PORT=${PORT:-8796}
TOKEN=bench-token
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/time ]] || fail "GNU time is needed at /usr/bin/time (apt-get install time)"

ROWS=$((PRODUCTS * VARIANTS))
PAGE=250

# The kinds of the variants export's columns (exporter/resources.go,
# variantEntity), for barexlsx; it fails if their number is not the
# export's.
VARIANT_KINDS=integer,integer,text,text,text,text,text,text,text,number,money,money,money,number,number,number,text,number,text,integer,integer,text,datetime,datetime

cd "$ROOT"
go build -o "$WORK/lading" .
go build -o "$WORK/barexlsx" ./scripts/barexlsx
BUILDS=(this)
if [[ -n ${BASE:-} ]]; then
	build_base
	BUILDS=(base this)
fi

# The catalog: PRODUCTS products of 100 variants, in lading's generic
# layout; product cells on each product's first row.
awk -v n="$ROWS" -v per="$VARIANTS" 'BEGIN {
	print "product_key,product_name,product_description,product_notes,tags,sku,description,weight,cost,upc,stock,option1_name,option1_value,option2_name,option2_value,option3_name,option3_value,tier:Retail,tier:Wholesale"
	for (i = 0; i < n; i++) {
		p = int(i / per)
		first = i % per == 0
		printf "P%06d,%s,%s,,%s,SKU-%06d,,%.2f,%.2f,%.0f,%d,Size,S%d,,,,,%.2f,%.2f\n", p,
			(first ? "Product " p : ""), (first ? "Organic cotton cut " p % 7 : ""), (first ? "bench|group-" p % 10 : ""),
			i, 0.1 + (i % 40) / 100, 3.5 + (i % 300) / 4, 400000000000 + i * 7919, i % 250, i,
			9.99 + i % 500, 4.5 + i % 200
	}
}' >"$WORK/catalog.csv"
echo "input: $ROWS variants ($PRODUCTS products x $VARIANTS variants), $(nproc) cores"

# The sandbox loads the catalog into the token's account before it serves
# (lading sandbox --load, the interface's write path without the rate
# limit): a minute or so for 1,000,000 variants.
LOAD_START=$(date +%s%N)
"$WORK/lading" sandbox --addr "127.0.0.1:$PORT" --token "$TOKEN" --db "$WORK/sandbox.db" \
	--load "$WORK/catalog.csv" --template generic >"$WORK/sandbox.log" 2>&1 &
SANDBOX_PID=$!
for _ in $(seq 6000); do
	grep -q "listening" "$WORK/sandbox.log" && break
	kill -0 "$SANDBOX_PID" 2>/dev/null || break
	sleep 0.1
done
grep -q "listening" "$WORK/sandbox.log" || { cat "$WORK/sandbox.log" >&2; fail "the sandbox did not load the catalog and start on port $PORT (PORT=... picks another)"; }
awk -v a="$LOAD_START" -v b="$(date +%s%N)" -v n="$ROWS" 'BEGIN { printf "%-18s %8.3f s %10.0f rows/s (lading sandbox --load)\n", "seed (load)", (b - a) / 1e9, n / ((b - a) / 1e9) }'

FLAGS=(--base-url "http://127.0.0.1:$PORT" --token "$TOKEN" --quiet --rate 1000000 --burst 1000)

# sandbox_cpu: the CPU seconds the sandbox process has used (user and
# system, from /proc), to tell how much of an export's time was its.
sandbox_cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$SANDBOX_PID/stat"
}

# row LABEL [REQUESTS BOUND [SANDBOX_CPU]]: prints the last measure's figures.
row() {
	awk -v l="$1" -v s="$SECS" -v n="$ROWS" -v m="$RSS_MB" -v c="$CPU" -v q="${2:--}" -v b="${3:--}" -v sc="${4:--}" \
		'BEGIN { printf "%-18s %8.3f s %10s rows/s %6d MB peak RSS %7.2f s CPU %6s requests (bound %s), sandbox CPU %s s\n", l, s, (s > 0 ? sprintf("%.0f", n / s) : "-"), m, c, q, b, sc }'
}


# export_one BUILD RESOURCE EXT RECORDS: measures lading export RESOURCE
# with BUILD (this: $WORK/lading, base: $WORK/lading-base) to a .EXT file,
# checks its rows and requests, and compares it with the bare loop
# measured last (BARE, BARE_CPU).
export_one() {
	local build=$1 res=$2 ext=$3 bound=$((($4 + PAGE - 1) / PAGE)) cpu0 bin=$WORK/lading
	[[ $build == base ]] && bin=$WORK/lading-base
	cpu0=$(sandbox_cpu)
	measure "export $res $ext ($build)" "$bin" "${FLAGS[@]}" export "$res" -o "$WORK/$res.$ext" --json
	local rows requests
	rows=$(field rows) requests=$(field requests)
	row "$res $ext, $build" "$requests" "$bound" "$(awk -v a="$cpu0" -v b="$(sandbox_cpu)" 'BEGIN { printf "%.2f", b - a }')"
	[[ $rows -eq $ROWS ]] || fail "the $res export to $ext ($build) wrote $rows rows, want $ROWS"
	[[ $requests -le $bound ]] || fail "the $res export to $ext ($build) sent $requests requests, more than ceil($4 / $PAGE) = $bound"
	awk -v l="$res $ext" -v w="$build" -v a="$SECS" -v b="$BARE" -v m="$RSS_MB" -v c="$CPU" -v bc="$BARE_CPU" 'BEGIN {
		printf "%-18s %.2fx the bare loop'"'"'s speed, %s build (goal end to end: 0.5x or more; for the work of lading alone, measured replayed by go test -bench Export ./exporter: 0.8x), %d MB peak RSS (goal: 150 MB or less), %.1fx its CPU\n",
			l, b / a, w, m, (bc > 0 ? c / bc : 0) }'
}

# bare: measures barexlsx writing the variants CSV export (written by the
# first export, then by each variants csv export) to XLSX.
bare() {
	measure "bare StreamWriter" "$WORK/barexlsx" -kinds "$VARIANT_KINDS" "$WORK/variants.csv" "$WORK/bare.xlsx"
	[[ $(cat "$WORK/out") -eq $ROWS ]] || fail "barexlsx wrote $(cat "$WORK/out") rows, want $ROWS"
	row "bare StreamWriter"
	BARE=$SECS BARE_CPU=$CPU
}

# The bare loop's input, unmeasured.
measure "export variants csv" "$WORK/lading" "${FLAGS[@]}" export variants -o "$WORK/variants.csv" --json
for run in $(seq "${RUNS:-1}"); do
	echo "round $run: load $(cut -d' ' -f1-3 /proc/loadavg)"
	bare
	for build in "${BUILDS[@]}"; do
		export_one "$build" variants xlsx "$ROWS"
		export_one "$build" variants csv "$ROWS"
		export_one "$build" products xlsx "$ROWS" # its pages are sized by variants: the bound is by variants too
		export_one "$build" products csv "$ROWS"
	done
done
echo "file sizes: variants.xlsx $(($(stat -c %s "$WORK/variants.xlsx") / 1024)) kB, bare.xlsx $(($(stat -c %s "$WORK/bare.xlsx") / 1024)) kB"
