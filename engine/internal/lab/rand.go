package lab

import "math"

// rng is splitmix64: a small generator whose whole state is one word, so
// a stream is a seed and nothing else. Its sequence is the same on every
// platform, and nothing here reads math/rand's global source.
type rng struct{ s uint64 }

// mix is splitmix64's finalizer: a seed of well-spread bits from any word.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// stream is the generator for one named stream of one run: the lab's
// seed, the run's index, what the stream draws (a stream kind) and whose
// it is (a worker's or a job's index). A run draws the same numbers at
// every point, so two points differ by their swept values alone: a swept
// pause or delay is fixed and draws nothing, a swept drift of v turns
// the same draw into an offset from -v to v.
func stream(seed uint64, run, kind, index int) rng {
	return rng{mix(seed ^ mix(uint64(run)<<32|uint64(kind)<<24|uint64(index)+0x9e3779b97f4a7c15))}
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix(r.s)
}

// float is uniform in [0, 1), with 53 random bits.
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// normal is a standard normal draw (Marsaglia's polar method: only the
// arithmetic, sqrt and ln below, each the same bits on every platform).
func (r *rng) normal() float64 {
	for {
		u, v := 2*r.float()-1, 2*r.float()-1
		s := u*u + v*v
		if s > 0 && s < 1 {
			return u * math.Sqrt(-2*ln(s)/s)
		}
	}
}

// ln is the natural logarithm of x > 0 from arithmetic alone: Go's math.Log
// is assembly on some platforms and pure Go on others, and a lab's numbers
// must be the same bits natively and in WebAssembly. x = m·2^e with m in
// [√½, √2); ln m = 2·atanh((m-1)/(m+1)), whose series converges within a
// few terms there.
func ln(x float64) float64 {
	m, e := math.Frexp(x) // m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m, e = m*2, e-1
	}
	z := (m - 1) / (m + 1)
	z2, term, sum := z*z, z, 0.0
	for k := 1; k < 40; k += 2 {
		sum += term / float64(k)
		term *= z2
	}
	return 2*sum + float64(e)*math.Ln2
}

// exp is e^x from arithmetic alone (see ln): x = k·ln2 + r with |r| ≤
// ln2/2, e^r by its series, then scaled by 2^k exactly.
func exp(x float64) float64 {
	switch {
	case x > 700:
		return math.Inf(1)
	case x < -700:
		return 0
	}
	k := math.Floor(x/math.Ln2 + 0.5)
	r := x - k*math.Ln2
	sum, term := 1.0, 1.0
	for i := 1; i < 25; i++ {
		term *= r / float64(i)
		sum += term
	}
	return math.Ldexp(sum, int(k))
}
