package main

// Program inputs on the command line (spec/cli.md §4.3): --input-file,
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

// inputDiag is an E_INPUT found before the program is consulted (a flag's
// text); name is the input concerned, or "".
func inputDiag(name, reason, msg, hint string) *diag.Diagnostic {
	d := &diag.Diagnostic{Code: diag.EInput, Message: msg, Hint: hint}
	det := value.NewRecord(2)
	det.Set("input", value.Str(name))
	det.Set("reason", value.Str(reason))
	d.DetailsJSON = value.JSON(value.RecordOf(det))
	return d
}

// inputObject parses text as a JSON object of inputs (what says where it
// came from: "--input", "--input-file in.json", "input") and stores its
// members into into, replacing earlier values of the same keys.
func inputObject(text, what string, into map[string]any) *diag.Diagnostic {
	v, err := value.ParseJSON(text)
	if err != nil {
		return inputDiag("", "json", what+" is not valid JSON: "+err.Error(),
			"Give the inputs as one JSON object, for example --input '{\"repo\": \".\", \"limit\": 10}' (single quotes keep the shell out of it).")
	}
	if v.Kind() != value.RecordKind {
		return inputDiag("", "json", what+" must be a JSON object, got "+v.TypeName()+".",
			"Give the inputs as one JSON object of name: value members, for example {\"repo\": \".\"}.")
	}
	r := v.AsRecord()
	for i := 0; i < r.Len(); i++ {
		into[r.Key(i)] = r.At(i)
	}
	return nil
}

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
			return nil, inputDiag("", "file", "Input file '"+f+"' is larger than "+strconv.Itoa(maxInputFileBytes)+" bytes.", "Pass a path as an input and read large data at run time (fs.read) instead.")
		}
		if err != nil {
			return nil, inputDiag("", "file", "Error reading input file: "+readErrorText(err, f), "Check the path given to --input-file (relative paths start at the current directory).")
		}
		if d := inputObject(value.DecodeBytes(b), "--input-file "+f, in); d != nil {
			return nil, d
		}
	}
	for _, o := range objs {
		if strings.TrimSpace(o) == "-" {
			return nil, stdinRefused("--input")
		}
		if d := inputObject(o, "--input", in); d != nil {
			return nil, d
		}
	}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, inputDiag(k, "arg", "--arg '"+a+"' must be key=value.", "Give one input per --arg as name=value, for example --arg limit=10.")
		}
		in[k] = runtime.InputText(v)
	}
	return in, nil
}

// setInputs puts the command line's inputs into opts, with the policy's
// exec mask for the trace; it reports false after printing an E_INPUT.
func (c *cli) setInputs(opts *runtime.RunOptions, cfg tools.Config, pretty bool) bool {
	in, d := c.commandInputs()
	if d != nil {
		c.printOne(d, diag.FormRuntime, pretty, "")
		return false
	}
	opts.Input = in
	if cfg.Exec != nil {
		opts.InputMask = cfg.Exec.Mask
	}
	return true
}

func stdinRefused(flag string) *diag.Diagnostic {
	return inputDiag("", "stdin", flag+" - is not supported: standard input is where a0 run reads a program given as -.",
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
