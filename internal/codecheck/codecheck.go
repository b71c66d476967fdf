// Package codecheck holds checks of the repository's Go source that go vet
// does not make: today, that no function of a library package is longer
// than MaxFuncLines lines unless its doc comment says why (LongFuncs).
package codecheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// MaxFuncLines is the longest a function of a library package may be, in
// lines from its "func" to its closing brace, without saying why.
const MaxFuncLines = 150

// LongMarker starts the doc comment line of a longer function that says
// why it is long: "Long: " and the reason, e.g. "Long: one pass over the
// board; split by family it is 6% slower (BenchmarkEvaluate)."
const LongMarker = "Long:"

// LongFunc is a function longer than MaxFuncLines whose doc comment does
// not say why.
type LongFunc struct {
	File  string // path relative to the root, slash-separated
	Line  int    // line of its "func"
	Name  string // "Name" or "(*Recv).Name"
	Lines int
}

func (f LongFunc) String() string {
	return fmt.Sprintf("%s:%d: %s is %d lines (over %d), and its doc comment has no %q line saying why",
		f.File, f.Line, f.Name, f.Lines, MaxFuncLines, LongMarker)
}

// LongFuncs parses every non-test .go file under root, except those under
// cmd/ (commands, not library packages), testdata/ and hidden directories,
// and returns the functions longer than MaxFuncLines whose doc comment
// has no line starting with LongMarker and a reason, sorted by file and line.
func LongFuncs(root string) ([]LongFunc, error) {
	var long []LongFunc
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (rel == "cmd" || name == "testdata" || name == "vendor" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start := fset.Position(fd.Pos()).Line
			lines := fset.Position(fd.End()).Line - start + 1
			if lines <= MaxFuncLines || SaysWhyLong(fd.Doc) {
				continue
			}
			long = append(long, LongFunc{File: rel, Line: start, Name: funcName(fd), Lines: lines})
		}
		return nil
	})
	sort.Slice(long, func(i, j int) bool {
		if long[i].File != long[j].File {
			return long[i].File < long[j].File
		}
		return long[i].Line < long[j].Line
	})
	return long, err
}

// SaysWhyLong reports whether doc has a line that starts with LongMarker
// and goes on with a reason.
func SaysWhyLong(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, line := range strings.Split(doc.Text(), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), LongMarker); ok && strings.TrimSpace(rest) != "" {
			return true
		}
	}
	return false
}

// funcName is fd's name, with its receiver type for a method: "(*T).M".
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	return "(" + typeString(fd.Recv.List[0].Type) + ")." + fd.Name.Name
}

func typeString(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return "*" + typeString(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return typeString(t.X)
	case *ast.IndexListExpr:
		return typeString(t.X)
	}
	return "?"
}
