package runtime

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/jscompat"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
)

// ReadSource reads a program's text from r (file labels it) and decodes
// it with the WHATWG UTF-8 rule. A text over parser.MaxSourceBytes is
// not kept in memory: it is a parser.TooLarge static error (E_PARSE); a
// read failure is an E_IO in Node's words.
func ReadSource(r io.Reader, file string) (string, *diag.Diagnostic) {
	return decodeSource(ReadSourceBytes(r, file))
}

// ReadSourceFile is ReadSource of the file; a larger file than
// parser.MaxSourceBytes is refused by its size, unread.
func ReadSourceFile(file string) (string, *diag.Diagnostic) {
	return decodeSource(ReadSourceBytes(nil, file))
}

// ReadSourceBytes is ReadSource (r nil: ReadSourceFile) without the
// decoding: the program's bytes as they are (a0 fmt compares them).
func ReadSourceBytes(r io.Reader, file string) ([]byte, *diag.Diagnostic) {
	var b []byte
	var err error
	if r != nil {
		b, err = readProgram(r)
	} else {
		b, err = readProgramFile(file)
	}
	var big tooLarge
	if errors.As(err, &big) {
		return nil, parser.TooLarge(file, int64(big))
	}
	if err != nil {
		d := &diag.Diagnostic{Code: diag.EIO, Message: "Error reading file: " + ReadErrorText(err, file)}
		if r == nil && file == "-" && jscompat.IsErrno(err, syscall.ENOENT) {
			d.Hint = "'-' is a file name here: only a0 run - and a0 fmt - read a program from stdin; save the program to a file and give its path."
		} else if r == nil {
			d.Hint = PathHint(err, file, ".a0")
		}
		return nil, d
	}
	return b, nil
}

func decodeSource(b []byte, d *diag.Diagnostic) (string, *diag.Diagnostic) {
	if d != nil {
		return "", d
	}
	return value.DecodeBytes(b), nil
}

// tooLarge is a program source of this many bytes, more than
// parser.MaxSourceBytes: it was not kept in memory.
type tooLarge int64

func (n tooLarge) Error() string { return "program too large" }

// readProgram reads a program's text, keeping at most
// parser.MaxSourceBytes: past that it counts the rest without keeping it
// and returns tooLarge, so no input, however long, is held in memory.
func readProgram(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, parser.MaxSourceBytes+1))
	if err != nil || len(b) <= parser.MaxSourceBytes {
		return b, err
	}
	rest, err := io.Copy(io.Discard, r)
	if err != nil {
		return nil, err
	}
	return nil, tooLarge(int64(len(b)) + rest)
}

// readProgramFile is readProgram of a file; a larger file than
// parser.MaxSourceBytes is refused by its size, unread.
func readProgramFile(file string) ([]byte, error) {
	if b, ok, err := readProgramFileRaw(file); ok {
		return b, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > parser.MaxSourceBytes {
		return nil, tooLarge(st.Size())
	}
	return readProgram(f)
}

// ReadErrorText is Node's text for a failure to read file: the read form
// (no path) for a directory, else the open form naming the file.
func ReadErrorText(err error, file string) string {
	if jscompat.IsErrno(err, syscall.EISDIR) {
		return jscompat.NodeErrorText(err, "read", "")
	}
	return jscompat.NodeErrorText(err, "open", file)
}

// FileErrorText renders a failure to write an output file in Node's
// words, naming the operation that failed: "open '<path>'" when the file
// could not be opened, else the write or close ("ENOSPC: no space left on
// device, write").
func FileErrorText(err error, path string) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op != "open" {
		return jscompat.NodeErrorText(err, pe.Op, "")
	}
	if path == "" {
		return jscompat.NodeErrorText(err, "close", "")
	}
	return jscompat.NodeErrorText(err, "open", path)
}

// WithLaterFailures returns d with the failures that followed it in its
// details, as "also": [{code, message}, …], after the details it has (d
// is a run-time error's diagnostic, whose details are DetailsJSON, or a
// CLI one without details).
func WithLaterFailures(d *diag.Diagnostic, later []*diag.Diagnostic) *diag.Diagnostic {
	var b strings.Builder
	b.WriteByte('[')
	for i, l := range later {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.JSON(diag.FormCLI))
	}
	b.WriteByte(']')
	c := *d
	if details := d.DetailsJSON; details == "" || details == "{}" {
		c.DetailsJSON = `{"also":` + b.String() + `}`
	} else {
		c.DetailsJSON = strings.TrimSuffix(details, "}") + `,"also":` + b.String() + `}`
	}
	return &c
}
