package abtest

import (
	"math"
	"sync"
)

// Student's t distribution, for the paired interval (stats.go): its quantiles and the
// density of an estimated standard error over the true one, computed once per degrees of
// freedom and kept.

var (
	tCacheMu sync.Mutex
	tCache   = map[[2]float64]float64{}
)

// cached returns f's value for (key, df), computing it once.
func cached(key float64, df int, f func() float64) float64 {
	k := [2]float64{key, float64(df)}
	tCacheMu.Lock()
	v, ok := tCache[k]
	tCacheMu.Unlock()
	if ok {
		return v
	}
	v = f()
	tCacheMu.Lock()
	tCache[k] = v
	tCacheMu.Unlock()
	return v
}

// tCDF returns P(T <= t) for Student's t with df degrees of freedom.
func tCDF(t float64, df int) float64 {
	x := float64(df) / (float64(df) + t*t)
	tail := 0.5 * betaInc(float64(df)/2, 0.5, x)
	if t > 0 {
		return 1 - tail
	}
	return tail
}

// tQuantile returns the p quantile (0.5 < p < 1) of Student's t with df degrees of freedom.
func tQuantile(p float64, df int) float64 {
	return cached(p, df, func() float64 {
		lo, hi := 0.0, 1.0
		for tCDF(hi, df) < p {
			hi *= 2
		}
		for range 200 {
			mid := (lo + hi) / 2
			if tCDF(mid, df) < p {
				lo = mid
			} else {
				hi = mid
			}
			if hi-lo < 1e-12 {
				break
			}
		}
		return (lo + hi) / 2
	})
}

// sDensity is the density of S = sqrt(V/df), V chi-squared with df degrees of freedom:
// 2 df s f(df s²), f that of V.
func sDensity(s float64, df int) float64 {
	k := float64(df)
	if s <= 0 {
		if df == 1 {
			return math.Sqrt(2 / math.Pi) // the limit at 0 for one degree of freedom
		}
		return 0
	}
	lg, _ := math.Lgamma(k / 2)
	x := k * s * s
	return 2 * k * s * math.Exp((k/2-1)*math.Log(x)-x/2-(k/2)*math.Ln2-lg)
}

// sRange is where sDensity's mass lies, for the integrals: 8 standard deviations of S
// below 1 (its mean, roughly) and 12 above, cut at 0.
func sRange(df int) (lo, hi float64) {
	sd := 1 / math.Sqrt(2*float64(df))
	return max(0, 1-8*sd), 1 + 12*sd
}

// simpson integrates f over [0, top] by Simpson's rule in steps (even) steps.
func simpson(f func(float64) float64, top float64, steps int) float64 {
	h := top / float64(steps)
	sum := 0.0
	for i := 0; i <= steps; i++ {
		sum += simpsonWeight(i, steps) * f(float64(i)*h)
	}
	return sum * h / 3
}

// simpsonWeight is the weight of point i of steps in Simpson's rule: 1 4 2 4 ... 4 1.
func simpsonWeight(i, steps int) float64 {
	switch {
	case i == 0 || i == steps:
		return 1
	case i%2 == 1:
		return 4
	}
	return 2
}

// betaInc returns the regularized incomplete beta function I_x(a, b), by its continued
// fraction (Numerical Recipes, betacf).
func betaInc(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

func betaCF(a, b, x float64) float64 {
	const tiny = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 1000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 3e-16 {
			break
		}
	}
	return h
}
