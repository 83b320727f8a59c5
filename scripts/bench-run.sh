#!/usr/bin/env bash
# bench-run.sh: one `lading run` process for many accounts, as a 3PL runs
# it. ACCOUNTS accounts (200) of SKUS SKUs each (10,000), each with a stock
# push every minute of a file in which 1% of the levels changed since the
# last minute, against a file-backed sandbox (`lading sandbox --db`), for
# MINUTES minutes (10). It reports the runner's CPU time and peak RSS (GNU
# time -v), the load of the machine (uptime) before and after, and whether
# every push ran on time: runs per account, how late each started after
# its turn (late_s of its log line), how long the longest took. Not part
# of CI.
#
#   scripts/bench-run.sh                              # 200 x 10,000, 10 minutes
#   ACCOUNTS=20 SKUS=1000 MINUTES=2 scripts/bench-run.sh   # a quick look
#   PORT=8797 scripts/bench-run.sh                    # another port for the sandbox
#   KEEP=run.log scripts/bench-run.sh                  # keep the runner's log
#   PARALLEL=8 scripts/bench-run.sh                    # lading run --parallel 8
#
# Steps: builds lading; starts the sandbox with one token per account;
# adds the accounts (lading accounts add, token files) in a config and data
# folder of its own (XDG_CONFIG_HOME, XDG_DATA_HOME); seeds each account
# with SKUS SKUs (lading import --read-ids of a generated catalog, which
# fills each account's state with its SKU ids); pushes every account's
# levels once (lading run --once), so that each knows them; then measures
# lading run while a writer changes 1% of each account's levels every
# minute (written beside the file and renamed into place). Needs go, awk,
# python3 and GNU time (/usr/bin/time).
set -euo pipefail

ACCOUNTS=${ACCOUNTS:-200}
SKUS=${SKUS:-10000}
MINUTES=${MINUTES:-10}
PORT=${PORT:-8797}
TOKEN=unused
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/time ]] || fail "GNU time is needed at /usr/bin/time (apt-get install time)"
((SKUS % 100 == 0)) || fail "SKUS must be a multiple of 100 (products of 100 variants)"
((MINUTES >= 2)) || fail "MINUTES must be 2 or more: each account's turn comes once a minute, and a shorter run may hold no turn of some accounts"

PARALLEL_FLAG=(${PARALLEL:+--parallel "$PARALLEL"})
cd "$ROOT"
go build -o "$WORK/lading" .
export XDG_CONFIG_HOME="$WORK/config" XDG_DATA_HOME="$WORK/data"
LADING="$WORK/lading"
BASE="http://127.0.0.1:$PORT"
names=()
tokens=()
mkdir -p "$WORK/tokens" "$WORK/stock" "$WORK/imports"
for i in $(seq -f "%03g" 1 "$ACCOUNTS"); do
	names+=("acc$i")
	tokens+=(--token "bench-token-$i")
	echo "bench-token-$i" >"$WORK/tokens/acc$i"
done

"$LADING" sandbox --addr "127.0.0.1:$PORT" --db "$WORK/sandbox.db" "${tokens[@]}" >"$WORK/sandbox.log" 2>&1 &
SANDBOX_PID=$!
for _ in $(seq 300); do
	grep -q "listening" "$WORK/sandbox.log" && break
	sleep 0.1
done
grep -q "listening" "$WORK/sandbox.log" || { cat "$WORK/sandbox.log" >&2; fail "the sandbox did not start on port $PORT (PORT=... picks another)"; }

# The catalog every account has: SKUS SKUs in products of 100 variants,
# with the levels of minute 0 (the generic layout, as bench-stock.sh's).
awk -v n="$SKUS" 'BEGIN {
	print "product_key,product_name,product_description,product_notes,tags,sku,description,weight,cost,upc,stock,option1_name,option1_value,option2_name,option2_value,option3_name,option3_value"
	for (i = 0; i < n; i++)
		printf "P%06d,%s,,,,SKU-%06d,,,,,%d,Size,S%d,,,,\n", int(i / 100), (i % 100 == 0 ? "Product " int(i / 100) : ""), i, 10 + i % 500, i
}' >"$WORK/catalog.csv"

start=$(date +%s)
for name in "${names[@]}"; do
	"$LADING" accounts add "$name" --base-url "$BASE" --token-file "$WORK/tokens/$name" >/dev/null
done
printf '%s\n' "${names[@]}" | xargs -P 2 -I{} "$LADING" --account {} --quiet --rate 1000 --burst 100 import \
	--template generic --read-ids --results "$WORK/imports/{}.results.csv" "$WORK/catalog.csv" >/dev/null
echo "seeded $ACCOUNTS accounts of $SKUS SKUs in $(($(date +%s) - start)) s"

# stock_files MINUTE: every account's stock file as of MINUTE, each
# written beside its place and renamed into it. At minute m the SKUs i
# with (i + 7a + 13m) % 100 == 0 of account a (1% of them, another stripe
# each minute and account) go up by m; 13 is prime to 100, so in 100
# minutes each SKU changes once: at minute (-(i + 7a) * 77) % 100, 77
# being 13's inverse modulo 100.
stock_files() {
	awk -v n="$SKUS" -v accounts="$ACCOUNTS" -v minute="$1" -v dir="$WORK/stock" 'BEGIN {
		for (a = 1; a <= accounts; a++) {
			f = sprintf("%s/.acc%03d.csv.part", dir, a)
			print "sku,quantity" > f
			for (i = 0; i < n; i++) {
				m = ((100 - (i + 7 * a) % 100) % 100 * 77) % 100
				printf "SKU-%06d,%d\n", i, 10 + i % 500 + (m >= 1 && m <= minute ? m : 0) > f
			}
			close(f)
		}
	}'
	for name in "${names[@]}"; do
		mv "$WORK/stock/.$name.csv.part" "$WORK/stock/$name.csv"
	done
}
stock_files 0

