#!/usr/bin/env bash
# bench-reimport.sh: the import merchants run most, a catalog imported
# again into an account that already holds it, with a few rows changed:
# comparing the whole account, and incrementally (--incremental: after an
# incremental import of the same catalog left its marks, the changed one);
# and a first import's dry run of the same catalog into an empty account.
# Each is the whole `lading import` command under GNU time -v: peak RSS,
# rows/s (rows ÷ the command's wall seconds, the sandbox's answers
# included), local rows/s (rows ÷ lading's own CPU seconds, user and
# system: the sandbox's work is not counted), and the requests it sent
# (reads and writes, from its --json summary). Not part of CI.
#
#   scripts/bench-reimport.sh                    # 250,000 products x 4 variants: 1,000,000 rows, 250 changed
#   PRODUCTS=25000 scripts/bench-reimport.sh     # 100,000 rows, 25 changed
#   BEFORE=/tmp/old/lading scripts/bench-reimport.sh
#                                                # also another build, measured beside this one
#   DB=/tmp/big.db scripts/bench-reimport.sh     # keeps the loaded account for the next run
#                                                # (loaded as of LOAD_DATE: a week ago by default)
#
# Steps: builds lading; writes the catalog (scripts/gencatalog) and the
# same catalog with every CHANGE-th variant's price raised (default 4,000:
# 250 of 1,000,000); loads the catalog into a file-backed sandbox with
# `lading sandbox --db DB --load FILE --template shopify --load-date DAY`
# (a minute at 1,000,000 rows; with DB kept, a later run finds it
# loaded), as of a week ago, so that an incremental import finds it
# unchanged since; then, for each build, imports the changed file into a
# copy of the loaded account (it must update exactly the changed
# variants and nothing else), and, for a build that has --incremental,
# the catalog then the changed file incrementally into another copy with
# a fresh state; and runs the dry run of the catalog into an empty
# sandbox. Goals at 1,000,000 rows on 2 cores: peak RSS at most 250 MB
# and at least 300,000 rows/s of local work. Needs go, awk and GNU time
# (/usr/bin/time).
set -euo pipefail

PRODUCTS=${PRODUCTS:-250000}
VARIANTS=${VARIANTS:-4}
CHANGE=${CHANGE:-4000}
PORT=${PORT:-8796}
BEFORE=${BEFORE:-}
LOAD_DATE=${LOAD_DATE:-$(date -u -d '7 days ago' +%F)}
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
start_sandbox --db "$DB" --load "$WORK/catalog.csv" --template shopify --load-date "$LOAD_DATE"
stop_sandbox
echo "account: $(grep -E '^(loaded|.* is loaded already)' "$WORK/sandbox.log" | head -1) ($(($(date +%s) - start)) s with the start)"

LADING=(--base-url "http://127.0.0.1:$PORT" --token "$TOKEN" --quiet --json --rate 1000 --burst 100)

# report LABEL: prints the figures of the command measure ran.
report() {
	awk -v l="$1" -v s="$SECS" -v cpu="$CPU" -v mb="$RSS_MB" -v n="$ROWS" -v rq="$(field requests)" -v rd="$(field reads)" -v wr="$(field writes)" \
		'BEGIN { printf "%-30s %7.1f s wall %9.0f rows/s %6.2f s CPU %9s rows/s local %5d MB peak RSS %6d requests (%d reads, %d writes)\n",
			l, s, n / s, cpu, (cpu > 0 ? sprintf("%.0f", n / cpu) : "-"), mb, rq, rd, wr }'
}

# variants STATUS: the count of variants of that status in the summary.
variants() {
	grep -o '"variants": *{[^}]*}' "$WORK/out" | grep -o "\"$1\": *[0-9]*" | grep -o '[0-9]*$' || echo 0
}

# copy_account: a copy of the loaded account in $WORK/run.db, served,
# and a fresh state.
copy_account() {
	rm -rf "$WORK/run.db"* "$WORK/state.db"*
	for f in "$DB" "$DB-wal" "$DB.files"; do
		[[ -e $f ]] && cp -r "$f" "$WORK/run.db${f#"$DB"}"
	done
	start_sandbox --db "$WORK/run.db"
}

# reimport NAME BINARY [FLAGS...]: the changed file imported into a copy
# of the loaded account, with FLAGS.
reimport() {
	local name=$1 bin=$2
	shift 2
	measure "$name" "$bin" "${LADING[@]}" import --template shopify --batch-size 100 "$@" \
		--state "$WORK/state.db" --results "$WORK/reimport.results.csv" "$WORK/changed.csv"
	[[ $(variants updated) -eq $CHANGED && $(variants unchanged) -eq $((ROWS - CHANGED)) ]] ||
		{ cat "$WORK/out" >&2; fail "$name: the re-import did not update exactly the $CHANGED changed variants"; }
	report "$name"
}

# whole NAME BINARY: the re-import that compares the whole account.
whole() {
	copy_account
	reimport "$1 re-import" "$2"
	stop_sandbox
}

# incremental NAME BINARY: an incremental import of the catalog, which
# finds it all unchanged and leaves its marks, then the incremental
# re-import of the changed file; nothing for a build without
# --incremental.
incremental() {
	[[ $("$2" import --help 2>&1) == *--incremental* ]] || return 0
	copy_account
	measure "$1 incremental, marking" "$2" "${LADING[@]}" import --template shopify --batch-size 100 --incremental \
		--state "$WORK/state.db" --results "$WORK/reimport.results.csv" "$WORK/catalog.csv"
	[[ $(variants unchanged) -eq $ROWS ]] || { cat "$WORK/out" >&2; fail "$1: the incremental import of the catalog found changes"; }
	report "$1 incremental, marking"
	reimport "$1 incremental re-import" "$2" --incremental
	grep -q '"whole"' "$WORK/out" && { cat "$WORK/out" >&2; fail "$1: the incremental re-import compared the whole account"; }
	stop_sandbox
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
	whole before "$BEFORE"
	whole after "$WORK/lading"
	incremental before "$BEFORE"
	incremental after "$WORK/lading"
	dryrun before "$BEFORE"
	dryrun after "$WORK/lading"
else
	whole this "$WORK/lading"
	incremental this "$WORK/lading"
	dryrun this "$WORK/lading"
fi
