package value

import (
	"math"
	"strconv"
)

// FormatNumber writes f the way JavaScript's Number#toString does (the
// ECMAScript Number-to-String algorithm): 1.0 → "1", 1e21 → "1e+21",
// 1e-7 → "1e-7", -0 → "0".
func FormatNumber(f float64) string {
	var buf [32]byte
	return string(AppendNumber(buf[:0], f))
}

// AppendNumber appends the JavaScript text of f to dst.
func AppendNumber(dst []byte, f float64) []byte {
	switch {
	case f != f:
		return append(dst, "NaN"...)
	case f == 0:
		return append(dst, '0')
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		if math.Abs(f) < 1<<53 {
			return strconv.AppendInt(dst, int64(f), 10)
		}
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	// e looks like d.ddde±XX or de±XX
	mant := e
	exp := 0
	for i := 0; i < len(e); i++ {
		if e[i] == 'e' {
			mant = e[:i]
			x, _ := strconv.Atoi(string(e[i+1:]))
			exp = x
			break
		}
	}
	var digits [24]byte
	d := digits[:0]
	for _, c := range mant {
		if c != '.' {
			d = append(d, c)
		}
	}
	k := len(d)
	n := exp + 1 // value = 0.d × 10^n
	switch {
	case k <= n && n <= 21:
		dst = append(dst, d...)
		for i := 0; i < n-k; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, d[:n]...)
		dst = append(dst, '.')
		dst = append(dst, d[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -n; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, d...)
	default:
		dst = append(dst, d[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}
