package runtime

import (
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
	"github.com/a0lang/a0/lang/parser"
)

// InputLines is an input of an interactive session being read line by
// line: Add reports whether it is still incomplete (an open bracket, a
// trailing operator), so a host knows whether to read another line. The
// zero value is an empty input. Each line is lexed once (lexer.Scanner); whether the text is incomplete is then decided without
// parsing it again for every line, so reading n lines costs about n:
//
//   - a lexical error, or a text over the parser's size limits, is
//     finished (evaluating it reports the error);
//   - a text ending inside a string literal is finished too (a string
//     cannot span lines: the E_LEX says where it opened);
//   - a line that adds no token changes nothing;
//   - a text whose brackets are balanced and whose last token may end a
//     program is parsed (parser.ParseInput): incomplete exactly when its
//     first error is at its end;
//   - any other text (an open bracket, a trailing operator or keyword)
//     cannot be complete; it is parsed to find an error before its end
//     after every line while it is short, then each time its token count
//     has doubled, and otherwise read on.
type InputLines struct {
	sc      lexer.Scanner
	lines   []string
	checked int  // token count at the last parse
	waiting bool // the text so far is incomplete
}

// shortInput is the token count up to which an input that cannot be
// complete is still parsed after every line.
const shortInput = 256

// Add appends a line and reports whether the input is still incomplete.
func (in *InputLines) Add(line string) bool {
	before := in.sc.Tokens()
	in.lines = append(in.lines, line)
	in.sc.AddLine(line)
	n := in.sc.Tokens()
	switch {
	case in.sc.Failed() || in.sc.Len() > parser.MaxSourceBytes || n > parser.MaxTokens:
		in.waiting = false
	case in.sc.InString():
		// A string literal cannot hold a raw line break, so reading on
		// could only end in an error: report the unclosed string now.
		in.waiting = false
	case in.waiting && n == before:
		// A blank or comment line: still incomplete.
	case in.sc.Depth() < 0 || in.sc.Depth() == 0 && parser.MayEnd(in.sc.Last()):
		in.waiting = in.parse()
	case n <= shortInput || n >= 2*in.checked:
		in.waiting = in.parse()
	default:
		in.waiting = true
	}
	return in.waiting
}

func (in *InputLines) parse() bool {
	in.checked = in.sc.Tokens()
	_, _, incomplete := parser.ParseInput(inputFile, in.sc.Text(), parser.Options{})
	return incomplete
}

// HistoryEntry turns a multi-line input into one line for the history file
// (which holds one entry per line): the tokens joined by single spaces
// where the source had any space, newline or comment between them. A0 does
// not care about newlines, so the entry means the same.
func HistoryEntry(lines []string) string {
	if len(lines) == 1 {
		return lines[0]
	}
	src := strings.Join(lines, "\n")
	toks, ds := lexer.Lex(inputFile, src)
	if len(ds) > 0 {
		return strings.Join(lines, " ")
	}
	var b strings.Builder
	var prev diag.Pos
	for i, t := range toks {
		if t.Type == lexer.EOF {
			break
		}
		if i > 0 && t.Start != prev {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
		prev = t.End
	}
	return b.String()
}

// Text is the input read so far, its lines joined by newlines.
func (in *InputLines) Text() string { return in.sc.Text() }

// Lines are the lines read so far.
func (in *InputLines) Lines() []string { return in.lines }

// inputFile labels the spans of a session input parsed to see whether it
// is complete (the label does not change the answer).
const inputFile = "<repl>"
