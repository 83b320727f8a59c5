package importer

import (
	"testing"

	"lading/source/sourcetest"
)

// TestMain removes the catalogs the benchmarks generated.
func TestMain(m *testing.M) { sourcetest.Main(m) }
