package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
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
		io.WriteString(c.stderr, safeDiag(d).Text(src, diagStyle(c.stderr))+"\n")
		return
	}
	io.WriteString(c.stderr, jsonTermSafe(d.JSON(form))+"\n")
}

// runError is a run's error as the *runtime.Error a0 reports, with the
// JSON form it is printed in (runtime.ErrorOf).
var runError = runtime.ErrorOf

// termSafe returns s with every character that could steer a terminal
// shown as a visible escape: the C0 controls (ESC, CR, BEL, …; the newline
// too unless keepNewline), DEL and the C1 controls as \xHH (C1 as \u00HH),
// the line and paragraph separators U+2028 and U+2029 and the bidi
// overrides and isolates (U+202A–U+202E, U+2066–U+2069) as \uHHHH, and
// bytes that are not UTF-8 as \xHH. Text an MCP server provides (tool
// names, descriptions, error messages) goes through it before a0 prints
// it, so a server cannot set the clipboard (OSC 52), rewrite the screen or
// reorder what is shown.
func termSafe(s string, keepNewline bool) string {
	return escapeRunes(s, func(r rune, n int) bool {
		return termUnsafe(r, n) && !(keepNewline && r == '\n')
	}, func(b *strings.Builder, r rune, raw string) {
		switch {
		case r == utf8.RuneError:
			fmt.Fprintf(b, `\x%02x`, raw[0])
		case r < 0x80:
			fmt.Fprintf(b, `\x%02x`, r)
		default:
			fmt.Fprintf(b, `\u%04x`, r)
		}
	})
}

// escapeRunes returns s with every rune for which unsafe holds written by
// escape instead (raw is the rune's bytes); s itself when none does.
func escapeRunes(s string, unsafe func(r rune, n int) bool, escape func(b *strings.Builder, r rune, raw string)) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafe(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafe(r, n) {
			escape(&b, r, s[i:i+n])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// termUnsafe reports whether rune r (of n bytes; RuneError of 1 byte is
// an invalid byte) is escaped by termSafe.
func termUnsafe(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// jsonTermSafe makes JSON text safe for a terminal: JSON already escapes
// the C0 controls, and the characters it leaves raw that termSafe escapes
// (DEL, C1, U+2028/2029, bidi controls) can only occur inside strings,
// where \uHHHH stands for them; the value is unchanged.
func jsonTermSafe(s string) string {
	return escapeRunes(s, func(r rune, n int) bool {
		return r >= 0x7f && termUnsafe(r, n) && !(r == utf8.RuneError && n == 1)
	}, func(b *strings.Builder, r rune, _ string) {
		fmt.Fprintf(b, `\u%04x`, r)
	})
}

// safeDiag returns d with its message and hint passed through termSafe
// (newlines kept), for the pretty text form printed on a terminal: a tool
// error's message may carry an MCP server's text.
func safeDiag(d *diag.Diagnostic) *diag.Diagnostic {
	m, h := termSafe(d.Message, true), termSafe(d.Hint, true)
	if m == d.Message && h == d.Hint {
		return d
	}
	c := *d
	c.Message, c.Hint = m, h
	return &c
}

// hintForm is the JSON form of d: the bare CLI form {code, message} keeps
// a hint (a policy file that is not a regular file or is too large says
// how to fix it) by becoming the runtime form, which has no span here.
func hintForm(d *diag.Diagnostic, form diag.Form) diag.Form {
	if form == diag.FormCLI && d.Code == diag.EPolicy && d.Hint != "" {
		return diag.FormRuntime
	}
	return form
}
