package lab

import "github.com/leaselab/leaselab/engine/limits"

// PercentilesOf is percentiles, for the external tests.
var PercentilesOf = percentiles

// EstimatedCalls is estimateCalls' total under limits.Default.
func (l *Lab) EstimatedCalls() int64 {
	total, _ := l.estimateCalls(limits.Default)
	return total
}
