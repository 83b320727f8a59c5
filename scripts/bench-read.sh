#!/usr/bin/env bash
# bench-read.sh: lading's XLSX reader (scripts/readrows, the source
# package's streaming reader alone) beside exceljs's streaming reader
# (scripts/exceljs/read.js, on node), on the same two workbooks of ROWS
# rows x 19 columns: one with inline strings (as excelize's StreamWriter
# writes) and one with a shared-string table and styled prices (as Excel
# saves). Each whole command runs under GNU time -v: wall time, rows/s,
# peak RSS and CPU, and lading's speed as a multiple of exceljs's. Not part
# of CI.
#
#   scripts/bench-read.sh                  # 100,000 rows
#   ROWS=20000 scripts/bench-read.sh
#   RUNS=3 scripts/bench-read.sh           # the best of 3 runs of each
#
# exceljs is installed with npm (scripts/exceljs/package.json pins it) into
# EXCELJS_DIR, outside the repository (default ~/.cache/lading-bench-exceljs),
# once. Needs go, node, npm and GNU time (/usr/bin/time).
set -euo pipefail

ROWS=${ROWS:-100000}
RUNS=${RUNS:-1}
EXCELJS_DIR=${EXCELJS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/lading-bench-exceljs}
PORT=0 TOKEN=
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/time ]] || fail "GNU time is needed at /usr/bin/time (apt-get install time)"
command -v node >/dev/null && command -v npm >/dev/null || fail "node and npm are needed for the exceljs peer"

mkdir -p "$EXCELJS_DIR"
cp "$ROOT/scripts/exceljs/package.json" "$ROOT/scripts/exceljs/read.js" "$EXCELJS_DIR/"
if [[ ! -d $EXCELJS_DIR/node_modules/exceljs ]]; then
	(cd "$EXCELJS_DIR" && npm install --no-audit --no-fund --silent) || fail "npm could not install exceljs into $EXCELJS_DIR"
fi

cd "$ROOT"
go build -o "$WORK/readrows" ./scripts/readrows
go build -o "$WORK/genxlsx" ./scripts/genxlsx
"$WORK/genxlsx" -rows "$ROWS" -o "$WORK/inline.xlsx"
"$WORK/genxlsx" -rows "$ROWS" -shared -o "$WORK/shared.xlsx"
WANT=$((ROWS / 4 * 4))
echo "input: $WANT rows x 19 columns; inline.xlsx $(($(stat -c %s "$WORK/inline.xlsx") / 1024)) kB," \
	"shared.xlsx $(($(stat -c %s "$WORK/shared.xlsx") / 1024)) kB; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# best LABEL CMD...: the best of RUNS measures of CMD (fastest wall time),
# checking the row count it prints; prints its row and sets B_SECS, B_RSS.
best() {
	local label=$1
	shift
	B_SECS= B_RSS= B_CPU=
	for _ in $(seq "$RUNS"); do
		measure "$label" "$@"
		[[ $(cat "$WORK/out") -eq $WANT ]] || fail "$label counted $(cat "$WORK/out") rows, want $WANT"
		if [[ -z $B_SECS ]] || awk -v a="$SECS" -v b="$B_SECS" 'BEGIN { exit !(a < b) }'; then
			B_SECS=$SECS B_RSS=$RSS_MB B_CPU=$CPU
		fi
	done
	awk -v l="$label" -v s="$B_SECS" -v n="$WANT" -v m="$B_RSS" -v c="$B_CPU" \
		'BEGIN { printf "%-18s %8.3f s %10.0f rows/s %6d MB peak RSS %7.2f s CPU\n", l, s, n / s, m, c }'
}

for kind in inline shared; do
	best "lading $kind" "$WORK/readrows" "$WORK/$kind.xlsx"
	L_SECS=$B_SECS
	best "exceljs $kind" node "$EXCELJS_DIR/read.js" "$WORK/$kind.xlsx"
	awk -v l="$kind" -v a="$L_SECS" -v b="$B_SECS" \
		'BEGIN { printf "%-18s lading reads at %.2fx exceljs'"'"'s speed (goal: 1.5x or more)\n", l, b / a }'
done
