package datasets

import (
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestColumnTable: Row's parquet tags (what the writer writes) and the
// leaves of the written schema agree with ColumnTable, field by field.
func TestColumnTable(t *testing.T) {
	rt := reflect.TypeOf(Row{})
	if rt.NumField() != NumColumns {
		t.Fatalf("Row has %d fields, ColumnTable %d columns", rt.NumField(), NumColumns)
	}
	for i, c := range ColumnTable {
		want := c.Name
		if c.Encoding != "" {
			want += "," + c.Encoding
		}
		if tag := rt.Field(i).Tag.Get("parquet"); tag != want {
			t.Errorf("Row field %d (%s): tag %q, ColumnTable says %q", i, rt.Field(i).Name, tag, want)
		}
		if Columns[i] != c.Name {
			t.Errorf("Columns[%d] = %q, want %q", i, Columns[i], c.Name)
		}
	}
	var leaves []string
	for _, c := range ColumnTable {
		leaves = append(leaves, c.Leaves...)
	}
	var got []string
	for _, p := range parquet.SchemaOf(Row{}).Columns() {
		got = append(got, strings.Join(p, "."))
	}
	if !reflect.DeepEqual(got, leaves) {
		t.Errorf("written leaves %v, ColumnTable %v", got, leaves)
	}
}
