package tools

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/jscompat"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// resolve makes p absolute against the call's working directory and
// normalises it (lexically: `..` removes the component before it).
func resolve(c *runtime.Call, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(absWorkDir(c.WorkDir), p)
	}
	return filepath.Clean(p)
}

func toolErr(err error, op, path string) error {
	return errors.New(jscompat.NodeErrorText(err, op, path))
}

// FSRead is the fs.read tool. Its zero value reaches no file; [New]
// builds it with a Config.
type FSRead struct{ cfg *Config }

// Name implements runtime.Tool.
func (FSRead) Name() string { return "fs.read" }

// Capability implements runtime.Tool.
func (FSRead) Capability() string { return "fs.read" }

// Mode implements runtime.Tool.
func (FSRead) Mode() runtime.Mode { return runtime.ModeRead }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (FSRead) AwaitedOnStop() bool { return true }

// Params implements runtime.Tool.
func (FSRead) Params() []runtime.Param {
	return []runtime.Param{
		{Name: "path", Type: runtime.TypeString, Required: true, Doc: "file to read, relative to the working directory"},
		{Name: "encoding", Type: runtime.TypeString, Doc: `"utf8" (default) decodes text; any other value returns base64`},
	}
}

// Call implements runtime.Tool. The file is opened beneath a read root
// (spec/security.md): a symbolic link that leads out of the roots is
// refused with E_CAP_DENIED. It is opened without blocking (O_NONBLOCK)
// and looked at before it is read: what is not a regular file is refused
// unless fs.readSpecial allows it, and a file larger than the size limit
// is refused before a byte is read. The read itself stops at the limit
// (a file that grows while it is read) and at cancellation.
func (t FSRead) Call(c *runtime.Call) (value.Value, error) {
	p := resolve(c, c.Args.GetOrNull("path").AsString())
	if err := nulPath(p); err != nil {
		return value.Value{}, err
	}
	roots := t.cfg.rootsFor(c, "fs.read")
	f, err := openBeneath(roots, p, readFlags)
	if err != nil {
		if r := asRefusal(c, "fs.read", p, roots, err); isRefusal(r) {
			return value.Value{}, r
		}
		if jscompat.IsErrno(err, syscall.EISDIR) {
			return value.Value{}, toolErr(err, "read", "")
		}
		return value.Value{}, toolErr(err, "open", p)
	}
	defer f.Close()
	b, err := t.readBounded(c, f, p)
	if err != nil {
		return value.Value{}, err
	}
	b = maskRead(c, t.cfg, b)
	enc, has := c.Args.Get("encoding")
	if !has || enc.IsNull() || enc.AsString() == "utf8" {
		return value.Str(value.DecodeBytes(b)), nil
	}
	return value.Str(base64.StdEncoding.EncodeToString(b)), nil
}

// readLimit is fs.read's size limit for a call: the configured one (or
// the default), never above the run's memory ceiling.
func (t FSRead) readLimit(c *runtime.Call) int64 {
	limit := int64(DefaultMaxReadBytes)
	if t.cfg != nil && t.cfg.FS.MaxReadBytes > 0 {
		limit = t.cfg.FS.MaxReadBytes
	}
	if m := c.MemoryLimit(); m > 0 && m < limit {
		limit = m
	}
	return limit
}

// readBounded reads the open file f (path p) under the size limit.
func (t FSRead) readBounded(c *runtime.Call, f *os.File, p string) ([]byte, error) {
	limit := t.readLimit(c)
	st, err := f.Stat()
	if err != nil {
		return nil, toolErr(err, "read", "")
	}
	mode := st.Mode()
	switch {
	case mode.IsDir():
		return nil, toolErr(syscall.EISDIR, "read", "")
	case mode.IsRegular():
		if st.Size() > limit {
			return nil, tooLarge(c, p, st.Size(), limit)
		}
	case t.cfg == nil || !t.cfg.FS.ReadSpecial:
		return nil, notRegular(c, p, fileKind(mode))
	}
	hint := int64(64 << 10)
	if mode.IsRegular() {
		hint = st.Size() + 1
	} else if c.Ctx != nil {
		// The read stops at cancellation (the run's end or its time
		// budget): a FIFO or a device that has nothing to give never
		// holds it. (A regular file's read does not wait.)
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-c.Ctx.Done():
				f.SetReadDeadline(time.Unix(1, 0))
			case <-stop:
			}
		}()
	}
	b, err := readUpTo(f, limit+1, hint)
	if int64(len(b)) > limit {
		return nil, tooLarge(c, p, int64(len(b)), limit)
	}
	if err != nil {
		if c.Ctx.Err() != nil {
			return nil, runtime.ErrTimeBudget
		}
		return nil, toolErr(err, "read", "")
	}
	return b, nil
}

