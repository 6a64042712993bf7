// Package apisurface holds the module's public API: which packages a Go
// developer may import and rely on (Supported, each held by a semantic
// version), which are public only because a program outside engine/ must
// import them (NoPromise), and what each of them exports in a normal
// build, rendered by API. Its test holds every package's API to a
// committed golden file, so that a change of the public API is a
// deliberate change of that file.
package apisurface

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"strings"
)

// Package is one public package of the module.
type Package struct {
	Path string // folder from the module's root
	GOOS string // the build it is read in: "" the native one, "js" the browser's
	Why  string // for NoPromise: the importer that keeps it public
}

// Supported are the packages a Go developer imports: their exported API is
// the one a version number promises.
var Supported = []Package{
	{Path: "engine"},
	{Path: "engine/check"},
	{Path: "engine/history"},
	{Path: "engine/model"},
	{Path: "engine/timeline"},
	{Path: "engine/timeline/memrun"},
	{Path: "engine/leasetest"},
	{Path: "engine/leasetest/enginetest"},
	{Path: "engine/sqlitedb"},
	{Path: "engine/limits"},
	{Path: "engine/drivertest"},
	{Path: "engine/httpapi"},
	{Path: "engine/httpapi/httpapitest"},
	{Path: "engine/httpapi/sqliteapi"},
	{Path: "engine/grade"},
}

// NoPromise are public only because a program outside engine/ imports them,
// and Go lets no such program import a package under engine/internal; they
// carry no compatibility promise (their docs say so).
var NoPromise = []Package{
	{Path: "engine/command", Why: "serve.go, the leaselab command's main"},
	{Path: "engine/simrun", Why: "wasm/sim, the browser's engine"},
	{Path: "wasm/sqlitejs", GOOS: "js", Why: "engine/sqlitedb's browser build"},
	{Path: "wasm/jslab", GOOS: "js", Why: "wasm/sim, the grader of a coding exercise in the page"},
	{Path: "wasm/pylab", GOOS: "js", Why: "wasm/sim, the grader of a Python exercise in the page"},
}

// API renders what the package in dir exports in a normal build (no build
// tags) for goos ("" the native one): each exported constant with its
// value, each variable with its type, each function's and method's
// signature, and each exported type with its exported fields and methods;
// no documentation, no bodies. The order is go/doc's.
func API(dir, goos string) (string, error) {
	ctx := build.Default
	ctx.BuildTags = nil
	if goos != "" {
		ctx.GOOS, ctx.GOARCH = goos, "wasm"
	}
	bp, err := ctx.ImportDir(dir, 0)
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return "", err
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, bp.ImportPath)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	r := renderer{fset: fset, b: &b}
	fmt.Fprintf(&b, "package %s\n", p.Name)
	r.values(p.Consts, true)
	r.values(p.Vars, false)
	r.funcs(p.Funcs)
	for _, t := range p.Types {
		t.Decl.Doc = nil
		r.node(t.Decl)
		r.values(t.Consts, true)
		r.values(t.Vars, false)
		r.funcs(t.Funcs)
		r.funcs(t.Methods)
	}
	return b.String(), r.err
}

type renderer struct {
	fset *token.FileSet
	b    *bytes.Buffer
	err  error
}

func (r *renderer) node(n any) {
	if r.err != nil {
		return
	}
	r.b.WriteString("\n")
	r.err = (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(r.b, r.fset, n)
	r.b.WriteString("\n")
}

// values renders constants with their values, and variables one a line
// with their types alone: a variable's initial value is no part of its API.
func (r *renderer) values(vs []*doc.Value, consts bool) {
	for _, v := range vs {
		v.Decl.Doc = nil
		for _, s := range v.Decl.Specs {
			vs := s.(*ast.ValueSpec)
			vs.Doc, vs.Comment = nil, nil
		}
		if consts {
			r.node(v.Decl)
			continue
		}
		for _, s := range v.Decl.Specs {
			r.variable(s.(*ast.ValueSpec))
		}
	}
}

// variable renders var Name Type for each name of vs; an error made by
// errors.New or fmt.Errorf is an error, any other type left to inference
// is written "(inferred)".
func (r *renderer) variable(vs *ast.ValueSpec) {
	for i, name := range vs.Names {
		var typ ast.Expr = vs.Type
		if typ == nil {
			typ = &ast.Ident{Name: "(inferred)"}
			if i < len(vs.Values) && isErrorCall(vs.Values[i]) {
				typ = &ast.Ident{Name: "error"}
			}
		}
		r.node(&ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{name}, Type: typ}}})
	}
}

func isErrorCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf")
}

func (r *renderer) funcs(fs []*doc.Func) {
	for _, f := range fs {
		f.Decl.Doc, f.Decl.Body = nil, nil
		r.node(f.Decl)
	}
}

// GoldenName is the golden file of the package at path (a folder from the
// module's root) under testdata.
func GoldenName(path string) string {
	return strings.ReplaceAll(path, "/", ".") + ".api"
}
