package wire

// Kinds of the values a filter compares an attribute with.
const (
	KindText   = "text"
	KindNumber = "number"
	KindID     = "id"   // a record id: a whole number
	KindFlag   = "flag" // "0" or "1"
	KindDate   = "date" // YYYY-MM-DD (FilterDateLayout)
)

// AttrKinds gives the kind of the filterable attributes that are not text,
// by name, for every resource. [lading] The spec lists the attributes, not
// their types; these follow the values the recorded responses show (ids,
// "0"/"1" flags, decimal strings, timestamps). [A.3]
var AttrKinds = map[string]string{
	"id": KindID, "supplier_id": KindID,
	"archived": KindFlag, "bundle": KindFlag, "component": KindFlag, "consignment": KindFlag, "void": KindFlag,
	"available": KindNumber, "average_cost": KindNumber, "low_stock_alert": KindNumber, "sort_order": KindNumber,
	"stock": KindNumber, "supplier_cost": KindNumber, "weight": KindNumber,
	"created_at": KindDate, "updated_at": KindDate, "packing_slip_date": KindDate, "ship_date": KindDate,
}

// AttrKind is the kind of attribute name: KindText unless AttrKinds says
// otherwise.
func AttrKind(name string) string {
	if k, ok := AttrKinds[name]; ok {
		return k
	}
	return KindText
}