// readUpTo reads f until its end or n bytes, whichever is first; size
// is the expected length (the buffer's first capacity).
func readUpTo(f *os.File, n, size int64) ([]byte, error) {
	if size > n {
		size = n
	}
	if size < 512 {
		size = 512
	}
	b := make([]byte, 0, size)
	for int64(len(b)) < n {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		want := int64(cap(b) - len(b))
		if rest := n - int64(len(b)); rest < want {
			want = rest
		}
		k, err := f.Read(b[len(b) : len(b)+int(want)])
		b = b[:len(b)+k]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// fileKind names the type of a file that is not regular.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}

// tooLarge is the E_TOOL refusal of a file over fs.read's size limit.
func tooLarge(c *runtime.Call, p string, size, limit int64) error {
	d := value.NewRecord(5)
	d.Set("tool", value.Str(c.Tool))
	d.Set("reason", value.Str("too_large"))
	d.Set("path", value.Str(p))
	d.Set("size", value.Int(int(size)))
	d.Set("limit", value.Int(int(limit)))
	what := strconv.FormatInt(size, 10) + " bytes"
	if size == limit+1 {
		what = "more than " + strconv.FormatInt(limit, 10) + " bytes"
	}
	msg := "Tool '" + c.Tool + "' failed: '" + p + "' is " + what + ", over the read limit of " + strconv.FormatInt(limit, 10) + " bytes"
	hint := "Raise \"fs.maxReadBytes\" in the policy (the limit never exceeds the run's memory ceiling), or read a smaller file."
	return &runtime.Error{Diagnostic: *diag.New(diag.ETool, c.Span, msg, hint), Details: value.RecordOf(d)}
}

// notRegular is the E_TOOL refusal of a file that is not regular.
func notRegular(c *runtime.Call, p, kind string) error {
	d := value.NewRecord(4)
	d.Set("tool", value.Str(c.Tool))
	d.Set("reason", value.Str("not_regular"))
	d.Set("path", value.Str(p))
	msg := "Tool '" + c.Tool + "' failed: '" + p + "' is " + kind + ", not a regular file"
	hint := "fs.read reads regular files only; set \"fs.readSpecial\": true in the policy to read FIFOs, devices and sockets (bounded by fs.maxReadBytes and the time budget)."
	return &runtime.Error{Diagnostic: *diag.New(diag.ETool, c.Span, msg, hint), Details: value.RecordOf(d)}
}

// FSWrite is the fs.write tool. Its zero value reaches no file; [New]
// builds it with a Config.
type FSWrite struct{ cfg *Config }

// Name implements runtime.Tool.
func (FSWrite) Name() string { return "fs.write" }

// Capability implements runtime.Tool.
func (FSWrite) Capability() string { return "fs.write" }

// Mode implements runtime.Tool.
func (FSWrite) Mode() runtime.Mode { return runtime.ModeEffect }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (FSWrite) AwaitedOnStop() bool { return true }

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
// the same directory and renamed into place, both relative to the opened
// directory beneath a write root, so a failed or refused write leaves
// nothing half-written and nothing outside the roots; the bytes are
// charged to maxBytesWritten before anything is written or created.
func (t FSWrite) Call(c *runtime.Call) (value.Value, error) {
	p := resolve(c, c.Args.GetOrNull("path").AsString())
	roots := t.cfg.rootsFor(c, "fs.write")
	if _, _, ok := findRoot(roots, p); !ok {
		return value.Value{}, fsRefusal(c, "fs.write", p, "outside_root", "", roots.paths)
	}
	data, has := c.Args.Get("data")
	// Node makes the parent folder first (a NUL there fails mkdir), then
	// checks the data, then the file's path.
	if err := nulPath(filepath.Dir(p)); err != nil {
		return value.Value{}, err
	}
	if err := nulPath(p); has && err != nil {
		return value.Value{}, err
	}
	if !has {
		//lint:ignore ST1005 this is Node's wording, which the reference reports verbatim
		return value.Value{}, errors.New(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received undefined`)
	}
	payload := Payload(data, c.Args.GetOrNull("format").AsString())
	isDir, err := lookupDir(roots, p)
	if err != nil {
		return value.Value{}, asRefusal(c, "fs.write", p, roots, err)
	}
	if isDir {
		return value.Value{}, toolErr(syscall.EISDIR, "open", p)
	}
	n := int64(len(payload))
	if err := c.ReserveWrite(n); err != nil {
		return value.Value{}, err
	}
	if err := writeBeneath(c.Ctx, roots, t.cfg.policyFiles(), p, payload); err != nil {
		c.ReleaseWrite(n)
		return value.Value{}, asRefusal(c, "fs.write", p, roots, err)
	}
	sum := sha256.Sum256(payload)
	r := value.NewRecord(4)
	r.Set("kind", value.Str("file"))
	r.Set("path", value.Str(p))
	r.Set("bytes", value.Int(len(payload)))
	r.Set("sha256", value.Str(hex.EncodeToString(sum[:])))
	return value.RecordOf(r), nil
}

// FSList is the fs.list tool. Its zero value reaches no file; [New]
// builds it with a Config.
type FSList struct{ cfg *Config }

// Name implements runtime.Tool.
func (FSList) Name() string { return "fs.list" }

// Capability implements runtime.Tool.
func (FSList) Capability() string { return "fs.read" }

// Mode implements runtime.Tool.
func (FSList) Mode() runtime.Mode { return runtime.ModeRead }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (FSList) AwaitedOnStop() bool { return true }

// Params implements runtime.Tool.
func (FSList) Params() []runtime.Param {
	return []runtime.Param{{Name: "path", Type: runtime.TypeString, Required: true, Doc: "directory to list"}}
}

// Call implements runtime.Tool.
func (t FSList) Call(c *runtime.Call) (value.Value, error) {
	p := resolve(c, c.Args.GetOrNull("path").AsString())
	if err := nulPath(p); err != nil {
		return value.Value{}, err
	}
	roots := t.cfg.rootsFor(c, "fs.read")
	f, err := openBeneath(roots, p, listFlags)
	if err != nil {
		if r := asRefusal(c, "fs.read", p, roots, err); isRefusal(r) {
			return value.Value{}, r
		}
		return value.Value{}, toolErr(err, "scandir", p)
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return value.Value{}, toolErr(err, "scandir", p)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
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

// FSExists is the fs.exists tool. Its zero value reaches no file; [New]
// builds it with a Config.
type FSExists struct{ cfg *Config }

// Name implements runtime.Tool.
func (FSExists) Name() string { return "fs.exists" }

// Capability implements runtime.Tool.
func (FSExists) Capability() string { return "fs.read" }

// Mode implements runtime.Tool.
func (FSExists) Mode() runtime.Mode { return runtime.ModeRead }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (FSExists) AwaitedOnStop() bool { return true }

// Params implements runtime.Tool.
func (FSExists) Params() []runtime.Param {
	return []runtime.Param{{Name: "path", Type: runtime.TypeString, Required: true, Doc: "path to test (symlinks are followed)"}}
}

// Call implements runtime.Tool. A path a symbolic link leads out of the
// roots is refused, not reported missing.
func (t FSExists) Call(c *runtime.Call) (value.Value, error) {
	p := resolve(c, c.Args.GetOrNull("path").AsString())
	roots := t.cfg.rootsFor(c, "fs.read")
	err := statBeneath(roots, p)
	if err != nil {
		if r := asRefusal(c, "fs.read", p, roots, err); isRefusal(r) {
			return value.Value{}, r
		}
	}
	return value.BoolOf(err == nil), nil
}

// writeErr is the error of a failed write of p: a path whose directories
// cannot be made is Node's mkdir error (ENOTDIR open when the direct
// parent is a file).
func writeErr(err error, p string, parentIsFile bool) error {
	dir := filepath.Dir(p)
	if jscompat.IsErrno(err, syscall.ENOTDIR) || jscompat.IsErrno(err, syscall.EEXIST) {
		if parentIsFile {
			return toolErr(syscall.ENOTDIR, "open", p)
		}
		return toolErr(syscall.ENOTDIR, "mkdir", dir)
	}
	return toolErr(err, "mkdir", dir)
}

// nulPath is Node's error for a path holding a NUL character, which every
// fs function throws before touching the file system; nil otherwise.
func nulPath(p string) error {
	if strings.IndexByte(p, 0) < 0 {
		return nil
	}
	return errors.New(jscompat.NullBytePathText(p))
}
