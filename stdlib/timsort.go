package stdlib

// jsSort sorts perm stably with cmp by the merge sort JavaScript engines use for
// Array.prototype.sort (natural runs, binary insertion below the minimum run length,
// merges with galloping). For a consistent comparison any stable sort gives the same
// order; this one exists for the comparisons that are not consistent — NaN is "equal"
// to every number, and -Infinity is below the numbers but, compared as the text null,
// above lists — where the resulting order is whatever this algorithm makes of it, and
// sort must give the order the reference gives (spec/stdlib.md "Lists").
func jsSort(perm []int32, cmp func(a, b int32) int) {
	n := len(perm)
	if n < 2 {
		return
	}
	s := &jsSorter{a: perm, cmp: cmp, minGallop: jsMinGallop}
	minRun := jsMinRunLength(n)
	low, remaining := 0, n
	for remaining != 0 {
		run := s.countAndMakeRun(low, low+remaining)
		if run < minRun {
			forced := min(minRun, remaining)
			s.binaryInsertionSort(low, low+run, low+forced)
			run = forced
		}
		s.runs = append(s.runs, jsRun{low, run})
		s.mergeCollapse()
		low += run
		remaining -= run
	}
	s.mergeForceCollapse()
}

const jsMinGallop = 7

type jsRun struct{ base, len int }

type jsSorter struct {
	a         []int32
	tmp       []int32
	cmp       func(a, b int32) int
	runs      []jsRun
	minGallop int
}

func jsMinRunLength(n int) int {
	r := 0
	for n >= 64 {
		r |= n & 1
		n >>= 1
	}
	return n + r
}

// countAndMakeRun returns the length of the run starting at low (ending before high),
// reversing it in place when it is strictly descending.
func (s *jsSorter) countAndMakeRun(lowArg, high int) int {
	low := lowArg + 1
	if low == high {
		return 1
	}
	run := 2
	prev := s.a[low]
	desc := s.cmp(prev, s.a[low-1]) < 0
	for i := low + 1; i < high; i++ {
		cur := s.a[i]
		order := s.cmp(cur, prev)
		if desc {
			if order >= 0 {
				break
			}
		} else if order < 0 {
			break
		}
		prev = cur
		run++
	}
	if desc {
		for i, j := lowArg, lowArg+run-1; i < j; i, j = i+1, j-1 {
			s.a[i], s.a[j] = s.a[j], s.a[i]
		}
	}
	return run
}

// binaryInsertionSort extends the sorted range [low, start) to [low, high).
func (s *jsSorter) binaryInsertionSort(low, start, high int) {
	if low == start {
		start++
	}
	for ; start < high; start++ {
		left, right := low, start
		pivot := s.a[start]
		for left < right {
			mid := left + (right-left)>>1
			if s.cmp(pivot, s.a[mid]) < 0 {
				right = mid
			} else {
				left = mid + 1
			}
		}
		copy(s.a[left+1:start+1], s.a[left:start])
		s.a[left] = pivot
	}
}

func (s *jsSorter) established(n int) bool {
	if n < 2 {
		return true
	}
	return s.runs[n-2].len > s.runs[n-1].len+s.runs[n].len
}

func (s *jsSorter) mergeCollapse() {
	for len(s.runs) > 1 {
		n := len(s.runs) - 2
		if !s.established(n+1) || !s.established(n) {
			if s.runs[n-1].len < s.runs[n+1].len {
				n--
			}
			s.mergeAt(n)
		} else if s.runs[n].len <= s.runs[n+1].len {
			s.mergeAt(n)
		} else {
			break
		}
	}
}

func (s *jsSorter) mergeForceCollapse() {
	for len(s.runs) > 1 {
		n := len(s.runs) - 2
		if n > 0 && s.runs[n-1].len < s.runs[n+1].len {
			n--
		}
		s.mergeAt(n)
	}
}

