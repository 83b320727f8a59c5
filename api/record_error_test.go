package api

import "testing"

func TestRecordErrorNoSuchRecord(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		e    RecordError
		want bool
	}{
		{RecordError{Index: 0, Field: "id", Message: "no Variants record with id 9"}, true},
		{RecordError{Index: 0, Field: "sku", Message: "sku is taken"}, false},
		{RecordError{Index: 0, Message: "refused"}, false},
		// Refused with the whole write: the id may be fine.
		{RecordError{Index: 0, Field: "id", Message: "x", Whole: true}, false},
	} {
		if got := tt.e.NoSuchRecord(); got != tt.want {
			t.Errorf("%v.NoSuchRecord() = %v, want %v", tt.e, got, tt.want)
		}
	}
}
