package lexer

import (
	"io"

	plexer "github.com/alecthomas/participle/v2/lexer"
)

// Definition adapts a lexed token slice to participle. Lex is not used for
// reading: lang/parser lexes with [Lex] first (to report every E_LEX
// diagnostic), then hands the tokens to participle through [NewStream].
type Definition struct{}

var symbols = map[string]plexer.TokenType{
	"EOF":     plexer.EOF,
	"Ident":   plexer.TokenType(Ident),
	"Int":     plexer.TokenType(Int),
	"Float":   plexer.TokenType(Float),
	"String":  plexer.TokenType(String),
	"Keyword": plexer.TokenType(Keyword),
	"Literal": plexer.TokenType(Literal),
	"CallQ":   plexer.TokenType(CallQ),
	"Punct":   plexer.TokenType(Punct),
}

// Symbols implements participle's lexer.Definition.
func (Definition) Symbols() map[string]plexer.TokenType { return symbols }

// Lex implements participle's lexer.Definition by lexing the whole input.
// Lexical errors end the stream early; lang/parser reports them itself.
func (Definition) Lex(filename string, r io.Reader) (plexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	toks, _ := Lex(filename, string(b))
	return NewStream(filename, toks), nil
}

// Stream feeds tokens to participle. Each participle token's Offset is the
// index of the token in the slice, which lets lang/parser map participle's
// Pos/EndPos back to exact spans.
type Stream struct {
	file string
	toks []Token
	i    int
}

// NewStream returns a participle lexer over toks (which must end with EOF).
func NewStream(file string, toks []Token) *Stream { return &Stream{file: file, toks: toks} }

// NewStreamFrom returns a participle lexer over toks[start:]; Offsets stay
// indexes into toks.
func NewStreamFrom(file string, toks []Token, start int) *Stream {
	return &Stream{file: file, toks: toks, i: start}
}

// Next implements participle's lexer.Lexer.
func (s *Stream) Next() (plexer.Token, error) {
	i := s.i
	if i >= len(s.toks) {
		i = len(s.toks) - 1
	} else {
		s.i++
	}
	t := &s.toks[i]
	return plexer.Token{
		Type:  plexer.TokenType(t.Type),
		Value: t.Text,
		Pos:   plexer.Position{Filename: s.file, Offset: i, Line: t.Start.Line, Column: t.Start.Col},
	}, nil
}
