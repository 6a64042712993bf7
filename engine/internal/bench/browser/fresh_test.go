package main

import (
	"strings"
	"testing"
)

func TestPhasesLine_MedianOfEachStepOverTheRoundsThatMeasuredIt(t *testing.T) {
	rounds := []startPhases{
		{Paint: 200, Script: 300, Compiled: 500, SQLite: 450, Started: 550, Run: 700},
		{Paint: 180, Script: 340, Compiled: 460, SQLite: unmeasured, Started: 530, Run: 900},
		{Paint: 220, Script: 320, Compiled: 480, SQLite: 470, Started: 570, Run: 800},
	}
	got := phasesLine(rounds)
	for _, want := range []string{
		"first paint 200 ms", "running its script 320 ms", "compiled 480 ms",
		"bridged 460 ms", // the median of the two rounds that measured it
		"Go program up 550 ms", "first trace shown 800 ms",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("phasesLine: want %q in\n%s", want, got)
		}
	}
}

func TestPhasesLine_AStepNoRoundMeasuredReadsAsADash(t *testing.T) {
	got := phasesLine([]startPhases{{Paint: 200, Script: unmeasured, Compiled: unmeasured, SQLite: unmeasured, Started: unmeasured, Run: 700}})
	if !strings.Contains(got, "running its script —") || !strings.Contains(got, "first trace shown 700 ms") {
		t.Errorf("phasesLine: %s", got)
	}
}
