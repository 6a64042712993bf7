package lab

// PercentilesOf is percentiles, for the external tests.
var PercentilesOf = percentiles
