package runtime_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/tools"
)

// The script tests in testdata/eval each hold one case:
//
//	-- prog.a0 --      the program (file label "t.a0")
//	-- want --         compact JSON of the result, or the error as
//	                   "CODE message @line:col-line:col" (no "@…" when the
//	                   error has no span); static diagnostics one per line
//	-- want-regexp --  (instead of want) a regular expression the rendered
//	                   outcome must match in full
//	-- exit --         expected exit code (default: 0 for a value, 2 for
//	                   static diagnostics, 5 for E_ASSERT, 3 for
//	                   E_CAP_DENIED, 4 for other runtime errors)
//	-- details --      compact JSON of the error's details ("none" when the
//	                   error must have none)
//	-- evidence --     compact JSON of the run's evidence list
//	-- skip --         a reason to skip the case (used for "BUG: …")
//	-- <other> --      any other section is written into the run's working
//	                   directory under that name before the run
//
// Every run gets a fresh temporary working directory, all standard tools and
// every capability.

func newEnv(t testing.TB, dir string) *runtime.Env {
	t.Helper()
	env, err := runtime.NewEnv(runtime.WithTools(tools.New(tools.Config{FS: tools.FSScope{Read: tools.AllFiles, Write: tools.AllFiles}, HTTP: tools.HTTPScope{AllowPrivate: true}})...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func spanText(sp diag.Span) string {
	return fmt.Sprintf("@%d:%d-%d:%d", sp.Start.Line, sp.Start.Col, sp.End.Line, sp.End.Col)
}

func renderErr(err error) string {
	e, ok := err.(*runtime.Error)
	if !ok {
		return "GO-ERROR " + err.Error()
	}
	s := string(e.Code) + " " + e.Message
	if e.Span != nil {
		s += " " + spanText(*e.Span)
	}
	return s
}

func renderDiags(ds diag.List) string {
	var lines []string
	for _, d := range ds {
		s := string(d.Code) + " " + d.Message
		if d.Span != nil {
			s += " " + spanText(*d.Span)
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n")
}

type outcome struct {
	text     string // rendered value or error
	exit     int
	details  string // "none" when the error has no details
	evidence string
	static   bool
	isErr    bool
	err      *runtime.Error
	res      *runtime.Result
}

func runProgram(t testing.TB, dir, src string, opts runtime.RunOptions) outcome {
	t.Helper()
	env := newEnv(t, dir)
	prog, ds := env.Compile("t.a0", src)
	if len(ds) > 0 {
		return outcome{text: renderDiags(ds), exit: diag.ExitStatic, static: true, isErr: true}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := prog.Run(ctx, opts)
	o := outcome{exit: runtime.ExitCode(res, err), res: res}
	if res != nil {
		o.evidence = value.JSON(value.ListOf(append([]value.Value{}, res.Evidence...)))
	}
	if err != nil {
		o.isErr = true
		o.text = renderErr(err)
		o.details = "none"
		if e, ok := err.(*runtime.Error); ok {
			o.err = e
			if e.Details.Kind() == value.RecordKind {
				o.details = value.JSON(e.Details)
			}
		}
		return o
	}
	o.text = value.JSON(res.Value)
	return o
}

func defaultExit(want string) int {
	switch {
	case strings.HasPrefix(want, "E_ASSERT "):
		return 5
	case strings.HasPrefix(want, "E_CAP_DENIED "):
		return 3
	case strings.HasPrefix(want, "E_LEX "), strings.HasPrefix(want, "E_PARSE "), strings.HasPrefix(want, "E_AST "):
		return 2
	case strings.HasPrefix(want, "E_"):
		if strings.Contains(want, "\n") {
			return 2
		}
		return 4
	}
	return 0
}

// archive is a txtar archive: a comment and named files, each introduced by
// a line "-- NAME --". (github.com/rogpeppe/go-internal/txtar needs
// golang.org/x/tools, which is not a dependency of this module.)
type archive struct {
	Comment []byte
	Files   []archiveFile
}

type archiveFile struct {
	Name string
	Data []byte
}

func parseArchive(data []byte) *archive {
	a := &archive{}
	cur := &a.Comment
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		t := strings.TrimRight(string(line), "\r\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			a.Files = append(a.Files, archiveFile{Name: strings.TrimSpace(t[3 : len(t)-3])})
			cur = &a.Files[len(a.Files)-1].Data
			continue
		}
		*cur = append(*cur, line...)
	}
	return a
}

func parseArchiveFile(name string) (*archive, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return parseArchive(b), nil
}

func section(a *archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return strings.TrimRight(string(f.Data), "\n"), true
		}
	}
	return "", false
}

var knownSections = map[string]bool{"prog.a0": true, "want": true, "want-regexp": true, "exit": true, "details": true, "evidence": true, "skip": true}

func TestEvalScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "eval", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no test cases in testdata/eval")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, err := parseArchiveFile(file)
			if err != nil {
				t.Fatal(err)
			}
			src, ok := section(a, "prog.a0")
			if !ok {
				t.Fatal("missing prog.a0 section")
			}
			if reason, ok := section(a, "skip"); ok {
				t.Skip(reason)
			}
			dir := t.TempDir()
			for _, f := range a.Files {
				if knownSections[f.Name] {
					continue
				}
				p := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := runProgram(t, dir, src+"\n", runtime.RunOptions{})
			want, hasWant := section(a, "want")
			re, hasRe := section(a, "want-regexp")
			switch {
			case hasWant:
				if o.text != want {
					t.Errorf("program:\n%s\ngot:  %s\nwant: %s", src, o.text, want)
				}
			case hasRe:
				if !regexp.MustCompile(`\A(?:` + re + `)\z`).MatchString(o.text) {
					t.Errorf("program:\n%s\ngot:  %s\nwant match: %s", src, o.text, re)
				}
			default:
				t.Fatal("missing want or want-regexp section")
			}
			wantExit := defaultExit(want)
			if hasRe {
				wantExit = defaultExit(re)
			}
			if s, ok := section(a, "exit"); ok {
				wantExit, err = strconv.Atoi(strings.TrimSpace(s))
				if err != nil {
					t.Fatal(err)
				}
			}
			if o.exit != wantExit {
				t.Errorf("exit code %d, want %d (outcome %s)", o.exit, wantExit, o.text)
			}
			if d, ok := section(a, "details"); ok && o.details != d {
				t.Errorf("details:\ngot:  %s\nwant: %s", o.details, d)
			}
			if ev, ok := section(a, "evidence"); ok && o.evidence != ev {
				t.Errorf("evidence:\ngot:  %s\nwant: %s", o.evidence, ev)
			}
		})
	}
}
