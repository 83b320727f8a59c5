package expr

import (
	"fmt"
	"lading/mapping/cell"
	"math/big"
	"strconv"
	"strings"
)

// defaultWeightUnit is the unit weight() converts to unless told another:
// the unit of the service's variant weight.
const defaultWeightUnit = "kg"

// defaultLengthUnit is the unit length() converts to unless told another.
// The service has no length field: lengths go to fields the mapping
// chooses (a description, notes, a location), in centimetres unless the
// mapping names another unit.
const defaultLengthUnit = "cm"

// unitDecimals is how many decimal places a converted quantity keeps: a
// milligram in kilograms, a hundredth of a micrometre in centimetres.
const unitDecimals = 6

// measure is one kind of quantity with its units.
type measure struct {
	name string // "weight"
	// units are the unit names accepted (lower case), with their size
	// in the measure's base unit (grams, millimetres), exact.
	units map[string]string
	// short are the names messages list, in order.
	short string
}

var weightUnits = measure{
	name: "weight",
	units: map[string]string{
		"g": "1", "gram": "1", "grams": "1",
		"kg": "1000", "kgs": "1000", "kilogram": "1000", "kilograms": "1000",
		"lb": "453.59237", "lbs": "453.59237", "pound": "453.59237", "pounds": "453.59237",
		"oz": "28.349523125", "ounce": "28.349523125", "ounces": "28.349523125",
	},
	short: "g, kg, lb, lbs, oz (or kgs, grams, kilograms, pounds, ounces)",
}

var lengthUnits = measure{
	name: "length",
	units: map[string]string{
		"mm": "1", "millimetre": "1", "millimetres": "1", "millimeter": "1", "millimeters": "1",
		"cm": "10", "centimetre": "10", "centimetres": "10", "centimeter": "10", "centimeters": "10",
		"m": "1000", "metre": "1000", "metres": "1000", "meter": "1000", "meters": "1000",
		"in": "25.4", "inch": "25.4", "inches": "25.4",
		"ft": "304.8", "foot": "304.8", "feet": "304.8",
	},
	short: "mm, cm, m, in, ft (or millimetres, centimetres, metres, inches, feet)",
}

// size returns the size of unit in the base unit, or an error naming the
// unit and the units accepted. Case, spaces and a final "." do not matter
// ("LBS", " kg ", "lbs.").
func (m *measure) size(unit string) (*big.Rat, error) {
	u := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(unit)), ".")
	if u == "" {
		return nil, fmt.Errorf("%s: no unit given; %s units: %s", m.name, m.name, m.short)
	}
	s, ok := m.units[u]
	if !ok {
		return nil, fmt.Errorf("%s: %q is not a %s unit; %s units: %s", m.name, unit, m.name, m.name, m.short)
	}
	r, _ := new(big.Rat).SetString(s)
	return r, nil
}

// checkUnit reports the error of a unit written out in an expression, or "".
func (m *measure) checkUnit(unit string) string {
	if _, err := m.size(unit); err != nil {
		return err.Error()
	}
	return ""
}

// convertHelper is weight(v, unit[, to]) and length(v, unit[, to]): v, a
// number in unit, converted to the unit to (def when not given), rounded
// to unitDecimals places. An empty v gives no value (nil), not 0.
func convertHelper(m *measure, dec byte, def string) func(p ...any) (any, error) {
	return func(p ...any) (any, error) {
		s, d := strings.TrimSpace(str(p[0])), dec
		if _, isText := p[0].(string); !isText && p[0] != nil {
			d = '.' // a number an expression computed
		}
		to := def
		if len(p) > 2 {
			to = str(p[2])
		}
		from, err := m.size(str(p[1]))
		if err != nil {
			return nil, err
		}
		into, err := m.size(to)
		if err != nil {
			return nil, err
		}
		if s == "" {
			return nil, nil
		}
		n, ok := cell.ParseNumber(s, d)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not a number (decimal %q)", m.name, s, string(d))
		}
		r, _ := new(big.Rat).SetString(n)
		r.Mul(r, from).Quo(r, into)
		out, ok := cell.ParseNumber(r.FloatString(unitDecimals), '.')
		if !ok {
			return nil, fmt.Errorf("%s: %s %s is more than %d digits in %s", m.name, s, str(p[1]), cell.MaxDigits, to)
		}
		return strconv.ParseFloat(out, 64)
	}
}
