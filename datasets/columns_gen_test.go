package datasets

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the files generated from ColumnTable (go generate ./datasets)")

// genColumn is a column and its Row field, the generator's input.
type genColumn struct {
	Column
	Field  string       // Row's field
	GoType reflect.Type // its Go type
}

// tableColumns pairs ColumnTable with Row's fields by index (TestColumnTable
// checks that they agree).
func tableColumns(t *testing.T) []genColumn {
	fields := leafFields(reflect.TypeOf(Row{}))
	if len(fields) != NumColumns {
		t.Fatalf("Row has %d fields, ColumnTable %d columns", len(fields), NumColumns)
	}
	out := make([]genColumn, NumColumns)
	for i, c := range ColumnTable {
		out[i] = genColumn{c, fields[i].Name, fields[i].Type}
	}
	return out
}

// readStmt is the reader's statement filling field f of row from r (rs[0],
// rs[1] for the policy's two leaves).
func readStmt(c genColumn) (string, error) {
	f := "row." + c.Field
	switch c.GoType {
	case reflect.TypeOf(""):
		if c.Encoding == "dict" { // values repeat from row to row: keep the string
			return fmt.Sprintf("%s = str(r, %s)", f, f), nil
		}
		return f + " = string(r.next().ByteArray())", nil
	case reflect.TypeOf(int64(0)):
		return f + " = r.next().Int64()", nil
	case reflect.TypeOf(int32(0)):
		return f + " = r.next().Int32()", nil
	case reflect.TypeOf(int8(0)):
		return f + " = int8(r.next().Int32())", nil
	case reflect.TypeOf(float32(0)):
		return f + " = r.next().Float()", nil
	case reflect.TypeOf(false):
		return f + " = r.next().Boolean()", nil
	case reflect.TypeOf([]byte(nil)):
		return fmt.Sprintf("%s = append(%s[:0], r.next().ByteArray()...)", f, f), nil
	case reflect.TypeOf([]Visit(nil)):
		return fmt.Sprintf("%s, err = readPolicy(rs[0], rs[1], text, %s[:0])", f, f), nil
	}
	return "", fmt.Errorf("column %s: no reader for a Row field of type %s (add one to readStmt)", c.Name, c.GoType)
}

// genSource returns columns_gen.go for cols: the Col* indices and
// scanRowGroup, the reader's loop over a row group with its switch.
func genSource(cols []genColumn) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`// Code generated from ColumnTable by TestGeneratedColumns (go generate ./datasets); DO NOT EDIT.

package datasets

// Indices into ColumnTable: the reader's index of each column.
const (
`)
	for i, c := range cols {
		if i == 0 {
			fmt.Fprintf(&b, "\tCol%s = iota // %s\n", fileField(c.Field), c.Name)
		} else {
			fmt.Fprintf(&b, "\tCol%s // %s\n", fileField(c.Field), c.Name)
		}
	}
	b.WriteString(`)

// scanRowGroup reads n rows from the leaf readers of each selected column
// (readers[c] empty for a column not selected) into row and calls fn for
// each; text says the policy column's moves are text (formats 1 and 2).
func scanRowGroup(n int64, readers [][]*valueReader, text bool, row *Row, fn func(*Row) error) error {
	var err error
	str := func(r *valueReader, prev string) string {
		v := r.next()
		b := v.ByteArray()
		if string(b) == prev {
			return prev
		}
		return string(b)
	}
	for i := int64(0); i < n; i++ {
		for c, rs := range readers {
			if len(rs) == 0 {
				continue
			}
			r := rs[0]
			switch c {
`)
	for _, c := range cols {
		st, err := readStmt(c)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "case Col%s:\n%s\n", fileField(c.Field), st)
	}
	b.WriteString(`}
			if err == nil {
				err = r.err
			}
			if err != nil {
				return err
			}
		}
		if err := callFn(fn, row); err != nil {
			return fnError{err}
		}
	}
	return nil
}
`)
	return format.Source(b.Bytes())
}

// genDocTable returns the package comment's table of cols, header first,
// each line "//\t" and aligned columns (a type wider than the others'
// column overflows it).
func genDocTable(cols []genColumn) []string {
	const typeWidth = 30
	line := func(name, typ, meaning string) string {
		pad := typeWidth - len(typ)
		if pad < 2 {
			pad = 2
		}
		return fmt.Sprintf("//\t%-17s%s%s%s", name, typ, strings.Repeat(" ", pad), meaning)
	}
	out := []string{line("column", "Parquet type (DuckDB)", "meaning")}
	for _, c := range cols {
		out = append(out, line(c.Name, c.Type, c.Meaning))
	}
	return out
}

// withDocTable returns the source of row.go with its table (the "//\t"
// lines from the header "//\tcolumn " on) replaced by table.
func withDocTable(src []byte, table []string) ([]byte, error) {
	lines := strings.Split(string(src), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "//\tcolumn ") {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("no line starting %q", "//\tcolumn ")
	}
	end := start
	for end < len(lines) && strings.HasPrefix(lines[end], "//\t") {
		end++
	}
	out := append(append(append([]string(nil), lines[:start]...), table...), lines[end:]...)
	return []byte(strings.Join(out, "\n")), nil
}

// TestGeneratedColumns: columns_gen.go (the Col* indices and the reader's
// switch) and the table in row.go's package comment are what ColumnTable
// gives. With -update (go generate ./datasets) it rewrites them instead.
func TestGeneratedColumns(t *testing.T) {
	cols := tableColumns(t)
	gen, err := genSource(cols)
	if err != nil {
		t.Fatal(err)
	}
	row, err := os.ReadFile("row.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := withDocTable(row, genDocTable(cols))
	if err != nil {
		t.Fatalf("row.go: %v", err)
	}
	for _, f := range []struct {
		name string
		want []byte
	}{{"columns_gen.go", gen}, {"row.go", doc}} {
		got, _ := os.ReadFile(f.name)
		if bytes.Equal(got, f.want) {
			continue
		}
		if *update {
			if err := os.WriteFile(f.name, f.want, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", f.name)
			continue
		}
		t.Errorf("%s disagrees with ColumnTable: run go generate ./datasets", f.name)
	}
}

// TestGenerateNewColumn: a column added to the table (with its Row field)
// gets its index, its case in the reader's switch and its line in the
// package comment's table, from the one entry.
func TestGenerateNewColumn(t *testing.T) {
	cols := append(tableColumns(t), genColumn{
		Column{"search_ms", "INT32 (INTEGER)", "delta", []string{"search_ms"}, "milliseconds the search took"},
		"SearchMS", reflect.TypeOf(int32(0)),
	})
	gen, err := genSource(cols)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(gen)), " ")
	for _, want := range []string{
		"ColFull // full ColSearchMS // search_ms )",
		"case ColSearchMS: row.SearchMS = r.next().Int32() }",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("generated source lacks %q:\n%s", want, gen)
		}
	}
	table := genDocTable(cols)
	if last, want := table[len(table)-1], "//\tsearch_ms        INT32 (INTEGER)               milliseconds the search took"; last != want {
		t.Errorf("table's last line %q, want %q", last, want)
	}
	cols[len(cols)-1].GoType = reflect.TypeOf(uint16(0))
	if _, err := genSource(cols); err == nil || !strings.Contains(err.Error(), "search_ms") {
		t.Errorf("a field of a type the reader cannot fill: error %v, want one naming search_ms", err)
	}
}
