// Package termout renders text for a terminal: it escapes the characters
// that could steer a terminal in text, JSON and diagnostics that may carry
// another program's words (an MCP server's tool names, descriptions and
// errors), and prints A0 values as indented JSON with coloured keys and
// scalars. Colours are functions the caller provides; the package itself
// writes no escape sequences.
package termout

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/diag"
)

// Safe returns s with every character that could steer a terminal
// shown as a visible escape: the C0 controls (ESC, CR, BEL, …; the newline
// too unless keepNewline), DEL and the C1 controls as \xHH (C1 as \u00HH),
// the line and paragraph separators U+2028 and U+2029 and the bidi
// overrides and isolates (U+202A–U+202E, U+2066–U+2069) as \uHHHH, and
// bytes that are not UTF-8 as \xHH. Text an MCP server provides (tool
// names, descriptions, error messages) goes through it before a0 prints
// it, so a server cannot set the clipboard (OSC 52), rewrite the screen or
// reorder what is shown.
func Safe(s string, keepNewline bool) string {
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
// an invalid byte) is escaped by Safe.
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

// SafeJSON makes JSON text safe for a terminal: JSON already escapes
// the C0 controls, and the characters it leaves raw that Safe escapes
// (DEL, C1, U+2028/2029, bidi controls) can only occur inside strings,
// where \uHHHH stands for them; the value is unchanged.
func SafeJSON(s string) string {
	return escapeRunes(s, func(r rune, n int) bool {
		return r >= 0x7f && termUnsafe(r, n) && !(r == utf8.RuneError && n == 1)
	}, func(b *strings.Builder, r rune, _ string) {
		fmt.Fprintf(b, `\u%04x`, r)
	})
}

// SafeDiag returns d with its message and hint passed through Safe
// (newlines kept), for the pretty text form printed on a terminal: a tool
// error's message may carry an MCP server's text.
func SafeDiag(d *diag.Diagnostic) *diag.Diagnostic {
	m, h := Safe(d.Message, true), Safe(d.Hint, true)
	if m == d.Message && h == d.Hint {
		return d
	}
	c := *d
	c.Message, c.Hint = m, h
	return &c
}
