package mapping

import "testing"

// A plain count is taken as it is, and is what reading it gives; others
// are read.
func TestPlainCount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s     string
		plain bool
	}{
		{"0", true}, {"7", true}, {"1000", true}, {"999999999999999", true},
		{"", false}, {"01", false}, {"00", false}, {"1234567890123456", false},
		{"1.000", false}, {"1,000", false}, {"-1", false}, {"+1", false}, {"1e3", false}, {"12 ", false}, {"١٢", false},
	}
	for _, tt := range tests {
		if got := plainCount(tt.s); got != tt.plain {
			t.Errorf("plainCount(%q) = %v, want %v", tt.s, got, tt.plain)
		}
		for _, dec := range []byte{'.', ','} {
			for _, declared := range []bool{false, true} {
				n, rule := readCount(tt.s, dec, declared, stockCount)
				if tt.plain && (n != tt.s || rule != "") {
					t.Errorf("readCount(%q, %q, %v) = %q, %q; want it as it is", tt.s, dec, declared, n, rule)
				}
				if pn, prule := parseCount(tt.s, dec, declared, stockCount); pn != n || prule != rule {
					t.Errorf("parseCount(%q) = %q, %q; readCount %q, %q", tt.s, pn, prule, n, rule)
				}
			}
		}
	}
}
