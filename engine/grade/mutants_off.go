//go:build !mutants

package grade

import "github.com/leaselab/leaselab/engine/internal/lang"

// mutantTests is one skipped test: this build holds no mutants.
func (g *grader) mutantTests() []testCase {
	return []testCase{{name: lang.P("mutants"), skip: lang.P("this build holds no mutants (build leaselab with -tags mutants to play each one's distinguishing timeline)")}}
}