{
	echo "jobs:"
	for name in "${names[@]}"; do
		echo "  - {account: $name, job: stock push, file: $WORK/stock/$name.csv, template: stock, every: 1m, settle: 0s}"
	done
} >"$WORK/jobs.yaml"
"$LADING" jobs check "$WORK/jobs.yaml" >/dev/null

start=$(date +%s)
"$LADING" run --once --log-format json "${PARALLEL_FLAG[@]}" "$WORK/jobs.yaml" 2>"$WORK/once.log" || { tail "$WORK/once.log" >&2; fail "the first push of every account failed"; }
echo "first push of every account (every level, lading run --once): $(($(date +%s) - start)) s"

# The warehouse: 1% of each account's levels change every minute.
(
	for m in $(seq 1 "$MINUTES"); do
		sleep 60
		stock_files "$m"
	done
) &
WRITER_PID=$!

echo "load before: $(uptime)"
secs=$((MINUTES * 60))
/usr/bin/time -v -o "$WORK/time" timeout -s TERM "$secs" "$LADING" run --log-format json "${PARALLEL_FLAG[@]}" "$WORK/jobs.yaml" 2>"$WORK/run.log" || true
echo "load after:  $(uptime)"
[[ -n ${KEEP:-} ]] && cp "$WORK/run.log" "$KEEP"
kill "$WRITER_PID" 2>/dev/null || true
wait "$WRITER_PID" 2>/dev/null || true

python3 - "$WORK/run.log" "$WORK/time" "$ACCOUNTS" "$SKUS" "$MINUTES" <<'PY'
import json, sys, collections
from datetime import datetime, timedelta
log, timef, accounts, skus, minutes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
runs = collections.defaultdict(list)
outcomes = collections.Counter()
began = ended = None
when = lambda m: datetime.fromisoformat(m["time"][:26].rstrip("Z"))
for line in open(log):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    began = began or when(m)
    ended = when(m)
    if m.get("kind") != "stock push":
        continue
    outcomes[m["outcome"]] += 1
    m["start"] = when(m) - timedelta(seconds=m["elapsed_s"])
    runs[m["account"]].append(m)
t = {}
for line in open(timef):
    k, _, v = line.strip().rpartition(": ")
    t[k] = v
cpu = float(t["User time (seconds)"]) + float(t["System time (seconds)"])
rss = int(t["Maximum resident set size (kbytes)"]) / 1024
wall = minutes * 60
lates = sorted(r["late_s"] for rs in runs.values() for r in rs)
# An account's first turn in the run is due from its push by --once, which
# ran before the run started: how late it is says how long that took.
later = sorted(r["late_s"] for rs in runs.values() for r in rs[1:])
elapsed = sorted(r["elapsed_s"] for rs in runs.values() for r in rs)
sent = sum(r["rows"].get("sent", 0) for rs in runs.values() for r in rs)
counts = sorted(len(rs) for rs in runs.values())
# A turn missed: more than a minute (and 5 s) between two starts of an
# account's push, or between its last and the run's end. A run off its
# turn (the first, due from --once) is followed by the first turn half a
# minute after it: up to a minute and a half later, as the account's
# first turn can be after the run's start.
missed = 0
for rs in runs.values():
    starts = [began] + [r["start"] for r in rs] + [ended]
    for i, (a, b) in enumerate(zip(starts, starts[1:])):
        missed += b - a > timedelta(seconds=95 if i < 2 else 65)
p = lambda xs, q: xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
print(f"runner: {cpu:.1f} s CPU in {wall} s ({100 * cpu / wall:.1f}% of one core), peak RSS {rss:.0f} MB")
print(f"pushes: {sum(counts)} ({dict(outcomes)}), {sent} levels sent; per account {counts[0] if counts else 0} to {counts[-1] if counts else 0} "
      f"(a turn a minute: {minutes - 1} to {minutes + 1}, by where its turn falls at the window's ends)")
print(f"late after their turn: median {p(lates, .5):.3f} s, p99 {p(lates, .99):.3f} s, max {lates[-1] if lates else float('nan'):.3f} s")
print(f"  after the first turn of each account: median {p(later, .5):.3f} s, p99 {p(later, .99):.3f} s, max {later[-1] if later else float('nan'):.3f} s, "
      f"{sum(1 for x in later if x > 5)} more than 5 s late; {missed} turns missed")
print(f"push time: median {p(elapsed, .5):.3f} s, p99 {p(elapsed, .99):.3f} s, max {elapsed[-1] if elapsed else float('nan'):.3f} s")
missing = accounts - len(runs)
ontime = missing == 0 and missed == 0 and (not elapsed or elapsed[-1] < 60) and outcomes.keys() <= {"ok"} and (not later or later[-1] < 5)
print("every push ran on time" if ontime else f"NOT every push ran on time ({missing} accounts never pushed, {missed} turns missed)")
PY