func (s *jsSorter) mergeAt(i int) {
	baseA, lenA := s.runs[i].base, s.runs[i].len
	baseB, lenB := s.runs[i+1].base, s.runs[i+1].len
	s.runs[i].len = lenA + lenB
	s.runs = append(s.runs[:i+1], s.runs[i+2:]...)

	k := gallopRight(s.cmp, s.a, s.a[baseB], baseA, lenA, 0)
	baseA += k
	lenA -= k
	if lenA == 0 {
		return
	}
	lenB = gallopLeft(s.cmp, s.a, s.a[baseA+lenA-1], baseB, lenB, lenB-1)
	if lenB == 0 {
		return
	}
	if lenA <= lenB {
		s.mergeLow(baseA, lenA, baseB, lenB)
	} else {
		s.mergeHigh(baseA, lenA, baseB, lenB)
	}
}

// gallopLeft returns the position in arr[base:base+length] where key belongs,
// before any equal elements, searching from hint.
func gallopLeft(cmp func(a, b int32) int, arr []int32, key int32, base, length, hint int) int {
	lastOfs, ofs := 0, 1
	if cmp(arr[base+hint], key) < 0 {
		maxOfs := length - hint
		for ofs < maxOfs {
			if cmp(arr[base+hint+ofs], key) >= 0 {
				break
			}
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs += hint
		ofs += hint
	} else {
		maxOfs := hint + 1
		for ofs < maxOfs {
			if cmp(arr[base+hint-ofs], key) < 0 {
				break
			}
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs, ofs = hint-ofs, hint-lastOfs
	}
	lastOfs++
	for lastOfs < ofs {
		m := lastOfs + (ofs-lastOfs)>>1
		if cmp(arr[base+m], key) < 0 {
			lastOfs = m + 1
		} else {
			ofs = m
		}
	}
	return ofs
}

// gallopRight is gallopLeft placing key after any equal elements.
func gallopRight(cmp func(a, b int32) int, arr []int32, key int32, base, length, hint int) int {
	lastOfs, ofs := 0, 1
	if cmp(key, arr[base+hint]) < 0 {
		maxOfs := hint + 1
		for ofs < maxOfs {
			if cmp(key, arr[base+hint-ofs]) >= 0 {
				break
			}
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs, ofs = hint-ofs, hint-lastOfs
	} else {
		maxOfs := length - hint
		for ofs < maxOfs {
			if cmp(key, arr[base+hint+ofs]) < 0 {
				break
			}
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs += hint
		ofs += hint
	}
	lastOfs++
	for lastOfs < ofs {
		m := lastOfs + (ofs-lastOfs)>>1
		if cmp(key, arr[base+m]) < 0 {
			ofs = m
		} else {
			lastOfs = m + 1
		}
	}
	return ofs
}

// mergeLow merges the adjacent runs A (copied aside) and B from the left;
// lenA <= lenB.
func (s *jsSorter) mergeLow(baseA, lenA, baseB, lenB int) {
	a := s.a
	s.tmp = append(s.tmp[:0], a[baseA:baseA+lenA]...)
	tmp := s.tmp
	dest, curA, curB := baseA, 0, baseB
	a[dest] = a[curB]
	dest++
	curB++
	lenB--
	if lenB == 0 {
		goto succeed
	}
	if lenA == 1 {
		goto copyB
	}
	for {
		winsA, winsB := 0, 0
		for {
			if s.cmp(a[curB], tmp[curA]) < 0 {
				a[dest] = a[curB]
				dest++
				curB++
				winsB++
				winsA = 0
				lenB--
				if lenB == 0 {
					goto succeed
				}
				if winsB >= s.minGallop {
					break
				}
			} else {
				a[dest] = tmp[curA]
				dest++
				curA++
				winsA++
				winsB = 0
				lenA--
				if lenA == 1 {
					goto copyB
				}
				if winsA >= s.minGallop {
					break
				}
			}
		}
		s.minGallop++
		for first := true; first || winsA >= jsMinGallop || winsB >= jsMinGallop; first = false {
			s.minGallop = max(1, s.minGallop-1)
			winsA = gallopRight(s.cmp, tmp, a[curB], curA, lenA, 0)
			if winsA > 0 {
				copy(a[dest:dest+winsA], tmp[curA:curA+winsA])
				dest += winsA
				curA += winsA
				lenA -= winsA
				if lenA == 1 {
					goto copyB
				}
				if lenA == 0 {
					goto succeed
				}
			}
			a[dest] = a[curB]
			dest++
			curB++
			lenB--
			if lenB == 0 {
				goto succeed
			}
			winsB = gallopLeft(s.cmp, a, tmp[curA], curB, lenB, 0)
			if winsB > 0 {
				copy(a[dest:dest+winsB], a[curB:curB+winsB])
				dest += winsB
				curB += winsB
				lenB -= winsB
				if lenB == 0 {
					goto succeed
				}
			}
			a[dest] = tmp[curA]
			dest++
			curA++
			lenA--
			if lenA == 1 {
				goto copyB
			}
		}
		s.minGallop++
	}
succeed:
	if lenA > 0 {
		copy(a[dest:dest+lenA], tmp[curA:curA+lenA])
	}
	return
copyB:
	copy(a[dest:dest+lenB], a[curB:curB+lenB])
	a[dest+lenB] = tmp[curA]
}

// mergeHigh merges the adjacent runs A and B (copied aside) from the right;
// lenA > lenB.
func (s *jsSorter) mergeHigh(baseA, lenA, baseB, lenB int) {
	a := s.a
	s.tmp = append(s.tmp[:0], a[baseB:baseB+lenB]...)
	tmp := s.tmp
	dest := baseB + lenB - 1
	curT := lenB - 1
	curA := baseA + lenA - 1
	a[dest] = a[curA]
	dest--
	curA--
	lenA--
	if lenA == 0 {
		goto succeed
	}
	if lenB == 1 {
		goto copyA
	}
	for {
		winsA, winsB := 0, 0
		for {
			if s.cmp(tmp[curT], a[curA]) < 0 {
				a[dest] = a[curA]
				dest--
				curA--
				winsA++
				winsB = 0
				lenA--
				if lenA == 0 {
					goto succeed
				}
				if winsA >= s.minGallop {
					break
				}
			} else {
				a[dest] = tmp[curT]
				dest--
				curT--
				winsB++
				winsA = 0
				lenB--
				if lenB == 1 {
					goto copyA
				}
				if winsB >= s.minGallop {
					break
				}
			}
		}
		s.minGallop++
		for first := true; first || winsA >= jsMinGallop || winsB >= jsMinGallop; first = false {
			s.minGallop = max(1, s.minGallop-1)
			k := gallopRight(s.cmp, a, tmp[curT], baseA, lenA, lenA-1)
			winsA = lenA - k
			if winsA > 0 {
				dest -= winsA
				curA -= winsA
				copy(a[dest+1:dest+1+winsA], a[curA+1:curA+1+winsA])
				lenA -= winsA
				if lenA == 0 {
					goto succeed
				}
			}
			a[dest] = tmp[curT]
			dest--
			curT--
			lenB--
			if lenB == 1 {
				goto copyA
			}
			k = gallopLeft(s.cmp, tmp, a[curA], 0, lenB, lenB-1)
			winsB = lenB - k
			if winsB > 0 {
				dest -= winsB
				curT -= winsB
				copy(a[dest+1:dest+1+winsB], tmp[curT+1:curT+1+winsB])
				lenB -= winsB
				if lenB == 1 {
					goto copyA
				}
				if lenB == 0 {
					goto succeed
				}
			}
			a[dest] = a[curA]
			dest--
			curA--
			lenA--
			if lenA == 0 {
				goto succeed
			}
		}
		s.minGallop++
	}
succeed:
	if lenB > 0 {
		copy(a[dest-(lenB-1):dest+1], tmp[:lenB])
	}
	return
copyA:
	dest -= lenA
	curA -= lenA
	copy(a[dest+1:dest+1+lenA], a[curA+1:curA+1+lenA])
	a[dest] = tmp[curT]
}
