package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/format"
	"github.com/a0lang/a0/lang/parser"
)

// TestExamplesRun runs every program in examples/ under the example policy
// (or its own, examples/NAME.json)
// and expects exit code 0; its formatted text (comments kept) must print
// the same.
func TestExamplesRun(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.a0")
	if len(files) == 0 {
		t.Fatal("no examples found")
	}
	pol, err := os.ReadFile("../../examples/policy.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		abs, _ := filepath.Abs(f)
		t.Run(filepath.Base(f), func(t *testing.T) {
			dir := t.TempDir()
			// An example with a policy of its own (NAME.json) runs under it.
			pol := pol
			if own, err := os.ReadFile(strings.TrimSuffix(abs, ".a0") + ".json"); err == nil {
				pol = own
			}
			t.Setenv("GH_TOKEN", "demo-token-not-real") // examples/secrets.a0's secret
			if err := os.WriteFile(filepath.Join(dir, ".a0policy.json"), pol, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			t.Setenv("HOME", dir)
			// A run's time budget counts from the process's start: in
			// this long-lived test process, from the example's.
			defer func(start time.Time) { processStart = start }(processStart)
			processStart = time.Now()
			var out, errb bytes.Buffer
			if code := realMain([]string{"run", abs}, strings.NewReader(""), &out, &errb); code != 0 {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errb.String())
			}
			src, err := os.ReadFile(abs)
			if err != nil {
				t.Fatal(err)
			}
			p, ds := parser.Parse(abs, string(src), parser.Options{})
			if len(ds) > 0 {
				t.Fatal(ds.JSONArray())
			}
			formatted := filepath.Join(dir, filepath.Base(f))
			if err := os.WriteFile(formatted, []byte(format.Program(p)), 0o644); err != nil {
				t.Fatal(err)
			}
			var out2 bytes.Buffer
			errb.Reset()
			if code := realMain([]string{"run", formatted}, strings.NewReader(""), &out2, &errb); code != 0 || out2.String() != out.String() {
				t.Fatalf("formatted: exit %d\nstdout: %s\nwant: %s\nstderr: %s", code, out2.String(), out.String(), errb.String())
			}
		})
	}
}

// TestFormatIdempotent checks that a0 fmt is stable on every A0 file in
// examples/ and in the testdata of every package: formatting twice gives
// the same text, formatted text parses again, and every comment is kept.
func TestFormatIdempotent(t *testing.T) {
	var files []string
	filepath.WalkDir("../..", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".a0") {
			files = append(files, p)
		}
		return nil
	})
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, ds := parser.Parse(f, string(b), parser.Options{})
		if len(ds) > 0 {
			continue // inputs that are meant not to parse
		}
		once := format.Program(p)
		p2, ds := parser.Parse(f, once, parser.Options{})
		if len(ds) > 0 {
			t.Errorf("%s: formatted text does not parse: %s\n%s", f, ds.JSONArray(), once)
			continue
		}
		if twice := format.Program(p2); twice != once {
			t.Errorf("%s: fmt is not idempotent:\n--- once\n%s--- twice\n%s", f, once, twice)
		}
		if len(p2.Comments) != len(p.Comments) {
			t.Errorf("%s: %d comments in, %d out", f, len(p.Comments), len(p2.Comments))
		}
		for i, c := range p.Comments {
			if i < len(p2.Comments) && p2.Comments[i].Text != c.Text {
				t.Errorf("%s: comment %q became %q", f, c.Text, p2.Comments[i].Text)
			}
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d files checked", checked)
	}
}

// TestExamplesFormatted checks that every program under examples/ is in
// the canonical layout: `a0 fmt --check examples` is what a new user runs
// on them first, and it must list nothing.
func TestExamplesFormatted(t *testing.T) {
	var out, errb bytes.Buffer
	code := realMain([]string{"fmt", "--check", "../../examples"}, strings.NewReader(""), &out, &errb)
	if code != 0 || out.Len() != 0 || errb.Len() != 0 {
		t.Fatalf("a0 fmt --check examples: exit %d\nnot formatted (a0 fmt --write examples fixes them):\n%s%s", code, out.String(), errb.String())
	}
}
