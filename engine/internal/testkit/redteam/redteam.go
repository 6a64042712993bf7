// Package redteam holds the hostile inputs found against leaselab, as
// texts the tests of every door replay: each must stay refused, or
// answered within its limits.
package redteam

import "strings"

// Amplifier is a timeline of one job whose id is nameBytes long and steps
// claim-next steps that never name it, each 1 ms after the last with a
// 1 ms lease: the text stays small while each step's trace names the job
// a dozen times. At 100,000 and 2,000 it is 126 KB, within text_bytes,
// and its trace was over 2 GB before names and traces were bounded.
func Amplifier(nameBytes, steps int) string {
	var b strings.Builder
	b.WriteString("lease 1ms\njob " + strings.Repeat("x", nameBytes) + "\n\n")
	for range steps {
		b.WriteString("+1ms A claim\n")
	}
	return b.String()
}
