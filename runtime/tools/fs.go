package tools

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"syscall"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// resolve makes p absolute against the call's working directory and
// normalises it.
func resolve(c *runtime.Call, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.WorkDir, p)
	}
	return filepath.Clean(p)
}

func toolErr(err error, op, path string) error {
	return errors.New(runtime.NodeErrorText(err, op, path))
}

// FSRead is the fs.read tool.
type FSRead struct{}

// Name implements runtime.Tool.
func (FSRead) Name() string { return "fs.read" }

// Capability implements runtime.Tool.
func (FSRead) Capability() string { return "fs.read" }

// Mode implements runtime.Tool.
func (FSRead) Mode() runtime.Mode { return runtime.ModeRead }

// Params implements runtime.Tool.
func (FSRead) Params() []runtime.Param {
	return []runtime.Param{
		{Name: "path", Type: runtime.TypeString, Required: true, Doc: "file to read, relative to the working directory"},
		{Name: "encoding", Type: runtime.TypeString, Doc: `"utf8" (default) decodes text; any other value returns base64`},
	}
}

// Call implements runtime.Tool.
func (FSRead) Call(c *runtime.Call) (value.Value, error) {
	p := resolve(c, c.Args.GetOrNull("path").AsString())
	if err := checkScope(c, "fs.read", p); err != nil {
		return value.Value{}, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		if runtime.IsErrno(err, syscall.EISDIR) {
			return value.Value{}, toolErr(err, "read", "")
		}
		return value.Value{}, toolErr(err, "open", p)
	}
	enc, has := c.Args.Get("encoding")
	if !has || enc.IsNull() || enc.AsString() == "utf8" {
		return value.Str(value.DecodeBytes(b)), nil
	}
	return value.Str(base64.StdEncoding.EncodeToString(b)), nil
}

// FSWrite is the fs.write tool.
type FSWrite struct{}

// Name implements runtime.Tool.
func (FSWrite) Name() string { return "fs.write" }

// Capability implements runtime.Tool.
func (FSWrite) Capability() string { return "fs.write" }

// Mode implements runtime.Tool.
func (FSWrite) Mode() runtime.Mode { return runtime.ModeEffect }

// Params implements runtime.Tool.
func (FSWrite) Params() []runtime.Param {
	return []runtime.Param{
		{Name: "path", Type: runtime.TypeString, Required: true, Doc: "file to write; parent directories are created"},
		{Name: "data", Type: runtime.TypeAny, Doc: "a string is written as is; other values as JSON"},
		{Name: "format", Type: runtime.TypeString, Doc: `"json" writes data as indented JSON`},
	}
}

// Payload returns the bytes fs.write writes for data and format.
func Payload(data value.Value, format string) []byte {
	switch {
	case format == "json":
		return []byte(value.JSONIndent(data))
	case data.Kind() == value.String:
		return []byte(data.AsString())
	}
	return []byte(value.JSON(data))
}

