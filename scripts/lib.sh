# lib.sh: what the scripts share; source it after setting PORT and TOKEN.
# It sets ROOT (the repository) and WORK (a temporary directory removed on
# exit, with the sandbox the script started: SANDBOX_PID), and defines
# fail.

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
