package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/format"
	"github.com/a0lang/a0/lang/jscompat"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/stdlib"
)

// fmt runs `a0 fmt` (spec/cli.md §10): each path is a file, a folder
// (every *.a0 file under it) or `-` (standard input). Without options the
// formatted programs are printed; --write rewrites the files that change;
// --check lists them and exits 1 when there are any. The exit code is the
// worst outcome: 4 for a read or write failure, 2 for a syntax error, 1 for
// a file --check found unformatted, else 0.
func (c *cli) fmt() int {
	write, check := c.inv.Flags[optWrite], c.inv.Flags[optCheck]
	if write && check {
		io.WriteString(c.stderr, "error: options '--write' and '--check' cannot be used together\n")
		return diag.ExitUsage
	}
	paths := c.inv.Files
	if len(paths) == 0 {
		paths = []string{c.inv.File}
	}
	code := diag.ExitOK
	worse := func(k int) {
		if rank(k) > rank(code) {
			code = k
		}
	}
	for _, path := range paths {
		files, err := fmtFiles(path)
		if err != nil {
			c.fmtIOError("Error reading file: "+runtime.ReadErrorText(err, path), runtime.PathHint(err, path, ".a0"))
			worse(diag.ExitRuntime)
			continue
		}
		for _, file := range files {
			worse(c.fmtFile(file, file == path, write, check))
		}
	}
	return code
}

// rank orders fmt's exit codes by severity.
func rank(code int) int {
	switch code {
	case diag.ExitOK:
		return 0
	case diag.ExitUsage: // a file --check would change
		return 1
	case diag.ExitStatic:
		return 2
	}
	return 3
}

// fmtFiles returns path when it is `-` or not a folder, else the *.a0
// files under it in lexical order (names starting with a dot, and
// symbolic links, are skipped inside folders).
func fmtFiles(path string) ([]string, error) {
	if path == "-" {
		return []string{path}, nil
	}
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return []string{path}, nil // a read error is reported for the file
	}
	var files []string
	root := path
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// A folder named through a symbolic link is walked; links found
		// inside folders are not followed.
		root = path + string(filepath.Separator)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != root && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.HasSuffix(name, ".a0") {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}

// fmtFile formats one file (`-`: standard input) and returns its exit code.
// named reports that the file was given as an argument, not found in a
// folder: --write then reports a file it cannot write even when its text is
// already formatted (a file found in a folder is only written if it changes).
func (c *cli) fmtFile(file string, named, write, check bool) int {
	var in io.Reader
	if file == "-" {
		in = c.stdin
	}
	raw, d := runtime.ReadSourceBytes(in, file)
	if d != nil && d.Code == diag.EParse { // too large
		io.WriteString(c.stderr, diag.List{d}.Text(nil, diagStyle(c.stderr))+"\n")
		return diag.ExitStatic
	}
	if d != nil {
		c.fmtIOError(d.Message, d.Hint)
		return diag.ExitRuntime
	}
	p, ds := parser.Parse(file, string(raw), parser.Options{Signatures: stdlib.Params})
	if len(ds) > 0 {
		io.WriteString(c.stderr, ds.Text(func(string) string { return string(raw) }, diagStyle(c.stderr))+"\n")
		return diag.ExitStatic
	}
	out := format.Program(p)
	changed := out != string(raw)
	switch {
	case check:
		if changed {
			io.WriteString(c.stdout, file+"\n")
			return diag.ExitUsage
		}
	case write && file != "-":
		var err error
		switch {
		case changed:
			err = writeFileKeepMode(file, []byte(out))
		case named:
			// Left as it is, but asked to be written: say so if it could
			// not be (a read-only or immutable file), as a write would.
			err = checkWritable(file)
		}
		if err != nil {
			c.fmtIOError("Error writing file: "+jscompat.NodeErrorText(err, "open", file), "")
			return diag.ExitRuntime
		}
	default:
		io.WriteString(c.stdout, out)
	}
	return diag.ExitOK
}

func (c *cli) fmtIOError(msg, hint string) {
	io.WriteString(c.stderr, (&diag.Diagnostic{Code: diag.EIO, Message: msg, Hint: hint}).Text("", diagStyle(c.stderr))+"\n")
}
