package datasets

import (
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestColumnTable: fileRow's parquet tags (what the writer writes) and the
// leaves of the written schema agree with ColumnTable, field by field, and
// Row has the same fields in the same order.
func TestColumnTable(t *testing.T) {
	rt := reflect.TypeOf(fileRow{})
	for i, n := range []reflect.Type{reflect.TypeOf(Row{}), reflect.TypeOf(textRow{})} {
		if n.NumField() != rt.NumField() {
			t.Fatalf("type %d has %d fields, fileRow %d", i, n.NumField(), rt.NumField())
		}
		for k := 0; k < n.NumField(); k++ {
			if n.Field(k).Name != rt.Field(k).Name {
				t.Errorf("%s field %d is %s, fileRow's %s", n.Name(), k, n.Field(k).Name, rt.Field(k).Name)
			}
		}
	}
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
	for _, p := range parquet.SchemaOf(fileRow{}).Columns() {
		got = append(got, strings.Join(p, "."))
	}
	if !reflect.DeepEqual(got, leaves) {
		t.Errorf("written leaves %v, ColumnTable %v", got, leaves)
	}
}
