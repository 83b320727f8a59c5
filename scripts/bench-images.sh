#!/usr/bin/env bash
# bench-images.sh: peak RSS and wall time of the whole `lading import`
# command on catalogs whose products name images of 200 KB each, served by
# a local image server (scripts/imageserve) into an in-memory sandbox (a
# process of its own), side by side: 250 and 1,000 products of 3 images,
# and the 1,000 products with --no-images. Not part of CI.
#
#   scripts/bench-images.sh
#   SIZE=1048576 scripts/bench-images.sh      # images of 1 MiB
#
# Peak RSS bounded means: it does not grow with the images' total bytes
# (4x between the first two runs). Needs go and GNU time (/usr/bin/time).
set -euo pipefail

PORT=${PORT:-8797}
IMAGES_PORT=${IMAGES_PORT:-8798}
SIZE=${SIZE:-204800}
PER=3
TOKEN=bench-token
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/time ]] || fail "GNU time is needed at /usr/bin/time (apt-get install time)"

cd "$ROOT"
go build -o "$WORK/lading" .
go build -o "$WORK/imageserve" ./scripts/imageserve

"$WORK/imageserve" -addr "127.0.0.1:$IMAGES_PORT" -size "$SIZE" >"$WORK/imageserve.log" 2>&1 &
IMAGES_PID=$!
trap 'kill $IMAGES_PID 2>/dev/null || true; cleanup' EXIT

# catalog N: a generic-layout catalog of N products, PER images each.
catalog() {
	awk -v n="$1" -v per="$PER" -v base="http://127.0.0.1:$IMAGES_PORT" 'BEGIN {
		print "product_key,product_name,sku,images"
		for (p = 0; p < n; p++) {
			line = sprintf("p%d,Product %d,SKU-%d,", p, p, p)
			for (i = 0; i < per; i++) line = line (i ? "|" : "") sprintf("%s/img/%d-%d.jpg", base, p, i)
			print line
		}
	}' >"$WORK/catalog-$1.csv"
}

LADING=("$WORK/lading" --base-url "http://127.0.0.1:$PORT" --token "$TOKEN" --quiet --rate 1000 --burst 100)
echo "images of $SIZE bytes, $PER a product; $(nproc) cores"
printf '%-28s %10s %12s %12s %10s\n' run "wall s" "image MB" "peak RSS MB" uploads
for run in 250 1000 "1000 --no-images"; do
	set -- $run
	n=$1
	shift
	catalog "$n"
	start_sandbox
	rm -f "$WORK/state.db"
	measure "import $run" "${LADING[@]}" --json import --template generic --state "$WORK/state.db" "$@" "$WORK/catalog-$n.csv"
	uploads=$(curl -s "http://127.0.0.1:$PORT/_sandbox/counters" | grep -o '"/v1/ProductFiles": *[0-9]*' | grep -o '[0-9]*$' || true)
	mb=$(awk -v n="$n" -v per="$PER" -v s="$SIZE" -v no="$*" 'BEGIN { printf "%.0f", (no == "" ? n * per * s / 1048576 : 0) }')
	printf '%-28s %10.2f %12s %12s %10s\n' "$run" "$SECS" "$mb" "$RSS_MB" "${uploads:-0}"
done
