#!/usr/bin/env bash
# bench-load.sh: `lading sandbox --db DB --load FILE --template shopify`,
# the whole command from its start to "listening", under GNU time -v:
# wall time, CPU seconds (user and system), peak RSS; then a second start
# on the same database, which must find the catalog loaded. Not part of CI.
#
#   scripts/bench-load.sh                        # 250,000 products x 4 variants: 1,000,000 variants
#   PRODUCTS=25000 scripts/bench-load.sh         # 100,000 variants
#   BEFORE=/tmp/old/lading scripts/bench-load.sh # also another build, measured beside this one
#
# Goal at 1,000,000 variants on 2 cores: loaded and listening in under a
# minute. Needs go and GNU time (/usr/bin/time).
set -euo pipefail

PRODUCTS=${PRODUCTS:-250000}
VARIANTS=${VARIANTS:-4}
PORT=${PORT:-8797}
BEFORE=${BEFORE:-}
TOKEN=bench-token
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/time ]] || fail "GNU time is needed at /usr/bin/time (apt-get install time)"
[[ -z $BEFORE || -x $BEFORE ]] || fail "BEFORE=$BEFORE is not an executable lading"

cd "$ROOT"
go build -o "$WORK/lading" .
go run ./scripts/gencatalog -products "$PRODUCTS" -variants "$VARIANTS" -o "$WORK/catalog.csv"
echo "input: $((PRODUCTS * VARIANTS)) variants ($PRODUCTS products x $VARIANTS), $(nproc) cores"

# serve NAME BINARY DB: starts BINARY's sandbox on DB loading the catalog
# under time -v, waits for it to listen, stops it, and prints its figures.
serve() {
	local start end child
	: >"$WORK/sandbox.log"
	start=$(date +%s%N)
	/usr/bin/time -v -o "$WORK/time" "$2" sandbox --addr "127.0.0.1:$PORT" --token "$TOKEN" --db "$3" \
		--load "$WORK/catalog.csv" --template shopify >"$WORK/sandbox.log" 2>&1 &
	SANDBOX_PID=$!
	until grep -q "listening" "$WORK/sandbox.log"; do
		kill -0 "$SANDBOX_PID" 2>/dev/null || { cat "$WORK/sandbox.log" >&2; fail "$1: the sandbox stopped before it listened"; }
		sleep 0.1
	done
	end=$(date +%s%N)
	child=$(pgrep -P "$SANDBOX_PID")
	kill "$child"
	wait "$SANDBOX_PID" 2>/dev/null || true
	SANDBOX_PID=
	awk -v l="$1" -v a="$start" -v b="$end" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" -F': ' '
		/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
		END { printf "%-22s %7.1f s to listening %7.1f s CPU (%.1f user, %.1f sys) %5.0f MB peak RSS  load %s\n", l, (b - a) / 1e9, u + s, u, s, r / 1024, load }' "$WORK/time"
}

# commas N: N as lading writes counts, 1,000,000.
commas() {
	echo "$1" | sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta'
}

# load NAME BINARY: the catalog loaded into a new database, then a second
# start on it.
load() {
	local db="$WORK/$1.db"
	rm -rf "$db" "$db-wal" "$db-shm" "$db.files"
	serve "$1 load" "$2" "$db"
	grep -q "^loaded $(commas "$PRODUCTS") products and $(commas $((PRODUCTS * VARIANTS))) variants" "$WORK/sandbox.log" ||
		{ cat "$WORK/sandbox.log" >&2; fail "$1: the sandbox did not load every product and variant"; }
	serve "$1 second start" "$2" "$db"
	grep -q "is loaded already" "$WORK/sandbox.log" || { cat "$WORK/sandbox.log" >&2; fail "$1: the second start did not find the catalog loaded"; }
	rm -rf "$db" "$db-wal" "$db-shm" "$db.files"
}

if [[ -n $BEFORE ]]; then
	load before "$BEFORE"
	load after "$WORK/lading"
else
	load this "$WORK/lading"
fi
