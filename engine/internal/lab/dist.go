package lab

import (
	"math"
	"strconv"
	"strings"
)

// Dist is a named distribution of durations in ms. Its draws are whole
// ms, the same on every platform for the same stream.
//
//	fixed D                     always D
//	uniform A B                 every ms from A to B alike (A ≤ B)
//	exponential M               memoryless, mean M: the time between crashes
//	lognormal M S               median M, spread S (the σ of its log): most
//	                            draws near M, a long tail of slow ones
//	mixture W1 DIST | W2 DIST…  DIST_i with weight W_i (weights are relative)
//
// An offset may be negative (uniform -50ms 50ms); every other draw is
// clamped at 0.
type Dist struct {
	Kind  string  // fixed, uniform, exponential, lognormal, mixture
	A, B  int64   // fixed: A; uniform: A..B; exponential: mean A; lognormal: median A
	Sigma float64 // lognormal's spread
	Parts []Part  // mixture's components
}

// Part is one weighted component of a mixture.
type Part struct {
	Weight float64
	Dist   Dist
}

// distKinds are the distributions' names, in the order the guide lists them.
var distKinds = []string{"fixed", "uniform", "exponential", "lognormal", "mixture"}

// draw is one draw, rounded to a whole ms.
func (d *Dist) draw(r *rng) int64 {
	switch d.Kind {
	case "fixed":
		return d.A
	case "uniform":
		return d.A + int64(r.float()*float64(d.B-d.A+1))
	case "exponential":
		return int64(math.Round(-float64(d.A) * ln(1-r.float())))
	case "lognormal":
		return int64(math.Round(float64(d.A) * exp(d.Sigma*r.normal())))
	case "mixture":
		total := 0.0
		for _, p := range d.Parts {
			total += p.Weight
		}
		u := r.float() * total
		for i := range d.Parts {
			if u < d.Parts[i].Weight || i == len(d.Parts)-1 {
				return d.Parts[i].Dist.draw(r)
			}
			u -= d.Parts[i].Weight
		}
	}
	return 0
}

// String is the distribution as a lab writes it.
func (d Dist) String() string {
	switch d.Kind {
	case "fixed", "exponential":
		return d.Kind + " " + ms(d.A)
	case "uniform":
		return d.Kind + " " + ms(d.A) + " " + ms(d.B)
	case "lognormal":
		return d.Kind + " " + ms(d.A) + " " + strconv.FormatFloat(d.Sigma, 'g', -1, 64)
	}
	parts := make([]string, len(d.Parts))
	for i, p := range d.Parts {
		parts[i] = strconv.FormatFloat(p.Weight, 'g', -1, 64) + " " + p.Dist.String()
	}
	return "mixture " + strings.Join(parts, " | ")
}

// ms writes a duration as the timeline language does: whole ms.
func ms(v int64) string { return strconv.FormatInt(v, 10) + "ms" }
