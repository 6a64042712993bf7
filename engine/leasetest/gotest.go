package leasetest

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine/timeline"
)

// GoTest writes a Go test file for package pkg holding one test function,
// funcName, that checks the timeline src (called name) with
// enginetest.RunTimeline against the Queue that newQueue gives: newQueue is
// Go source for a func(t *testing.T) leasetest.Queue in pkg, such as
// newMyQueue or enginetest.Engine. The timeline's text is in the file, so
// the test needs nothing beside it. The text must parse; the names must be
// ones go test takes (timeline.ErrPackageName, timeline.ErrTestName).
func GoTest(name, src, pkg, funcName, newQueue string) (string, error) {
	if err := timeline.CheckGoTestNames(pkg, funcName); err != nil {
		return "", err
	}
	expr, err := parser.ParseExpr(newQueue)
	if err != nil || strings.TrimSpace(newQueue) == "" {
		return "", fmt.Errorf("leasetest: the queue %q is not a Go expression", newQueue)
	}
	imports := ""
	if names(expr)["leasetest"] {
		imports = "\t\"github.com/leaselab/leaselab/engine/leasetest\"\n"
	}
	tl, err := timeline.Parse(name, src)
	if err != nil {
		return "", err
	}
	lit := strconv.Quote(src)
	if strconv.CanBackquote(strings.ReplaceAll(src, "\n", "")) {
		lit = "`" + src + "`"
	}
	doc := funcName + " checks the timeline " + strconv.Quote(name)
	if tl.Title != "" {
		doc += ",\n// " + tl.Title + ","
	}
	out := fmt.Sprintf(`// This file was written by leaselab from the timeline %s.

package %s

import (
	"testing"

%s	"github.com/leaselab/leaselab/engine/leasetest/enginetest"
)

// %s
// against the queue: every expectation holds on leaselab's engine, and the
// queue answers every step as the lease contract does.
func %s(t *testing.T) {
	enginetest.RunTimeline(t, %s, %s, %s)
}

const %sSource = %s
`, name, pkg, imports, doc, funcName, strconv.Quote(name), lowerFirst(funcName)+"Source", newQueue, lowerFirst(funcName), lit)
	b, err := format.Source([]byte(out))
	if err != nil {
		return "", fmt.Errorf("leasetest: the test does not format: %w", err)
	}
	return string(b), nil
}

// names are the identifiers expr uses.
func names(expr ast.Expr) map[string]bool {
	seen := map[string]bool{}
	ast.Inspect(expr, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			seen[id.Name] = true
		}
		return true
	})
	return seen
}

// lowerFirst is the unexported name for an exported one: TestX → testX.
func lowerFirst(s string) string { return "t" + s[1:] }
