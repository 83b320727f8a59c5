#!/usr/bin/env bash
# bench-import.sh: peak RSS and rows/s of the whole `lading import` command
# on a generated Shopify export, beside a bare read of the same file
# (lading's CSV reader alone). Not part of CI.
#
#   scripts/bench-import.sh                  # 250,000 products x 4 variants: 1,000,000 rows, dry run
#   PRODUCTS=25000 scripts/bench-import.sh   # a smaller file
#   REAL=1 scripts/bench-import.sh           # also a real import into a fresh in-memory sandbox
#                                            # (250,000 products: several minutes)
#
# The dry run reads an empty sandbox account, so every row is planned as
# created. Needs go and GNU time (/usr/bin/time). Goals at 1,000,000 rows on
# 2 cores: peak RSS at most 400 MB, at least 250,000 rows/s (dry run).
set -euo pipefail

PRODUCTS=${PRODUCTS:-250000}
VARIANTS=${VARIANTS:-4}
PORT=${PORT:-8797}
REAL=${REAL:-}
TOKEN=bench-token
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/time ]] || fail "GNU time is needed at /usr/bin/time (apt-get install time)"

cd "$ROOT"
go build -o "$WORK/lading" .
go build -o "$WORK/readrows" ./scripts/readrows
go run ./scripts/gencatalog -products "$PRODUCTS" -variants "$VARIANTS" -o "$WORK/catalog.csv"
ROWS=$((PRODUCTS * VARIANTS))
echo "input: $ROWS rows ($PRODUCTS products x $VARIANTS variants), $(($(stat -c %s "$WORK/catalog.csv") / 1000000)) MB, $(nproc) cores"

# measure LABEL CMD...: runs CMD under GNU time and prints its wall time,
# rows/s and peak RSS; sets SECS.
measure() {
	local label=$1 kb
	shift
	if ! /usr/bin/time -f "%M %e" -o "$WORK/time" "$@" >"$WORK/out" 2>&1; then
		cat "$WORK/out" >&2
		fail "$label failed"
	fi
	read -r kb SECS <"$WORK/time"
	awk -v l="$label" -v kb="$kb" -v s="$SECS" -v n="$ROWS" \
		'BEGIN { printf "%-10s %8.2f s %10s rows/s %8.0f MB peak RSS\n", l, s, (s > 0 ? sprintf("%.0f", n / s) : "-"), kb / 1024 }'
}

# check_results FILE: one line per row after the header.
check_results() {
	local lines
	lines=$(($(wc -l <"$1") - 1))
	[[ $lines -eq $ROWS ]] || fail "$1 has $lines lines for $ROWS rows"
}

LADING=("$WORK/lading" --base-url "http://127.0.0.1:$PORT" --token "$TOKEN" --quiet --rate 1000 --burst 100)

measure "bare read" "$WORK/readrows" "$WORK/catalog.csv"
BARE=$SECS
[[ $(cat "$WORK/out") -eq $ROWS ]] || fail "the bare read counted $(cat "$WORK/out") rows, want $ROWS"

start_sandbox
measure "dry run" "${LADING[@]}" import --template shopify --dry-run --results "$WORK/dry.results.csv" "$WORK/catalog.csv"
grep -q "rows: *$ROWS created" "$WORK/out" || { cat "$WORK/out" >&2; fail "the dry run did not plan every row as created"; }
check_results "$WORK/dry.results.csv"
awk -v a="$SECS" -v b="$BARE" 'BEGIN { if (b > 0) printf "dry run takes %.1fx the bare read\n", a / b }'

if [[ -n $REAL ]]; then
	start_sandbox
	measure "import" "${LADING[@]}" import --template shopify --batch-size 100 --state "$WORK/state.db" \
		--results "$WORK/import.results.csv" "$WORK/catalog.csv"
	grep -q "rows: *$ROWS created" "$WORK/out" || { cat "$WORK/out" >&2; fail "the import did not create every row"; }
	check_results "$WORK/import.results.csv"
	awk -v a="$SECS" -v b="$BARE" 'BEGIN { if (b > 0) printf "import takes %.1fx the bare read\n", a / b }'
fi
