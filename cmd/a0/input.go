package main

// Program inputs on the command line (spec/cli.md §4.4): --input-file,
// --input and --arg build RunOptions.Input; a0_run's "input" and the
// REPL's :input use inputObject too.

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/tools"
)

// maxInputFileBytes bounds an --input-file read: inputs are bounded by the
// memory limit anyway, so a larger file could never be accepted.
const maxInputFileBytes = runtime.DefaultMemoryLimit

// commandInputs builds the run's inputs from the command line: every
// --input-file in order, then every --input in order, then every --arg in
// order; a later value of a key replaces an earlier one. It returns nil
// when no input flag was given.
func (c *cli) commandInputs() (map[string]any, *diag.Diagnostic) {
	files, objs, args := c.inv.All[optInputFile], c.inv.All[optInput], c.inv.All[optArg]
	if len(files)+len(objs)+len(args) == 0 {
		return nil, nil
	}
	in := map[string]any{}
	for _, f := range files {
		if f == "-" {
			return nil, stdinRefused("--input-file")
		}
		b, err := readInputFile(f)
		if err == errInputFileTooLarge {
			return nil, runtime.InputDiag("", "file", "Input file '"+f+"' is larger than "+strconv.Itoa(maxInputFileBytes)+" bytes.", "Pass a path as an input and read large data at run time (fs.read) instead.")
		}
		if err != nil {
			hint := runtime.PathHint(err, f, ".json")
			if hint == "" || strings.HasPrefix(hint, "Check the path") {
				hint = "Check the path given to --input-file (relative paths start at the current directory)."
			}
			return nil, runtime.InputDiag("", "file", "Error reading input file: "+runtime.ReadErrorText(err, f), hint)
		}
		if d := runtime.InputObject(value.DecodeBytes(b), "--input-file "+f, in); d != nil {
			return nil, d
		}
	}
	for _, o := range objs {
		if strings.TrimSpace(o) == "-" {
			return nil, stdinRefused("--input")
		}
		if d := runtime.InputObject(o, "--input", in); d != nil {
			return nil, d
		}
	}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, runtime.InputDiag(k, "arg", "--arg '"+a+"' must be key=value.", "Give one input per --arg as name=value, for example --arg limit=10.")
		}
		in[k] = runtime.InputText(v)
	}
	return in, nil
}

// setInputs puts the command line's inputs into opts, with the policy's
// exec mask for the trace, and checks them against prog's header now, so
// that a mistake shows before a person at a terminal is asked for
// capabilities. It reports false after printing an E_INPUT.
func (c *cli) setInputs(opts *runtime.RunOptions, prog *runtime.Program, cfg tools.Config, pretty bool, src string) bool {
	in, d := c.commandInputs()
	if d == nil {
		opts.Input = in
		if cfg.Exec != nil {
			opts.InputMask = cfg.Exec.Mask
		}
		if err := prog.CheckInput(*opts); err != nil {
			e, _ := runtime.ErrorOf(err)
			d = e.Report()
		}
	}
	if d != nil {
		c.printOne(d, diag.FormRuntime, pretty, src)
		return false
	}
	return true
}

func stdinRefused(flag string) *diag.Diagnostic {
	return runtime.InputDiag("", "stdin", flag+" - is not supported: standard input is where a0 run reads a program given as -.",
		"Write the inputs to a file and pass --input-file <path>, or give them inline with --input '{...}'.")
}

var errInputFileTooLarge = errors.New("EFBIG: input file too large")

// readInputFile reads an --input-file, at most maxInputFileBytes.
func readInputFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxInputFileBytes+1))
	if err == nil && len(b) > maxInputFileBytes {
		return nil, errInputFileTooLarge
	}
	return b, err
}

// bindInput is the REPL's :input: with a record, bind `input` to it for
// the session; without, show the record bound.
func (r *repl) bindInput(arg string) {
	if arg == "" {
		for _, b := range r.sess.Vars() {
			if b.Name == "input" {
				r.note("input = %s", value.JSON(b.Value))
				return
			}
		}
		r.note("no input bound (:input { name: value, ... } binds one)")
		return
	}
	v, d := replInputValue(arg)
	if d == nil {
		if err := r.sess.Bind("input", v); err != nil {
			e, _ := runtime.ErrorOf(err)
			d = e.Report()
		}
	}
	if d != nil {
		r.fail(diag.ExitStatic)
		r.printDiag(d, diag.FormRuntime, "")
		return
	}
	r.note("input bound: %s", strings.Join(v.AsRecord().Keys(), ", "))
}

// replInputValue parses the text of the REPL's `:input { … }`: a JSON
// object, or an A0 record written with literals only (runtime.ParseData).
func replInputValue(text string) (value.Value, *diag.Diagnostic) {
	v, why := runtime.ParseData(text)
	if why != "" {
		return value.Value{}, runtime.InputDiag("", "json", ":input takes a record of data: "+why,
			"Write the inputs as a JSON object or an A0 record of literals on one line, for example :input { repo: \".\", limit: 10 }.")
	}
	return v, nil
}
