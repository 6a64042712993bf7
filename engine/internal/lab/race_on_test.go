//go:build race

package lab_test

const raceDetector = true