// Call implements runtime.Tool. The file is written to a temporary file in
// the same directory and renamed into place, so a failed or refused write
// leaves nothing half-written; the bytes are charged to maxBytesWritten
// before anything is written.
func (FSWrite) Call(c *runtime.Call) (value.Value, error) {
	p := resolve(c, c.Args.GetOrNull("path").AsString())
	if err := checkScope(c, "fs.write", p); err != nil {
		return value.Value{}, err
	}
	data, has := c.Args.Get("data")
	if !has {
		//lint:ignore ST1005 this is Node's wording, which the reference reports verbatim
		return value.Value{}, errors.New(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received undefined`)
	}
	payload := Payload(data, c.Args.GetOrNull("format").AsString())
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return value.Value{}, toolErr(syscall.EISDIR, "open", p)
	}
	n := int64(len(payload))
	if err := c.ReserveWrite(n); err != nil {
		return value.Value{}, err
	}
	if err := writeFile(p, payload); err != nil {
		c.ReleaseWrite(n)
		return value.Value{}, err
	}
	sum := sha256.Sum256(payload)
	r := value.NewRecord(4)
	r.Set("kind", value.Str("file"))
	r.Set("path", value.Str(p))
	r.Set("bytes", value.Int(len(payload)))
	r.Set("sha256", value.Str(hex.EncodeToString(sum[:])))
	return value.RecordOf(r), nil
}

// writeFile creates the parent directories of p and writes b atomically.
func writeFile(p string, b []byte) error {
	dir := filepath.Dir(p)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		// The direct parent is a file.
		return toolErr(syscall.ENOTDIR, "open", p)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		if runtime.IsErrno(err, syscall.ENOTDIR) || runtime.IsErrno(err, syscall.EEXIST) {
			return toolErr(syscall.ENOTDIR, "mkdir", dir)
		}
		return toolErr(err, "mkdir", dir)
	}
	return atomicWrite(p, b)
}

// atomicWrite writes b to path through a temporary file and a rename. The
// target's permissions are kept when it exists; a symlink target is
// written through.
func atomicWrite(path string, b []byte) error {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	mode := os.FileMode(0o666)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".a0tmp-*")
	if err != nil {
		return toolErr(err, "open", path)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(b); err != nil {
		return toolErr(err, "write", "")
	}
	if err := tmp.Chmod(mode &^ umask()); err != nil {
		return toolErr(err, "open", path)
	}
	if err := tmp.Close(); err != nil {
		return toolErr(err, "write", "")
	}
	if err := os.Rename(name, target); err != nil {
		return toolErr(err, "open", path)
	}
	ok = true
	return nil
}

// FSList is the fs.list tool.
type FSList struct{}

// Name implements runtime.Tool.
func (FSList) Name() string { return "fs.list" }

// Capability implements runtime.Tool.
func (FSList) Capability() string { return "fs.read" }

// Mode implements runtime.Tool.
func (FSList) Mode() runtime.Mode { return runtime.ModeRead }

// Params implements runtime.Tool.
func (FSList) Params() []runtime.Param {
	return []runtime.Param{{Name: "path", Type: runtime.TypeString, Required: true, Doc: "directory to list"}}
}

// Call implements runtime.Tool.
func (FSList) Call(c *runtime.Call) (value.Value, error) {
	p := resolve(c, c.Args.GetOrNull("path").AsString())
	if err := checkScope(c, "fs.read", p); err != nil {
		return value.Value{}, err
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return value.Value{}, toolErr(err, "scandir", p)
	}
	out := make([]value.Value, 0, len(ents))
	for _, e := range ents {
		t := "other"
		switch {
		case e.Type().IsDir():
			t = "directory"
		case e.Type().IsRegular():
			t = "file"
		}
		r := value.NewRecord(2)
		r.Set("name", value.Str(e.Name()))
		r.Set("type", value.Str(t))
		out = append(out, value.RecordOf(r))
	}
	return value.ListOf(out), nil
}

// FSExists is the fs.exists tool.
type FSExists struct{}

// Name implements runtime.Tool.
func (FSExists) Name() string { return "fs.exists" }

// Capability implements runtime.Tool.
func (FSExists) Capability() string { return "fs.read" }

// Mode implements runtime.Tool.
func (FSExists) Mode() runtime.Mode { return runtime.ModeRead }

// Params implements runtime.Tool.
func (FSExists) Params() []runtime.Param {
	return []runtime.Param{{Name: "path", Type: runtime.TypeString, Required: true, Doc: "path to test (symlinks are followed)"}}
}

// Call implements runtime.Tool.
func (FSExists) Call(c *runtime.Call) (value.Value, error) {
	p := resolve(c, c.Args.GetOrNull("path").AsString())
	if err := checkScope(c, "fs.read", p); err != nil {
		return value.Value{}, err
	}
	_, err := os.Stat(p)
	return value.BoolOf(err == nil), nil
}
