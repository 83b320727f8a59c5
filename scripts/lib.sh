# lib.sh: what the scripts share; source it after setting PORT and TOKEN.
# It sets ROOT (the repository) and WORK (a temporary directory removed on
# exit, with the sandbox the script started: SANDBOX_PID), and defines
# fail, and for the bench scripts field, build_base, start_sandbox and measure.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$(mktemp -d)
SANDBOX_PID=

cleanup() {
	if [[ -n $SANDBOX_PID ]]; then
		kill "$SANDBOX_PID" 2>/dev/null || true
		wait "$SANDBOX_PID" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# field NAME: the number NAME of the JSON summary in $WORK/out.
field() {
	grep -o "\"$1\": *[0-9]*" "$WORK/out" | head -1 | grep -o '[0-9]*$'
}

# build_base: puts BASE, another lading (a binary, or a source tree to
# build: git archive <commit> | tar -x -C /tmp/base), at $WORK/lading-base.
build_base() {
	if [[ -d $BASE ]]; then
		(cd "$BASE" && go build -o "$WORK/lading-base" .)
	else
		cp "$BASE" "$WORK/lading-base"
	fi
}

# start_sandbox [ARGS...] starts a sandbox ($WORK/lading) on PORT with
# TOKEN and ARGS (none: empty and in memory), stopping the one it started
# before, and waits SANDBOX_WAIT seconds at most (default 10) for it to
# listen.
start_sandbox() {
	if [[ -n $SANDBOX_PID ]]; then
		kill "$SANDBOX_PID" && wait "$SANDBOX_PID" 2>/dev/null || true
	fi
	: >"$WORK/sandbox.log"
	"$WORK/lading" sandbox --addr "127.0.0.1:$PORT" --token "$TOKEN" "$@" >"$WORK/sandbox.log" 2>&1 &
	SANDBOX_PID=$!
	for _ in $(seq $((${SANDBOX_WAIT:-10} * 10))); do
		grep -q "listening" "$WORK/sandbox.log" && return 0
		kill -0 "$SANDBOX_PID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$WORK/sandbox.log" >&2
	fail "the sandbox did not start on port $PORT (PORT=... picks another)"
}

# measure LABEL CMD...: runs CMD under GNU time -v (its output in
# $WORK/out) and sets RSS_MB, CPU (its user and system seconds: the
# command's own work, without the sandbox's), and SECS, the wall time (to
# the microsecond: time's own is to 10 ms).
measure() {
	local label=$1 start end
	shift
	start=$(date +%s%N)
	if ! /usr/bin/time -v -o "$WORK/time" "$@" >"$WORK/out" 2>"$WORK/err"; then
		cat "$WORK/err" "$WORK/out" >&2
		fail "$label failed"
	fi
	end=$(date +%s%N)
	SECS=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", (b - a) / 1e9 }')
	RSS_MB=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$WORK/time")
	CPU=$(awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { printf "%.2f", s }' "$WORK/time")
}
