package runtime

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/jscompat"
)

// PathHint names the fix for a file a command could not read: for a
// missing file, the file of its folder it most likely meant (the name
// with ext added, or a close spelling: "Did you mean 'hello.a0'?"); for
// a folder, the files in it that end in ext; for a permission error, the
// permissions. file is the path as the user typed it, and the hint
// writes the paths it names the same way (relative stays relative).
// "" when there is nothing to add to the error.
func PathHint(err error, file, ext string) string {
	switch {
	case file == "":
		return "The file name is empty (an unset shell variable?): give the file's path."
	case jscompat.IsErrno(err, syscall.ENOENT):
		return MissingFileHint(file, ext)
	case jscompat.IsErrno(err, syscall.EISDIR):
		names := dirNames(file, ext)
		if len(names) == 0 {
			return "'" + file + "' is a folder and holds no " + ext + " file: give the path of a file."
		}
		shown := names
		if len(shown) > 3 {
			shown = shown[:3]
		}
		for i, n := range shown {
			shown[i] = "'" + filepath.Join(file, n) + "'"
		}
		more := ""
		if len(names) > 3 {
			more = " (and more)"
		}
		return "'" + file + "' is a folder: give the path of a file in it, such as " + strings.Join(shown, ", ") + more + "."
	case jscompat.IsErrno(err, syscall.EACCES), jscompat.IsErrno(err, syscall.EPERM):
		return "a0 may not read '" + file + "': check its permissions (ls -l), or copy it somewhere readable."
	}
	return ""
}

// MissingFileHint is PathHint for a file that does not exist.
func MissingFileHint(file, ext string) string {
	dir, base := filepath.Split(file)
	show := func(name string) string { return "'" + dir + name + "'" }
	if ext != "" && !strings.HasSuffix(base, ext) {
		if st, err := os.Stat(file + ext); err == nil && st.Mode().IsRegular() {
			return "Did you mean " + show(base+ext) + "?"
		}
	}
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return "The folder '" + filepath.Clean(dir) + "' does not exist either: check the path (a relative one starts from the directory you run a0 from)."
		}
	}
	// Names are compared without an extension they share, so p5.a0 is
	// near p1.a0 but nope.json is not near pol.json.
	stem, fext := base, filepath.Ext(base)
	names := dirNames(dir, "")
	stems := map[string]string{}
	var cands []string
	for _, n := range names {
		if fext != "" && filepath.Ext(n) == fext {
			stems[strings.TrimSuffix(n, fext)] = n
			cands = append(cands, strings.TrimSuffix(n, fext))
		} else if fext == "" {
			stems[n] = n
			cands = append(cands, n)
		}
	}
	if fext != "" {
		stem = strings.TrimSuffix(base, fext)
	}
	if s := diag.Suggest(stem, cands); s != "" {
		return "Did you mean " + show(stems[s]) + "?"
	}
	// The same name with another extension (trace.json for trace.jsonl).
	for _, n := range names {
		if strings.TrimSuffix(n, filepath.Ext(n)) == stem && n != base {
			return "Did you mean " + show(n) + "?"
		}
	}
	return "Check the path: a relative one starts from the directory you run a0 from."
}

// dirNames are the names of the files in dir (those ending in ext, when
// ext is set), sorted, without hidden ones; at most the first 1000
// entries of a large folder are looked at.
func dirNames(dir, ext string) []string {
	if dir == "" {
		dir = "."
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	ents, _ := f.ReadDir(1000)
	var out []string
	for _, e := range ents {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if ext != "" && !strings.HasSuffix(e.Name(), ext) {
			continue
		}
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// OutputPathHint names the fix for an output file (a trace, an evidence
// file) that could not be created: a folder that does not exist (a0
// never creates one), a folder given as the file (example is a file name
// to suggest inside it), a folder a0 may not write. "" when there is
// nothing to add.
func OutputPathHint(err error, path, example string) string {
	switch {
	case jscompat.IsErrno(err, syscall.ENOENT):
		dir := filepath.Dir(path)
		return "The folder '" + dir + "' does not exist, and a0 does not create it: create it first (mkdir -p " + dir + "), or give a path in an existing folder."
	case jscompat.IsErrno(err, syscall.EISDIR):
		return "'" + path + "' is a folder: give the path of a file, such as '" + filepath.Join(path, example) + "'."
	case jscompat.IsErrno(err, syscall.EACCES), jscompat.IsErrno(err, syscall.EPERM), jscompat.IsErrno(err, syscall.EROFS):
		return "a0 may not write '" + path + "': give a path in a folder you may write."
	case jscompat.IsErrno(err, syscall.ENOTDIR):
		return "A part of '" + path + "' is a file, not a folder: check the path."
	}
	return ""
}
