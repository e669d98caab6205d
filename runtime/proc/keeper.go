package proc

import "strconv"

// keeper holds a bounded window of one output stream: the first half and a
// ring of the last half ("both"), the first max bytes ("head") or a ring of
// the last max bytes ("tail"). It counts every byte it sees.
type keeper struct {
	max   int
	mode  string
	head  []byte
	ring  []byte
	rpos  int // next write position in ring
	rfull bool
	total int64
}

func newKeeper(max int, mode string) *keeper {
	if mode == "" {
		mode = "both"
	}
	return &keeper{max: max, mode: mode}
}

func (k *keeper) headCap() int {
	switch k.mode {
	case "head":
		return k.max
	case "tail":
		return 0
	}
	return k.max / 2
}

func (k *keeper) write(p []byte) {
	k.total += int64(len(p))
	hc := k.headCap()
	if n := hc - len(k.head); n > 0 {
		if n > len(p) {
			n = len(p)
		}
		k.head = append(k.head, p[:n]...)
		p = p[n:]
	}
	rc := k.max - hc
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
			k.ring = append(k.ring, p...)
			if len(k.ring) == rc {
				k.rfull, k.rpos = true, 0
			}
			return
		}
		// Fill up to capacity, then wrap.
		n := rc - len(k.ring)
		k.ring = append(k.ring, p[:n]...)
		p = p[n:]
		k.rfull, k.rpos = true, 0
	}
	for len(p) > 0 {
		n := copy(k.ring[k.rpos:], p)
		p = p[n:]
		k.rpos = (k.rpos + n) % rc
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

// Truncated reports whether bytes were dropped.
func (k *keeper) truncated() bool { return k.total > int64(k.max) }

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
	return Output{Head: k.head, Tail: k.tail(), Total: k.total, Truncated: true}
}

// Omitted returns the marker for n omitted bytes.
func Omitted(n int64) string { return "\n[a0: " + strconv.FormatInt(n, 10) + " bytes omitted]\n" }
