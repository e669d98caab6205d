package parser

import (
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
)

// indexSyntax reports index syntax in a program that parsed: `xs[1]` or
// `r["a"]`. The grammar has no indexing, so such a bracket starts a new
// statement (a list) and the binding before it silently gets the whole
// value. In a program that parsed, a '[' on the same line right after the
// end of an expression can only be such a statement, so it is an E_PARSE
// naming get (spec/language.md §3.11, a deliberate difference from the
// reference, which accepts it).
func indexSyntax(file string, toks []lexer.Token) *diag.Diagnostic {
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		if t.Type != lexer.Punct || t.Text != "[" {
			continue
		}
		prev := toks[i-1]
		if prev.End.Line != t.Start.Line || !endsExpr(toks, i-1) {
			continue
		}
		start := i - 1
		switch {
		case prev.Type == lexer.Ident || prev.Type == lexer.Keyword:
			if s := pathStart(toks, i-1); s >= 0 {
				start = s
			}
		case prev.Text == "]" || prev.Text == ")" || prev.Text == "}":
			if s := matchingOpen(toks, i-1); s >= 0 {
				start = s
			}
		}
		subject := text(toks, start, i)
		if len(subject) > 40 {
			subject = "…"
		}
		end := i
		if c := matchingClose(toks, i); c > 0 {
			end = c
		}
		sp := diag.Span{File: file, Start: t.Start, End: t.End}
		return diag.New(diag.EParse, sp, "Unexpected token '['.", indexHint(toks, i, end, subject, start))
	}
	return nil
}

// endsExpr reports whether toks[i] can end an expression.
func endsExpr(toks []lexer.Token, i int) bool {
	t := toks[i]
	switch t.Type {
	case lexer.Ident, lexer.Int, lexer.Float, lexer.String, lexer.Literal:
		return true
	case lexer.Keyword:
		return i > 0 && toks[i-1].Text == "."
	case lexer.Punct:
		return t.Text == "]" || t.Text == ")" || t.Text == "}"
	}
	return false
}

func indexHint(toks []lexer.Token, open, close int, subject string, start int) string {
	const pre = "A0 has no index syntax: "
	isPath := toks[start].Type == lexer.Ident && pathStart(toks, open-1) == start
	if close == open+2 {
		k := toks[open+1]
		switch k.Type {
		case lexer.Int:
			return pre + "write `get { in: " + subject + ", path: \"[" + k.Text + "]\" }`."
		case lexer.String:
			key, err := lexer.DecodeString(k.Text)
			if err == nil && isName(key) && isPath {
				return pre + "write `" + subject + "." + key + "`, or `get { in: " + subject + ", path: \"" + key + "\" }`."
			}
			return pre + "write `get { in: " + subject + ", path: " + k.Text + " }`."
		case lexer.Ident:
			return pre + "write `get { in: " + subject + ", path: str.concat { parts: [\"[\", " + k.Text + ", \"]\"] } }` for a list position, or `get { in: " + subject + ", path: " + k.Text + " }` for a record key."
		}
	}
	return pre + "write `get { in: " + subject + ", path: \"[0]\" }` (path is a string such as \"a.b[0]\")."
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return !lexer.Keywords[s]
}
