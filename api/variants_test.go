package api

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestOptionRefMarshalJSON(t *testing.T) {
	zero, three, neg := 0, 3, -12
	tests := []struct {
		name string
		o    OptionRef
		want string
	}{
		{"value only", OptionRef{Value: "S"}, `{"value":"S"}`},
		{"empty value", OptionRef{}, `{"value":""}`},
		{"order 0 is sent", OptionRef{Value: "S", Order: &zero}, `{"value":"S","order":0}`},
		{"order", OptionRef{Value: "M", Order: &three}, `{"value":"M","order":3}`},
		{"negative order", OptionRef{Value: "M", Order: &neg}, `{"value":"M","order":-12}`},
		{"attribute", OptionRef{Value: "XL", Attribute: "Size"}, `{"value":"XL","links":{"Attributes":[{"name":"Size"}]}}`},
		{"all", OptionRef{Value: "Red", Order: &three, Attribute: "Colour"}, `{"value":"Red","order":3,"links":{"Attributes":[{"name":"Colour"}]}}`},
		{"escaped", OptionRef{Value: `5" <b> & "c"`, Attribute: "Size\\Fit\n"},
			`{"value":"5\" \u003cb\u003e \u0026 \"c\"","links":{"Attributes":[{"name":"Size\\Fit\n"}]}}`},
		{"not ASCII", OptionRef{Value: "Grün\u2028", Attribute: "Farbe \xff"}, `{"value":"Grün\u2028","links":{"Attributes":[{"name":"Farbe \ufffd"}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.o.MarshalJSON()
			if err != nil || string(got) != tt.want {
				t.Errorf("MarshalJSON() = %s, %v; want %s", got, err, tt.want)
			}
			// Inside a record, as the client sends it.
			body, err := marshal(VariantLinks{AttributeOptions: []OptionRef{tt.o}})
			if err != nil || string(body) != `{"AttributeOptions":[`+tt.want+`]}` {
				t.Errorf("in a record: %s, %v", body, err)
			}
		})
	}
}

// optionRefByStruct is how OptionRef was written before it wrote its JSON
// itself: through a struct and encoding/json.
func optionRefByStruct(o OptionRef) ([]byte, error) {
	type nameRef struct {
		Name string `json:"name"`
	}
	type links struct {
		Attributes []nameRef `json:"Attributes"`
	}
	out := struct {
		Value string `json:"value"`
		Order *int   `json:"order,omitempty"`
		Links *links `json:"links,omitempty"`
	}{Value: o.Value, Order: o.Order}
	if o.Attribute != "" {
		out.Links = &links{Attributes: []nameRef{{Name: o.Attribute}}}
	}
	return json.Marshal(out)
}

// FuzzOptionRefMarshalJSON checks that what MarshalJSON writes reads back
// as what the struct-based encoding wrote.
func FuzzOptionRefMarshalJSON(f *testing.F) {
	f.Add("S", "", false, 0)
	f.Add("a<b>&\"c\"", "Size\n", true, -3)
	f.Add("\xff\u2028", "\x00", true, 1<<40)
	f.Fuzz(func(t *testing.T, value, attr string, hasOrder bool, order int) {
		o := OptionRef{Value: value, Attribute: attr}
		if hasOrder {
			o.Order = &order
		}
		got, err := o.MarshalJSON()
		if err != nil || !json.Valid(got) {
			t.Fatalf("MarshalJSON(%+v) = %s, %v: not JSON", o, got, err)
		}
		want, err := optionRefByStruct(o)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("MarshalJSON(%+v) = %s, the struct's encoding %s", o, got, want)
		}
	})
}

func BenchmarkOptionRefMarshalJSON(b *testing.B) {
	order := 2
	o := OptionRef{Value: "Black & White", Order: &order, Attribute: "Colour"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := o.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}
