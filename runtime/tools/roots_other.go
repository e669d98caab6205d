//go:build !unix

package tools

import (
	"errors"
	"path/filepath"
)

// rootSet: where there are no directory descriptors, roots are looked up
// by path on every call (see beneath_other.go).
type rootSet struct{}

func newRootSet() *rootSet { return &rootSet{} }

// Close implements runtime.Resource.
func (s *rootSet) Close(string) {}

func (s *rootSet) pin(paths []string) {}

func (s *rootSet) real(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// openRule: no descriptors here; the sandbox (Linux only) never asks.
func (s *rootSet) openRule(path string) (int, error) {
	return -1, errors.New("no pinned roots on this system")
}
