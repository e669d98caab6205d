package main

import (
	"io"
	"os"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime/termout"
)

// useColor decides colour for one output stream: only on a terminal and
// never when NO_COLOR is set or TERM is dumb.
func useColor(w io.Writer) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	if os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// diagStyle returns the text style for w.
func diagStyle(w io.Writer) diag.Style {
	if !useColor(w) {
		return diag.Style{}
	}
	mk := func(attrs ...color.Attribute) func(string) string {
		c := color.New(attrs...)
		c.EnableColor()
		return func(s string) string { return c.Sprint(s) }
	}
	return diag.Style{
		Error: mk(color.FgRed, color.Bold),
		Bold:  mk(color.Bold),
		Dim:   mk(color.FgBlue),
		Caret: mk(color.FgRed, color.Bold),
		Hint:  mk(color.FgCyan, color.Bold),
	}
}

// printStatic prints lex/parse/validation diagnostics: a JSON array, or the
// pretty text form.
func (c *cli) printStatic(ds diag.List, pretty bool, src string) {
	if pretty {
		io.WriteString(c.stderr, ds.Text(func(string) string { return src }, diagStyle(c.stderr))+"\n")
		return
	}
	io.WriteString(c.stderr, ds.JSONArray()+"\n")
}

// printOne prints one diagnostic in the given JSON form or pretty.
func (c *cli) printOne(d *diag.Diagnostic, form diag.Form, pretty bool, src string) {
	form = hintForm(d, form)
	if pretty {
		io.WriteString(c.stderr, termout.SafeDiag(d).Text(src, diagStyle(c.stderr))+"\n")
		return
	}
	io.WriteString(c.stderr, termout.SafeJSON(d.JSON(form))+"\n")
}

// hintForm is the JSON form of d: the bare CLI form {code, message} keeps
// a hint (a policy file that is not a regular file or is too large, a
// file that is missing or a folder, says how to fix it) by becoming the
// runtime form, which has no span here.
func hintForm(d *diag.Diagnostic, form diag.Form) diag.Form {
	if form == diag.FormCLI && d.Hint != "" {
		return diag.FormRuntime
	}
	return form
}
