#!/usr/bin/env bash
# fuzz-all.sh: every fuzz target of the repository, one after the other,
# each for at most EXECS executions or SECONDS seconds (stopped then, as
# Ctrl-C stops it: what it found is kept), the parsers of files first
# (./source). A target that fails writes its input under its package's
# testdata/fuzz/, where `go test` runs it from then on; the list of those
# that failed ends the output, and the script exits 1 if any did. Not part
# of CI: with the defaults, about 40 minutes on 2 cores.
#
#   scripts/fuzz-all.sh                        # 400,000 executions or 120 s a target
#   EXECS=3000000 SECONDS_EACH=600 scripts/fuzz-all.sh
#   ONLY=./source scripts/fuzz-all.sh          # the targets of one package
#
# -fuzztime is given as a count: Go 1.26's coordinator can fail a run given
# a duration at its end without a failing input (golang/go#75804).
set -uo pipefail

EXECS=${EXECS:-400000}
SECONDS_EACH=${SECONDS_EACH:-120}
ONLY=${ONLY:-}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1

# The test files that hold fuzz targets, ./source's first.
files=$(grep -rl --include='*_test.go' '^func Fuzz' . | sort | awk '/^\.\/source\//{print; next} {rest = rest $0 "\n"} END {printf "%s", rest}')
failed=()
for f in $files; do
	pkg=$(dirname "$f")
	[[ -z $ONLY || $pkg == "$ONLY" ]] || continue
	for target in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
		echo "== $pkg $target $(date +%T)"
		out=$(timeout -s INT "$SECONDS_EACH" go test -run '^$' -fuzz "^$target\$" -fuzztime "${EXECS}x" "$pkg" 2>&1)
		grep -v '^fuzz: elapsed' <<<"$out" | tail -12
		if grep -q -- '--- FAIL' <<<"$out"; then
			failed+=("$pkg $target")
		fi
	done
done
if ((${#failed[@]} > 0)); then
	printf 'failed: %s\n' "${failed[@]}"
	exit 1
fi
echo "no target failed"
