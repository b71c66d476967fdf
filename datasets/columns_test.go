package datasets

import (
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// leafFields lists the fields of struct type t, those of embedded structs
// in their place (as parquet-go lays them out).
func leafFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		if !f.Anonymous {
			out = append(out, f)
		}
	}
	return out
}

// fileField is the file row's (fileRow's) name of Row's field f: the same
// but for the policy column, whose entries Row calls its root visits
// (docs/architecture.md, "Words"). The Col* indices take the file row's name.
func fileField(f string) string {
	if f == "Visits" {
		return "Policy"
	}
	return f
}

// TestColumnTable: fileRow's parquet tags (what the writer writes) and the
// leaves of the written schema agree with ColumnTable, field by field, and
// Row has the same fields in the same order (by fileField's names).
func TestColumnTable(t *testing.T) {
	rf := leafFields(reflect.TypeOf(fileRow{}))
	for i, n := range []reflect.Type{reflect.TypeOf(Row{}), reflect.TypeOf(textRow{})} {
		nf := leafFields(n)
		if len(nf) != len(rf) {
			t.Fatalf("type %d has %d fields, fileRow %d", i, len(nf), len(rf))
		}
		for k := range nf {
			if fileField(nf[k].Name) != rf[k].Name {
				t.Errorf("%s field %d is %s, fileRow's %s", n.Name(), k, nf[k].Name, rf[k].Name)
			}
		}
	}
	if len(rf) != NumColumns {
		t.Fatalf("Row has %d fields, ColumnTable %d columns", len(rf), NumColumns)
	}
	for i, c := range ColumnTable {
		want := c.Name
		if c.Encoding != "" {
			want += "," + c.Encoding
		}
		if tag := rf[i].Tag.Get("parquet"); tag != want {
			t.Errorf("Row field %d (%s): tag %q, ColumnTable says %q", i, rf[i].Name, tag, want)
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
