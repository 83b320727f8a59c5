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
#   BEFORE=/tmp/old/lading PAIRS=8 scripts/bench-reimport.sh
#                                                # then 8 pairs of each build's incremental
#                                                # re-import and dry run, alternating, and
#                                                # each build's median
#   BULK=1 scripts/bench-reimport.sh             # also the dry run of a re-import that
#                                                # changes every price (the account's
#                                                # catalog held whole; minutes at 1,000,000)
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
# and at least 300,000 rows/s of local work. With PAIRS (and BEFORE), the builds'
# incremental re-imports (from the marks this build's marking import left,
# on a fresh copy of the account each) and dry runs are measured again in
# PAIRS pairs, alternating, the first of a pair swapped every round (on a
# shared machine the first of two runs in a row tends to be the faster;
# its speed moves by a quarter within minutes, so single runs compare
# poorly). Needs go, awk, sort and GNU time (/usr/bin/time).
set -euo pipefail

PRODUCTS=${PRODUCTS:-250000}
VARIANTS=${VARIANTS:-4}
CHANGE=${CHANGE:-4000}
PORT=${PORT:-8796}
BEFORE=${BEFORE:-}
PAIRS=${PAIRS:-0}
BULK=${BULK:-}
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
[[ -z $BULK ]] || go run ./scripts/gencatalog -products "$PRODUCTS" -variants "$VARIANTS" -change 1 -o "$WORK/bulk.csv"
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

# copy_db FROM TO: a copy of the SQLite file FROM at TO, with its WAL and
# a sandbox's folder of files, where FROM has them.
copy_db() {
	local suffix
	for suffix in "" -wal .files; do
		if [[ -e $1$suffix ]]; then cp -r "$1$suffix" "$2$suffix"; fi
	done
}

# copy_account: a copy of the loaded account in $WORK/run.db, served,
# and a fresh state.
copy_account() {
	rm -rf "$WORK/run.db"* "$WORK/state.db"*
	copy_db "$DB" "$WORK/run.db"
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
	copy_db "$WORK/state.db" "$WORK/marked.db"
	reimport_incremental "$1" "$2"
	stop_sandbox
}

# reimport_incremental NAME BINARY: the incremental re-import of the
# changed file, which must not compare the whole account.
reimport_incremental() {
	reimport "$1 incremental re-import" "$2" --incremental
	if grep -q '"whole"' "$WORK/out"; then
		cat "$WORK/out" >&2
		fail "$1: the incremental re-import compared the whole account"
	fi
}

# dry LABEL BINARY FILE STATUS: the dry run of FILE into the account
# served, which must plan every row STATUS.
dry() {
	measure "$1" "$2" "${LADING[@]}" import --template shopify --dry-run --results "$WORK/dry.results.csv" "$3"
	stop_sandbox
	[[ $(variants "$4") -eq $ROWS ]] || { cat "$WORK/out" >&2; fail "$1: the dry run did not plan every row as $4"; }
	report "$1"
}

# dryrun NAME BINARY: a first import's dry run, into an empty account.
dryrun() {
	start_sandbox
	dry "$1 dry run" "$2" "$WORK/catalog.csv" created
}

# bulk NAME BINARY: the dry run of a re-import that changes every price,
# into a copy of the loaded account: every product differs, and the
# account's catalog is held whole for the plan.
bulk() {
	[[ -n $BULK ]] || return 0
	copy_account
	dry "$1 every price, dry run" "$2" "$WORK/bulk.csv" updated
}

# TIMES holds the seconds of the pairs' runs, by job and build.
declare -A TIMES

# again NAME BINARY: the incremental re-import once more, on a fresh copy
# of the account, from the marks the last marking import left.
again() {
	copy_account
	copy_db "$WORK/marked.db" "$WORK/state.db"
	reimport_incremental "$1" "$2"
	stop_sandbox
	TIMES["incremental re-import $1"]+=" $SECS"
}

# dryagain NAME BINARY: the dry run once more.
dryagain() {
	dryrun "$1" "$2"
	TIMES["dry run $1"]+=" $SECS"
}

# median SECONDS...: the median of the seconds given.
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# pairs: PAIRS pairs of each job, the builds alternating, the first of a
# pair swapped every round; then each build's median and their ratio.
pairs() {
	local round first second job
	for round in $(seq "$PAIRS"); do
		echo "pair $round: load $(cut -d' ' -f1-3 /proc/loadavg)"
		first=before second=after
		((round % 2)) || first=after second=before
		again "$first" "$(build "$first")"
		again "$second" "$(build "$second")"
		dryagain "$first" "$(build "$first")"
		dryagain "$second" "$(build "$second")"
	done
	for job in "incremental re-import" "dry run"; do
		# shellcheck disable=SC2086 # the seconds are words
		awk -v j="$job" -v n="$PAIRS" -v b="$(median ${TIMES["$job before"]})" -v a="$(median ${TIMES["$job after"]})" \
			'BEGIN { printf "%s, %d pairs alternating: median %.3f s against %.3f s before: %.2f of the time\n", j, n, a, b, a / b }'
	done
}

# build NAME: the binary of before or after.
build() {
	if [[ $1 == before ]]; then
		echo "$BEFORE"
	else
		echo "$WORK/lading"
	fi
}

if [[ -n $BEFORE ]]; then
	whole before "$BEFORE"
	whole after "$WORK/lading"
	incremental before "$BEFORE"
	incremental after "$WORK/lading"
	dryrun before "$BEFORE"
	dryrun after "$WORK/lading"
	bulk before "$BEFORE"
	bulk after "$WORK/lading"
	if ((PAIRS > 0)); then
		[[ $("$BEFORE" import --help 2>&1) == *--incremental* ]] || fail "PAIRS needs a BEFORE build that has --incremental"
		pairs
	fi
else
	whole this "$WORK/lading"
	incremental this "$WORK/lading"
	dryrun this "$WORK/lading"
	bulk this "$WORK/lading"
fi
