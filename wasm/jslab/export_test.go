//go:build js && wasm

package jslab

// JSTerms is jsTerms, for the tests.
var JSTerms = jsTerms
