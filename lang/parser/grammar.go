package parser

import (
	plexer "github.com/alecthomas/participle/v2/lexer"
)

// The grammar structs below mirror spec/language.md §3.1 one production each.
// They are unexported: lower.go turns them into lang/ast nodes. Pos/EndPos
// carry token indexes in Offset (see lang/lexer.Stream).

type gProgram struct {
	Pos     plexer.Position
	EndPos  plexer.Position
	Headers []*gHeader `parser:"@@*"`
	Stmts   []*gStmt   `parser:"@@*"`
}

type gHeader struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Cap    *gRecord `parser:"  'cap' @@"`
	Budget *gRecord `parser:"| 'budget' @@"`
	// `input` is an identifier, not a keyword: it starts a header only
	// when `{` follows (a statement cannot start with a call of `input`,
	// since functions are not hoisted, so no valid program changes).
	Input  *gRecord `parser:"| (?= 'input' '{') 'input' @@"`
	Import *gImport `parser:"| 'import' @@"`
}

type gImport struct {
	Path  string `parser:"@String 'as'"`
	Alias string `parser:"@Ident"`
}

type gStmt struct {
	Pos    plexer.Position
	EndPos plexer.Position
	// Keyword-led forms first (they fail on their first token at no cost);
	// the expression statement, whose attempt descends several levels,
	// last.
	Let    *gLet      `parser:"  @@"`
	Return *gExpr     `parser:"| 'return' @@"`
	Fn     *gFn       `parser:"| @@"`
	Expr   *gExprStmt `parser:"| @@"`
}

type gFn struct {
	Name   string   `parser:"'fn' @Ident"`
	Params []string `parser:"'{' ( @Ident ( (?= ',' Ident) ',' @Ident )* ','? )? '}'"`
	Body   *gBlock  `parser:"@@"`
}

type gLet struct {
	Name  string `parser:"'let' @Ident '='"`
	Value *gExpr `parser:"@@"`
}

type gExprStmt struct {
	X      *gExpr      `parser:"@@"`
	Target *gIdentPath `parser:"( '->' @@ )?"`
}

type gBlock struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Stmts  []*gStmt `parser:"'{' @@* '}'"`
}

type gExpr struct {
	Pos    plexer.Position
	EndPos plexer.Position
	// The operator form comes first: it is the most common, and the
	// keyword-led forms below cannot start the same way, so trying it first
	// saves a failed branch per alternative on most expressions.
	Cmp    *gCmp    `parser:"  @@"`
	If     *gIf     `parser:"| @@"`
	For    *gFor    `parser:"| @@"`
	Match  *gMatch  `parser:"| @@"`
	Tool   *gTool   `parser:"| @@"`
	Assert *gAssert `parser:"| @@"`
	Try    *gTry    `parser:"| @@"`
	Filter *gFilter `parser:"| @@"`
	Loop   *gLoop   `parser:"| @@"`
}

type gIf struct {
	Cond *gExpr   `parser:"'if' ( '(' @@ ')'"`
	Then *gBlock  `parser:"        @@ 'else'"`
	Else *gBlock  `parser:"        @@"`
	Rec  *gRecord `parser:"      | @@ )"`
}

type gFor struct {
	Rec  *gRecord `parser:"'for' @@"`
	Body *gBlock  `parser:"@@"`
}

type gFilter struct {
	Rec  *gRecord `parser:"'filter' @@"`
	Body *gBlock  `parser:"@@?"`
}

type gLoop struct {
	Rec  *gRecord `parser:"'loop' @@"`
	Body *gBlock  `parser:"@@"`
}

type gMatch struct {
	Paren *gExpr      `parser:"'match' ( '(' @@ ')'"`
	Path  *gIdentPath `parser:"        | @@ ) '{'"`
	Arm1  *gArm       `parser:"@@"`
	Arm2  *gArm       `parser:"@@ '}'"`
}

type gArm struct {
	Pos     plexer.Position
	EndPos  plexer.Position
	Tag     string  `parser:"@Ident '{'"`
	Binding string  `parser:"@Ident '}'"`
	Body    *gBlock `parser:"@@"`
}

type gTry struct {
	Body  *gBlock `parser:"'try' @@ 'catch' '{'"`
	Name  string  `parser:"@Ident '}'"`
	Catch *gBlock `parser:"@@"`
}

type gTool struct {
	Kind string      `parser:"@( CallQ | 'do' )"`
	Tool *gIdentPath `parser:"@@"`
	Args *gRecord    `parser:"@@"`
}

type gAssert struct {
	Kind string   `parser:"@( 'assert' | 'check' )"`
	Args *gRecord `parser:"@@"`
}

type gCmp struct {
	Pos    plexer.Position
	EndPos plexer.Position
	L      *gArith `parser:"@@"`
	Op     string  `parser:"( @( '>=' | '<=' | '==' | '!=' | '>' | '<' )"`
	R      *gArith `parser:"  @@ )?"`
}

// gArith is a flat chain of operands joined by + - * / %; lower.go applies
// the precedence of * / % over + - (fewer grammar levels per operand means
// far fewer allocations inside participle).
type gArith struct {
	Pos    plexer.Position
	EndPos plexer.Position
	L      *gOperand  `parser:"@@"`
	Rest   []*gArithR `parser:"@@*"`
}

type gArithR struct {
	Op string    `parser:"@( '+' | '-' | '*' | '/' | '%' )"`
	X  *gOperand `parser:"@@"`
}

// gOperand is a primary with any number of unary minus signs before it.
// The alternatives are ordered by frequency; their first tokens are
// disjoint.
type gOperand struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Neg    []string    `parser:"@'-'*"`
	Path   *gIdentPath `parser:"(  @@"`
	Args   *gRecord    `parser:"   @@?"`
	Lit    string      `parser:" | @( Int | Float | String | Literal )"`
	Rec    *gRecord    `parser:" | @@"`
	List   *gList      `parser:" | @@"`
	Paren  *gExpr      `parser:" | '(' @@ ')' )"`
}

type gIdentPath struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Head   string   `parser:"@Ident"`
	Rest   []string `parser:"( '.' @( Ident | Keyword ) )*"`
}

type gRecord struct {
	Pos     plexer.Position
	EndPos  plexer.Position
	Entries []*gEntry `parser:"'{' ( @@ ( (?= ',' ( Ident | Keyword | '...' )) ',' @@ )* ','? )? '}'"`
}

type gEntry struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Key    []string `parser:"  @( Ident | Keyword ) ( '.' @( Ident | Keyword ) )* ':'"`
	Value  *gExpr   `parser:"  @@"`
	Spread *gExpr   `parser:"| '...' @@"`
}

type gList struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Elems  []*gExpr `parser:"'[' ( @@ ( (?= ',' ( '(' | '{' | '[' | '-' | Int | Float | String | Literal | Ident | CallQ | 'do' | 'if' | 'for' | 'match' | 'assert' | 'check' | 'try' | 'filter' | 'loop' )) ',' @@ )* ','? )? ']'"`
}
