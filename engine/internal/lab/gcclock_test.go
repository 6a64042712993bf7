package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

// The time between a worker's GC pauses counts, for its first pause, from
// the run's start; then from the end of the pause before (a pause is not
// part of the time between); after a crash, from the restart, the pause
// drawn before the crash forgotten. Each worker draws its own. Fixed
// draws show it: gc every 1s pause 300ms pauses at 1000, 2300, 3600 ms,
// not every 1000 ms.
func TestRun_GCGapCountsFromTheStartThenEachPausesEndThenTheRestart(t *testing.T) {
	const base = "jobs 1\nwork fixed 1m\nlease 2m\nhorizon 5s\nruns 1\ngc every fixed 1s pause fixed 300ms\n"
	for _, tc := range []struct {
		name, src, want string
	}{
		{"from the start, then each pause's end", base + "workers 1\n",
			"1000ms A pause 300ms|2300ms A pause 300ms|3600ms A pause 300ms|4900ms A pause 300ms"},
		{"idle workers pause too, each on its own", base + "workers 2\n",
			"1000ms A pause 300ms|1000ms B pause 300ms|2300ms A pause 300ms|2300ms B pause 300ms|3600ms A pause 300ms|3600ms B pause 300ms|4900ms A pause 300ms|4900ms B pause 300ms"},
		{"after a crash, from the restart", base + "workers 1\ncrash every fixed 1500ms restart fixed 200ms\n",
			"1000ms A pause 300ms|1500ms A crash|2700ms A pause 300ms|3200ms A crash|4400ms A pause 300ms|4900ms A crash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, err := lab.Story(context.Background(), mustParse(t, tc.src), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, line := range strings.Split(text, "\n") {
				if strings.Contains(line, " pause ") || strings.HasSuffix(line, " crash") {
					got = append(got, line)
				}
			}
			if strings.Join(got, "|") != tc.want {
				t.Errorf("\n got %s\nwant %s\n%s", strings.Join(got, "|"), tc.want, text)
			}
		})
	}
}
