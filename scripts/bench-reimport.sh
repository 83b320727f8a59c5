#!/usr/bin/env bash
# bench-reimport.sh: the import merchants run most, a catalog imported
# again into an account that already holds it, with a few rows changed;
# and a first import's dry run of the same catalog into an empty account.
# Each is the whole `lading import` command under GNU time -v: peak RSS,
# local rows/s (rows ÷ lading's own CPU seconds, user and system: the
# sandbox's work is not counted), wall time, and the requests it sent
# (reads and writes, from its --json summary). Not part of CI.
#
#   scripts/bench-reimport.sh                    # 250,000 products x 4 variants: 1,000,000 rows, 250 changed
#   PRODUCTS=25000 scripts/bench-reimport.sh     # 100,000 rows, 25 changed
#   BEFORE=/tmp/old/lading scripts/bench-reimport.sh
#                                                # also another build, measured beside this one
#   DB=/tmp/big.db scripts/bench-reimport.sh     # keeps the loaded account for the next run
#
# Steps: builds lading; writes the catalog (scripts/gencatalog) and the
# same catalog with every CHANGE-th variant's price raised (default 4,000:
# 250 of 1,000,000); loads the catalog into a file-backed sandbox with
# `lading sandbox --db DB --load FILE --template shopify` (minutes at
# 1,000,000 rows; with DB kept, a later run finds it loaded); then, for
# each build, imports the changed file into a copy of the loaded account
# (it must update exactly the changed variants and nothing else) and runs
# the dry run of the catalog into an empty sandbox. Goals at 1,000,000
# rows on 2 cores: peak RSS at most 250 MB and at least 300,000 rows/s of
# local work, for both. Needs go, awk and GNU time (/usr/bin/time).
set -euo pipefail

PRODUCTS=${PRODUCTS:-250000}
VARIANTS=${VARIANTS:-4}
CHANGE=${CHANGE:-4000}
PORT=${PORT:-8796}
BEFORE=${BEFORE:-}
TOKEN=bench-token
source "$(dirname "$0")/lib.sh"
DB=${DB:-$WORK/loaded.db}

[[ -x /usr/bin/time ]] || fail "GNU time is needed at /usr/bin/time (apt-get install time)"
[[ -z $BEFORE || -x $BEFORE ]] || fail "BEFORE=$BEFORE is not an executable lading"

ROWS=$((PRODUCTS * VARIANTS))
CHANGED=$((ROWS / CHANGE))

cd "$ROOT"
go build -o "$WORK/lading" .
go run ./scripts/gencatalog -products "$PRODUCTS" -variants "$VARIANTS" -o "$WORK/catalog.csv"
go run ./scripts/gencatalog -products "$PRODUCTS" -variants "$VARIANTS" -change "$CHANGE" -o "$WORK/changed.csv"
echo "input: $ROWS rows ($PRODUCTS products x $VARIANTS variants), $CHANGED changed, $(nproc) cores, load: $(uptime | sed 's/.*load average: //')"

# stop_sandbox stops the sandbox start_sandbox started.
stop_sandbox() {
	kill "$SANDBOX_PID" && wait "$SANDBOX_PID" 2>/dev/null || true
	SANDBOX_PID=
}

# Loading a million rows takes minutes: start_sandbox waits for it.
SANDBOX_WAIT=1800
start=$(date +%s)
start_sandbox --db "$DB" --load "$WORK/catalog.csv" --template shopify
stop_sandbox
echo "account: $(grep -E '^(loaded|.* is loaded already)' "$WORK/sandbox.log" | head -1) ($(($(date +%s) - start)) s with the start)"

LADING=(--base-url "http://127.0.0.1:$PORT" --token "$TOKEN" --quiet --json --rate 1000 --burst 100)

# report LABEL: prints the figures of the command measure ran.
report() {
	awk -v l="$1" -v s="$SECS" -v cpu="$CPU" -v mb="$RSS_MB" -v n="$ROWS" -v rq="$(field requests)" -v rd="$(field reads)" -v wr="$(field writes)" \
		'BEGIN { printf "%-26s %7.1f s wall %6.2f s CPU %9s rows/s local %5d MB peak RSS %6d requests (%d reads, %d writes)\n", l, s, cpu, (cpu > 0 ? sprintf("%.0f", n / cpu) : "-"), mb, rq, rd, wr }'
}

# variants STATUS: the count of variants of that status in the summary.
variants() {
	grep -o '"variants": *{[^}]*}' "$WORK/out" | grep -o "\"$1\": *[0-9]*" | grep -o '[0-9]*$' || echo 0
}

# reimport NAME BINARY: the changed file imported into a copy of the
# loaded account.
reimport() {
	rm -rf "$WORK/run.db"* "$WORK/state.db"*
	for f in "$DB" "$DB-wal" "$DB.files"; do
		[[ -e $f ]] && cp -r "$f" "$WORK/run.db${f#"$DB"}"
	done
	start_sandbox --db "$WORK/run.db"
	measure "$1 re-import" "$2" "${LADING[@]}" import --template shopify --batch-size 100 \
		--state "$WORK/state.db" --results "$WORK/reimport.results.csv" "$WORK/changed.csv"
	stop_sandbox
	[[ $(variants updated) -eq $CHANGED && $(variants unchanged) -eq $((ROWS - CHANGED)) ]] ||
		{ cat "$WORK/out" >&2; fail "$1: the re-import did not update exactly the $CHANGED changed variants"; }
	report "$1 re-import"
}

# dryrun NAME BINARY: a first import's dry run, into an empty account.
dryrun() {
	start_sandbox
	measure "$1 dry run" "$2" "${LADING[@]}" import --template shopify --dry-run \
		--results "$WORK/dry.results.csv" "$WORK/catalog.csv"
	stop_sandbox
	[[ $(variants created) -eq $ROWS ]] || { cat "$WORK/out" >&2; fail "$1: the dry run did not plan every row as created"; }
	report "$1 dry run"
}

if [[ -n $BEFORE ]]; then
	reimport before "$BEFORE"
	reimport after "$WORK/lading"
	dryrun before "$BEFORE"
	dryrun after "$WORK/lading"
else
	reimport this "$WORK/lading"
	dryrun this "$WORK/lading"
fi
