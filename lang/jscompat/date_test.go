package jscompat

import (
	"math"
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	// Expected values were taken from Node 20 (Date.parse).
	utc := map[string]float64{
		"2026-11-21T20:24:59.777Z":      1795292699777,
		"2026-11-21T20:24:59.7Z":        1795292699700,
		"2026-11-21T20:24:59.123456Z":   1795292699123,
		"2026-11-21T20:24Z":             1795292640000,
		"2026":                          1767225600000,
		"2026-02":                       1769904000000,
		"2026-02-03":                    1770076800000,
		"2026-02-03T04:05:06+01:30":     1770086106000,
		"2026-02-03T04:05:06-0200":      1770098706000,
		"+012026-01-01T00:00:00Z":       317336745600000,
		"-000001-01-01T00:00:00Z":       -62198755200000,
		"-000000-01-01T00:00:00Z":       math.NaN(),
		"2026-01-01T24:00:00Z":          1767312000000,
		"2026-01-01T24:00:01Z":          math.NaN(),
		"2026-13-01":                    math.NaN(),
		"2026-02-30":                    1772409600000,
		"Jan 1 2020 00:00:02 GMT":       1577836802000,
		"Tue, 03 Feb 2026 04:05:06 GMT": 1770091506000,
		"February 3, 2026 4:05 PM UTC":  1770134700000,
		"2/3/26 UTC":                    1770076800000,
		"2026/02/03 04:05:06 +0100":     1770087906000,
		"Feb 3 (note) 2026 UTC":         1770076800000,
		"Feb 3 2026 04:05 EST":          1770109500000,
		"3 Feb 2026 garbage":            math.NaN(),
		"":                              math.NaN(),
		"garbage":                       math.NaN(),
		"+275760-09-13T00:00:00.000Z":   8640000000000000,
		"+275760-09-13T00:00:00.001Z":   math.NaN(),
		"2026-02-03T04:05:06.000+25:00": math.NaN(),
		"\u00a02026-02-03T04:05:06Z":    math.NaN(),
		"Feb\u00a03\u00a02026\u00a0UTC": 1770076800000,
		"2026-02-03T04:05:06Z\x00trash": 1770091506000,
		"0000002026-02-03T04:05:06Z":    math.NaN(),
	}
	// Forms without an offset are local time (here UTC+05:30).
	local := map[string][2]float64{
		"2026-02-03T04:05": {1770091500000, 1770071700000},
		"2026-02-03 04:05": {1770091500000, 1770071700000},
		"Feb 3 2026":       {1770076800000, 1770057000000},
		"2026-02-03":       {1770076800000, 1770076800000},
	}
	saved := time.Local
	defer func() { time.Local = saved }()
	time.Local = time.UTC
	check := func(s string, want float64) {
		t.Helper()
		got := ParseDate(s)
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("ParseDate(%q) = %v, want %v", s, got, want)
		}
	}
	for s, want := range utc {
		check(s, want)
	}
	for s, want := range local {
		check(s, want[0])
	}
	time.Local = time.FixedZone("IST", 5*3600+1800)
	for s, want := range local {
		check(s, want[1])
	}
}

func TestParseDateTransitions(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone database")
	}
	saved := time.Local
	defer func() { time.Local = saved }()
	time.Local = ny
	// Node 20: a skipped wall time and a repeated one both use the offset
	// in force before the transition.
	for s, want := range map[string]float64{
		"2021-03-14T02:30": 1615707000000,
		"2021-11-07T01:30": 1636263000000,
		"2021-07-01T12:00": 1625155200000,
	} {
		if got := ParseDate(s); got != want {
			t.Errorf("ParseDate(%q) = %v, want %v", s, got, want)
		}
	}
}
