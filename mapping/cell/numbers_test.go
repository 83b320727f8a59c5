package cell

import "testing"

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in   string
		dec  byte
		want string
		ok   bool
	}{
		{"25", '.', "25", true},
		{"1e400", '.', "", false},
		{"1e9999", '.', "", false},
		{"1e29", '.', "100000000000000000000000000000", true},
		{"1234567890123456789012345678901", '.', "", false},
		{"-0.000000000000000000000000000001", '.', "", false},
		{"25.00", '.', "25", true},
		{"0.5", '.', "0.5", true},
		{".5", '.', "0.5", true},
		{"007", '.', "7", true},
		{"-0", '.', "0", true},
		{"-1.50", '.', "-1.5", true},
		{"+3", '.', "3", true},
		{" 12 ", '.', "12", true},
		{"1,5", ',', "1.5", true},
		{"1.234,50", ',', "1234.5", true},
		{"1 234,5", ',', "1234.5", true},
		{"1,234.5", '.', "1234.5", true},
		{"12,345,678", '.', "12345678", true},
		{"1'234.5", '.', "1234.5", true},
		{"3.65275E+11", '.', "365275000000", true},
		{"1.5e-3", '.', "0.0015", true},
		{"1,5", '.', "", false}, // not a group of three
		{"1.5", ',', "", false}, // likewise
		{"1,23,456", '.', "", false},
		{"1.234,5.6", ',', "", false},
		{"12a", '.', "", false},
		{"", '.', "", false},
		{"-", '.', "", false},
		{"1e", '.', "", false},
		{"abc", '.', "", false},
		{"1,234 567", '.', "", false}, // mixed separators
	}
	for _, tt := range tests {
		got, ok := ParseNumber(tt.in, tt.dec)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseNumber(%q, %q) = %q, %v; want %q, %v", tt.in, tt.dec, got, ok, tt.want, tt.ok)
		}
	}
}

func TestShiftNumber(t *testing.T) {
	tests := []struct {
		in     string
		places int
		want   string
	}{
		{"145", -3, "0.145"},
		{"226.796185", -3, "0.226796185"},
		{"0", -3, "0"},
		{"5", -3, "0.005"},
		{"1.5", 2, "150"},
		{"-2500", -3, "-2.5"},
	}
	for _, tt := range tests {
		got, err := ShiftNumber(tt.in, '.', tt.places)
		if err != nil || got != tt.want {
			t.Errorf("ShiftNumber(%q, %d) = %q, %v; want %q", tt.in, tt.places, got, err, tt.want)
		}
	}
	if _, err := ShiftNumber("x", '.', 1); err == nil {
		t.Error("ShiftNumber(x) gave no error")
	}
}

func TestParseDate(t *testing.T) {
	layout := func(f string) string {
		l, err := Layout(f)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	dmy, mdy, long := layout("DD/MM/YYYY"), layout("M/D/YY"), layout("D MMMM YYYY")
	tests := []struct {
		in      string
		layouts []string
		want    string
		ok      bool
	}{
		{"2024-03-01", nil, "2024-03-01", true},
		{"2024-03-01T10:00:00Z", nil, "2024-03-01", true},
		{"2024-03-01 10:00", nil, "2024-03-01", true},
		{"01/03/2024", []string{dmy}, "2024-03-01", true},
		{"3/1/24", []string{dmy, mdy}, "2024-03-01", true},
		{"1 March 2024", []string{long}, "2024-03-01", true},
		{"31/02/2024", []string{dmy}, "", false},
		{"01/03/2024", nil, "", false},
		{"2024-13-01", nil, "", false},
		{"soon", []string{dmy}, "", false},
		{"2024-03-01 soon", nil, "", false}, // not a time of day
		{"2024-03-01 25:00", nil, "", false},
		{"2024-03-01T", nil, "", false},
		{"01/03/2024 14:30", []string{dmy}, "2024-03-01", true},
	}
	for _, tt := range tests {
		got, ok := ParseDate(tt.in, tt.layouts)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseDate(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	for _, bad := range []string{"YYYY-MM", "DD.MM.YYYY hh:mm x"} {
		if _, err := Layout(bad); err == nil {
			t.Errorf("goLayout(%q) accepted", bad)
		}
	}
}

func TestParseDateTime(t *testing.T) {
	dmy, err := Layout("DD/MM/YYYY")
	if err != nil {
		t.Fatal(err)
	}
	dmyhm, err := Layout("DD/MM/YYYY HH:mm")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in          string
		date, clock string // clock "": none, or midnight
	}{
		{"2024-03-01", "2024-03-01", ""},
		{"2024-03-01 00:00", "2024-03-01", ""},
		{"2024-03-01T00:00:00.000+02:00", "2024-03-01", ""},
		{"2024-03-01 00:00:00 +0000 UTC", "2024-03-01", ""},
		{"2024-03-01 12:00 AM", "2024-03-01", ""},
		{"2024-03-01 14:30", "2024-03-01", "14:30"},
		{"2024-03-01T10:00:00Z", "2024-03-01", "10:00:00Z"},
		{"2024-03-01 00:00:00.5", "2024-03-01", "00:00:00.5"},
		{"2024-03-01 12:00 PM", "2024-03-01", "12:00 PM"},
		{"01/03/2024 14:30", "2024-03-01", "14:30"},       // a date format, then a time
		{"01/03/2024 09:05:30", "2024-03-01", "09:05:30"}, // by the plain layout, then a time
		{"01/03/2024 00:00", "2024-03-01", ""},
		{"01/03/2024 2:30 PM", "2024-03-01", "2:30 PM"},
	}
	for _, tt := range tests {
		date, clock, ok := ParseDateTime(tt.in, []string{dmy, dmyhm})
		if !ok || date != tt.date || clock != tt.clock {
			t.Errorf("parseDateTime(%q) = %q, %q, %v; want %q, %q", tt.in, date, clock, ok, tt.date, tt.clock)
		}
	}
}

func TestScientific(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"1.23457E+11": true, "1,5E+15": true, "2E+10": true, "-2E+10": true, "9e-3": true,
		"": false, "-": false, "0E+1": false, "E+5": false, "SH0001-RED": false, "050000000000": false,
		"12345": false, "1E5": false, "1.E+5": false, "1.5E+": false, "1x5E+10": false, "-0.5E+3": false,
	} {
		if got := Scientific(s); got != want {
			t.Errorf("Scientific(%q) = %v, want %v", s, got, want)
		}
	}
}
