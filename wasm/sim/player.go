//go:build js && wasm && !tools

package main

// addTools adds nothing: the player build (leaselab.wasm) answers only
// what playing a timeline needs, and leaves the tools out of its module.
func addTools(map[string]any) {}
