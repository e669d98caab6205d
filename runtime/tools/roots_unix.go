//go:build unix

package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// Pinned roots.
//
// The roots of a run are opened once, the first time the run's file
// tools or exec tools need them, and every later call resolves beneath
// those descriptors: a root directory that a command removes and
// replaces with a symbolic link (`rmdir out && ln -s /elsewhere out`)
// does not move the root, because the tools never look the root's path
// up again. The sandbox's Landlock rules are made from the same
// descriptors (proc.Sandbox.OpenRoot). The set is a run resource
// ([runtime.Resource]): it is closed when the run (or the REPL session)
// ends.

// rootSet is the run's pinned roots, by absolute cleaned path.
type rootSet struct {
	mu     sync.Mutex
	byPath map[string]*pinnedRoot
	closed bool
}

// pinnedRoot is one root, opened once.
type pinnedRoot struct {
	// f is the root itself, opened O_PATH (its own path's symbolic links
	// followed: the roots are the host's).
	f *os.File
	// real is where the root was when it was opened.
	real string
	// dir is the folder that holds a root that is a file (nil for a
	// folder root); name is the file's name there.
	dir  *os.File
	name string
}

func newRootSet() *rootSet { return &rootSet{byPath: map[string]*pinnedRoot{}} }

// Close implements runtime.Resource: the descriptors are closed.
func (s *rootSet) Close(string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.byPath {
		p.f.Close()
		if p.dir != nil {
			p.dir.Close()
		}
	}
	s.byPath = nil
	s.closed = true
}

// pinned returns the root at path, opening it on first use (creating a
// missing folder first when create is set). A root that is missing is not
// remembered, so that it is pinned when it first exists; an error is
// returned instead.
func (s *rootSet) pinned(path string, create bool) (*pinnedRoot, error) {
	if s != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if p, ok := s.byPath[path]; ok {
			return p, nil
		}
	}
	fd, err := unix.Open(path, oPath|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err == unix.ENOENT && create {
		if merr := os.MkdirAll(path, 0o777); merr != nil {
			return nil, merr
		}
		fd, err = unix.Open(path, oPath|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	}
	if err != nil {
		return nil, err
	}
	p := &pinnedRoot{f: os.NewFile(uintptr(fd), path), real: fdPath(fd, path)}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		p.f.Close()
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		dfd, err := unix.Open(filepath.Dir(p.real), dirFlags, 0)
		if err != nil {
			p.f.Close()
			return nil, err
		}
		p.dir, p.name = os.NewFile(uintptr(dfd), filepath.Dir(p.real)), filepath.Base(p.real)
	}
	if s != nil && !s.closed {
		s.byPath[path] = p
	}
	return p, nil
}

// fdPath returns the path the open file fd has now (from /proc where
// there is one), or its path resolved by name.
func fdPath(fd int, path string) string {
	if r, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); err == nil && filepath.IsAbs(r) {
		return r
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// pin opens every root in paths now (missing ones are skipped: they are
// pinned when they first exist).
func (s *rootSet) pin(paths []string) {
	for _, p := range paths {
		s.pinned(p, false)
	}
}

// real returns the real location of the root at path: where it was when
// it was pinned, else where its path leads now.
func (s *rootSet) real(path string) string {
	if s != nil {
		s.mu.Lock()
		p, ok := s.byPath[path]
		s.mu.Unlock()
		if ok {
			return p.real
		}
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// openDir returns a new descriptor of the folder root at path, for name
// resolution; ENOTDIR when the root is a file.
func (s *rootSet) openDir(path string, create bool) (int, error) {
	p, err := s.pinned(path, create)
	if err != nil {
		return -1, err
	}
	defer s.drop(p)
	if p.dir != nil {
		return -1, unix.ENOTDIR
	}
	return dupFD(p.f)
}

// drop closes p when it is not kept (a nil set pins nothing).
func (s *rootSet) drop(p *pinnedRoot) {
	if s != nil && !s.isClosed() {
		return
	}
	p.f.Close()
	if p.dir != nil {
		p.dir.Close()
	}
}

func (s *rootSet) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// openFileRoot returns a new descriptor of the folder that holds the
// file root at path, and the file's name there.
func (s *rootSet) openFileRoot(path string) (int, string, error) {
	p, err := s.pinned(path, false)
	if err != nil {
		return -1, "", err
	}
	defer s.drop(p)
	if p.dir == nil {
		return -1, "", unix.EISDIR
	}
	fd, err := dupFD(p.dir)
	return fd, p.name, err
}

// openRule returns a new O_PATH descriptor of the root at path, for a
// Landlock rule (proc.Sandbox.OpenRoot): the same object the file tools
// resolve beneath. The caller closes it.
func (s *rootSet) openRule(path string) (int, error) {
	p, err := s.pinned(path, false)
	if err != nil {
		return -1, err
	}
	defer s.drop(p)
	return dupFD(p.f)
}

// dupFD duplicates f's descriptor, close-on-exec.
func dupFD(f *os.File) (int, error) {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	return fd, nil
}
