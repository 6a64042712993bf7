package simrun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

// LabOptions choose a lab's run: Seed, when not "", is every run's seed
// in decimal (it overrides the lab's seed line, as leaselab lab -seed
// does); Progress, when not nil, hears how many runs of all are done.
type LabOptions struct {
	Seed     string
	Progress func(done, total int)
}

// LabErrorList is a lab text's mistakes, each a *LabError at its line
// and column: what LabJSON and LabStory return for bad text.
type LabErrorList = lab.ErrorList

// LabError is one mistake of a lab's text.
type LabError = lab.Error

// parseLab parses a lab's text (named name) and applies seed.
func parseLab(name, text, seed string) (*lab.Lab, error) {
	l, err := lab.Parse(name, text)
	if err != nil {
		return nil, err
	}
	if seed != "" {
		n, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("lab: seed %q: not a whole number from 0 to 18446744073709551615", seed)
		}
		l.Seed = n
	}
	return l, nil
}

// LabJSON parses text as a lab (package engine/internal/lab) and runs it,
// returning its Result as JSON (Result.Encode: format leaselab-lab/1),
// byte for byte what leaselab lab -json prints for the same text and seed.
// Bad text returns the parser's lab.ErrorList and runs nothing; it stops
// when ctx ends.
func LabJSON(ctx context.Context, name, text string, opts LabOptions) ([]byte, error) {
	l, err := parseLab(name, text, opts.Seed)
	if err != nil {
		return nil, err
	}
	res, err := lab.Run(ctx, l, lab.Options{Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = res.Encode(&b)
	return b.Bytes(), err
}

// LabSVG is the plot (Result.WriteSVG, in lang: en or ko) of a Result as
// LabJSON gives it: the page draws what leaselab lab -svg writes.
func LabSVG(result []byte, lang string) (string, error) {
	var res lab.Result
	if err := json.Unmarshal(result, &res); err != nil {
		return "", fmt.Errorf("lab: not a lab's result: %w", err)
	}
	if res.Format != lab.FormatVersion {
		return "", fmt.Errorf("lab: a result of format %q, not %q", res.Format, lab.FormatVersion)
	}
	var b bytes.Buffer
	err := res.WriteSVG(&b, lang)
	return b.String(), err
}

// LabStory is run number run (from 0) of point (from 0) of the lab text
// replayed as a timeline (lab.Story), what leaselab lab -story prints.
func LabStory(ctx context.Context, name, text, seed string, point, run int) (string, error) {
	l, err := parseLab(name, text, seed)
	if err != nil {
		return "", err
	}
	return lab.Story(ctx, l, point, run)
}
