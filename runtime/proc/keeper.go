package proc

import "strconv"

// keeper holds a bounded window of one output stream: a head of the first
// hc bytes and a ring of the last rc bytes. sh.exec sizes them from its
// truncate mode (both: half and half; head: all head; tail: all ring); a
// job keeps a head of min(64 KiB, max) plus a ring of max. It counts every
// byte it sees and allocates lazily.
type keeper struct {
	hc, rc int
	head   []byte
	ring   []byte
	rpos   int // next write position in ring (when full)
	rfull  bool
	total  int64
}

func newKeeper(max int, mode string) *keeper {
	hc := max / 2
	switch mode {
	case "head":
		hc = max
	case "tail":
		hc = 0
	}
	return &keeper{hc: hc, rc: max - hc}
}

// jobHead is the in-memory head a job keeps per stream.
const jobHead = 64 << 10

func newJobKeeper(max int) *keeper {
	return &keeper{hc: min(jobHead, max), rc: max}
}

func (k *keeper) write(p []byte) {
	k.total += int64(len(p))
	if n := k.hc - len(k.head); n > 0 {
		if n > len(p) {
			n = len(p)
		}
		k.head = appendCapped(k.head, p[:n], k.hc)
		p = p[n:]
	}
	rc := k.rc
	if rc <= 0 || len(p) == 0 {
		return
	}
	if len(p) >= rc {
		if cap(k.ring) < rc {
			k.ring = make([]byte, rc)
		}
		k.ring = k.ring[:rc]
		copy(k.ring, p[len(p)-rc:])
		k.rpos, k.rfull = 0, true
		return
	}
	if !k.rfull {
		if len(k.ring)+len(p) <= rc {
			k.ring = appendCapped(k.ring, p, rc)
			if len(k.ring) == rc {
				k.rfull, k.rpos = true, 0
			}
			return
		}
		// Fill up to capacity, then wrap.
		n := rc - len(k.ring)
		k.ring = appendCapped(k.ring, p[:n], rc)
		p = p[n:]
		k.rfull, k.rpos = true, 0
	}
	for len(p) > 0 {
		n := copy(k.ring[k.rpos:], p)
		p = p[n:]
		k.rpos = (k.rpos + n) % rc
	}
}

// appendCapped appends p to b, growing b geometrically but never past
// limit bytes of capacity (so a full keeper holds exactly its cap).
func appendCapped(b, p []byte, limit int) []byte {
	need := len(b) + len(p)
	if need <= cap(b) {
		return append(b, p...)
	}
	n := max(2*cap(b), need, 512)
	if n > limit {
		n = max(limit, need)
	}
	nb := make([]byte, len(b), n)
	copy(nb, b)
	return append(nb, p...)
}

// rotate puts a full ring in stream order in place (no allocation); the
// keeper takes no more writes afterwards.
func (k *keeper) rotate() {
	if !k.rfull || k.rpos == 0 {
		return
	}
	reverse(k.ring[:k.rpos])
	reverse(k.ring[k.rpos:])
	reverse(k.ring)
	k.rpos = 0
}

func reverse(b []byte) {
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
}

func (k *keeper) tail() []byte {
	if !k.rfull {
		return k.ring
	}
	out := make([]byte, 0, len(k.ring))
	out = append(out, k.ring[k.rpos:]...)
	return append(out, k.ring[:k.rpos]...)
}

// ringStart is the stream offset of the first byte held in the ring.
func (k *keeper) ringStart() int64 { return k.total - int64(len(k.ring)) }

// ringCopy appends the stream bytes [off, end) to dst; the range must lie
// within [ringStart, total).
func (k *keeper) ringCopy(dst []byte, off, end int64) []byte {
	i := int(off - k.ringStart())
	n := int(end - off)
	if !k.rfull {
		return append(dst, k.ring[i:i+n]...)
	}
	p := (k.rpos + i) % len(k.ring)
	first := min(n, len(k.ring)-p)
	dst = append(dst, k.ring[p:p+first]...)
	return append(dst, k.ring[:n-first]...)
}

// Truncated reports whether bytes were dropped.
func (k *keeper) truncated() bool { return k.total > int64(k.hc+k.rc) }

// Output is the captured part of one stream.
type Output struct {
	// Head and Tail are the kept bytes; Tail is empty unless the stream was
	// truncated in "both" or "tail" mode.
	Head, Tail []byte
	Total      int64
	Truncated  bool
}

func (k *keeper) output() Output {
	if !k.truncated() {
		all := append(append([]byte(nil), k.head...), k.tail()...)
		return Output{Head: all, Total: k.total}
	}
	k.rotate()
	return Output{Head: k.head, Tail: k.ring, Total: k.total, Truncated: true}
}

// Omitted returns the marker for n omitted bytes.
func Omitted(n int64) string { return "\n[a0: " + strconv.FormatInt(n, 10) + " bytes omitted]\n" }
