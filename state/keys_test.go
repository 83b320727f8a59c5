package state

import "testing"

// The keys are those state files on disk already hold: a changed key
// would forget every id, level and mark remembered under the old one.
func TestKeysKeepTheirSpelling(t *testing.T) {
	t.Parallel()
	const a = "http://host/api2#0a1b2c"
	for _, tc := range []struct{ got, want string }{
		{KeyProducts(a), a + "|product"},
		{KeySKUs(a), a + "|variant"},
		{KeyWarehouses(a), a + "|warehouse"},
		{KeyLevels(a, "7"), a + "|stock|7"},
		{KeyShipped(a), a + "|shipped"},
		{KeyOrderFulfillments(a), a + "|fulfillment-of-order"},
		{KeyFulfillmentStatuses(a), a + "|fulfillment-status"},
		{KeySlips(a), a + "|slips"},
		{KeySlipsSent(a), a + "|slips|sent"},
		{KeyPackages(a), a + "|packages"},
		{KeyPackagesSent(a), a + "|packages|sent"},
		{KeyCarriers(a), a + "|carriers"},
		{KeyPulled(a), a + "|pulled"},
		{KeyJob("stock push", a, "7"), "stock push\x00" + a + "\x007"},
		{KeyJob("fulfillments pull", a), "fulfillments pull\x00" + a},
	} {
		if tc.got != tc.want {
			t.Errorf("key %q, want %q", tc.got, tc.want)
		}
	}
}
