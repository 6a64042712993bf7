package main

import "github.com/leaselab/leaselab/engine/httpapi"

// clockMode reads the clock mode from the LEASELAB_CLOCK setting: unset
// (empty) is httpapi.ServerClock, since a deployed Worker is reached by
// anyone; "client" and "server" are as httpapi.ParseClockMode reads them.
func clockMode(setting string) (httpapi.ClockMode, error) {
	if setting == "" {
		return httpapi.ServerClock, nil
	}
	return httpapi.ParseClockMode(setting)
}
