#!/usr/bin/env bash
# curl-examples.sh: start `lading sandbox` and call it with curl, using the
# specification's sample bodies, checking each answer. Not part of CI.
#
#   scripts/curl-examples.sh            # port 8799, token demo-token
#   PORT=9000 TOKEN=abc scripts/curl-examples.sh
#
# Needs go, curl and jq. The commands are the ones docs/sandbox.md shows.
set -euo pipefail

PORT=${PORT:-8799}
TOKEN=${TOKEN:-demo-token}
source "$(dirname "$0")/lib.sh"
BIN=$WORK/lading
LOG=$WORK/sandbox.log

# expect NAME PATTERN: the last answer must match the extended regex PATTERN.
expect() {
	if ! grep -Eq -- "$2" <<<"$ANSWER"; then
		echo "answer: $ANSWER" >&2
		fail "$1: no match for $2"
	fi
	echo "ok   $1: $(head -c 160 <<<"$ANSWER")..."
}

# expect_jq NAME FILTER: the last answer must give FILTER a non-null result.
expect_jq() {
	if ! jq -e "$2" >/dev/null <<<"$ANSWER"; then
		echo "answer: $ANSWER" >&2
		fail "$1: jq $2 found nothing"
	fi
	echo "ok   $1: $2"
}

# call PATH BODY: POST BODY to the sandbox under /api2, as the service wants it.
call() {
	ANSWER=$(curl -sS -X POST "$BASE$1" \
		-H "access_token: $TOKEN" \
		-H 'Content-Type: application/json;charset=UTF-8' \
		-d "$2")
}

# `go run . sandbox` would leave the sandbox as a child of `go run`, which
# does not pass on the signal that stops it; a built binary stops cleanly.
(cd "$ROOT" && go build -o "$BIN" .)
"$BIN" sandbox --addr "127.0.0.1:$PORT" --token "$TOKEN" >"$LOG" 2>&1 &
SANDBOX_PID=$!
for _ in $(seq 100); do
	grep -q 'sandbox listening' "$LOG" && break
	kill -0 "$SANDBOX_PID" 2>/dev/null || { cat "$LOG" >&2; fail "the sandbox did not start"; }
	sleep 0.1
done
grep -q 'sandbox listening' "$LOG" || fail "the sandbox did not start within 10s"
BASE=http://127.0.0.1:$PORT/api2
echo "sandbox at $BASE (token $TOKEN)"

# 1. Create a product with attributes, variants (options, opening stock,
#    cost) and a pricing tier given by name (which creates it).
call /v1/Products/detail '{"action":"write","Products":[{"name":"T-Shirt","description":"Organic cotton",
  "links":{"Attributes":[{"name":"Color","order":1},{"name":"Size","order":2}],
  "Variants":[
    {"sku":"TSHIRT-RED-S","quantity":"10","cost":"4.50","links":{"AttributeOptions":[{"value":"Red","order":1},{"value":"S","order":1}]}},
    {"sku":"TSHIRT-BLUE-M","quantity":"5","cost":"4.75","links":{"AttributeOptions":[{"value":"Blue","order":2},{"value":"M","order":2}]}}],
  "PricingTiers":[{"name":"Retail","value":"19.99"}]}}]}'
expect "product create" '^\{"Products":\[\{"id":"[0-9]+"\}\]\}$'
PRODUCT=$(jq -r '.Products[0].id' <<<"$ANSWER")

# 2. List variants with a filter (two conditions in "and", one with an
#    operation) and a sort.
call /v2/Variants '{"action":"read","page_size":50,"page_num":1,"sort":[{"sku":"desc"}],
  "filter":{"and":[{"bundle":"0"},{"stock":"8","operation":">="}]}}'
expect "variant listing" '"meta":\{"current_page":"1","last_page":"1","per_page":"50","total":"1"'
expect "variant listing record" '"sku":"TSHIRT-RED-S"'
expect_jq "variant listing sideloads" '.PricingTiers[] | select(.name == "Retail")'
VARIANT=$(jq -r '.Variants[0].id' <<<"$ANSWER")
WAREHOUSE=$(jq -r '.AccountAddresses | to_entries[] | select(.value.warehouse == "1") | .key' <<<"$ANSWER")
[[ $VARIANT =~ ^[0-9]+$ && $WAREHOUSE =~ ^[0-9]+$ ]] || fail "no variant ($VARIANT) or warehouse ($WAREHOUSE) id in the listing"

# 3. Set the available stock of the variant in the token's warehouse
#    (wire-format A.7), then read it back.
call /v1/Variants/detail '{"action":"write","Variants":[{"id":"'"$VARIANT"'","links":{"ReconcileInventory":[
  {"change":"set_available","units":100,"links":{"AccountAddresses":[{"id":"'"$WAREHOUSE"'"}]}}]}}]}'
expect "stock write" '^\{"Variants":\[\{"id":"'"$VARIANT"'"\}\]\}$'
call /v2/Variants '{"action":"read","filter":{"and":[{"sku":"TSHIRT-RED-S"}]}}'
expect "stock read back" '"available":"100"'

# 4. Create a packing slip.
call /v1/PackingSlips '{"action":"write","PackingSlips":[{"packing_slip_date":"2026-11-20T10:00:00+0000","notes":"Leave at the door",
  "links":{"Addresses":[{"id":"1"}],"Contacts":[{"id":"1"}],"LineItems":[{"id":"1","quantity":"2"}],"SalesOrders":[{"id":"1"}]}}]}'
expect "packing slip create" '^\{"PackingSlips":\[\{"id":"[0-9]+"\}\]\}$'

# 5. Create a product tag, tag the product with it, read the tag list.
call /v1/ProductTags/detail '{"action":"write","ProductTags":[{"name":"summer"}]}'
expect "tag create" '^\{"ProductTags":\[\{"id":"[0-9]+"\}\]\}$'
TAG=$(jq -r '.ProductTags[0].id' <<<"$ANSWER")
call /v1/Products/detail '{"action":"write","Products":[{"id":"'"$PRODUCT"'","links":{"ProductTags":[{"id":"'"$TAG"'"}]}}]}'
expect "tag product" '^\{"Products":\[\{"id":"'"$PRODUCT"'"\}\]\}$'
call /v2/ProductTags '{"action":"read"}'
expect "tag listing" '"name":"summer"'

# 6. Errors: a bad token, a page too big.
ANSWER=$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$BASE/v2/Variants" -H 'access_token: wrong' -d '{"action":"read"}')
expect "bad token" '^401$'
call /v2/Variants '{"action":"read","page_size":251}'
expect "page size 251" '"message":"[^"]*page_size'

echo "all curl examples passed"
