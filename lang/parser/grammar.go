package parser

import (
	plexer "github.com/alecthomas/participle/v2/lexer"
)

// The grammar structs below mirror LANGUAGE.md §2.1 one production each.
// They are unexported: lower.go turns them into lang/ast nodes. Pos/EndPos
// carry token indexes in Offset (see lang/lexer.Stream).

type gProgram struct {
	Pos     plexer.Position
	EndPos  plexer.Position
	Headers []*gHeader `@@*`
	Stmts   []*gStmt   `@@*`
}

type gHeader struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Cap    *gRecord `  "cap" @@`
	Budget *gRecord `| "budget" @@`
	Import *gImport `| "import" @@`
}

type gImport struct {
	Path  string `@String "as"`
	Alias string `@Ident`
}

type gStmt struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Fn     *gFn       `  @@`
	Let    *gLet      `| @@`
	Return *gExpr     `| "return" @@`
	Expr   *gExprStmt `| @@`
}

type gFn struct {
	Name   string   `"fn" @Ident`
	Params []string `"{" ( @Ident ( (?= "," Ident) "," @Ident )* ","? )? "}"`
	Body   *gBlock  `@@`
}

type gLet struct {
	Name  string `"let" @Ident "="`
	Value *gExpr `@@`
}

type gExprStmt struct {
	X      *gExpr      `@@`
	Target *gIdentPath `( "->" @@ )?`
}

type gBlock struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Stmts  []*gStmt `"{" @@* "}"`
}

type gExpr struct {
	Pos    plexer.Position
	EndPos plexer.Position
	If     *gIf     `  @@`
	For    *gFor    `| @@`
	Match  *gMatch  `| @@`
	Tool   *gTool   `| @@`
	Assert *gAssert `| @@`
	Try    *gTry    `| @@`
	Filter *gFilter `| @@`
	Loop   *gLoop   `| @@`
	Cmp    *gCmp    `| @@`
}

type gIf struct {
	Cond *gExpr   `"if" ( "(" @@ ")"`
	Then *gBlock  `        @@ "else"`
	Else *gBlock  `        @@`
	Rec  *gRecord `      | @@ )`
}

type gFor struct {
	Rec  *gRecord `"for" @@`
	Body *gBlock  `@@`
}

type gFilter struct {
	Rec  *gRecord `"filter" @@`
	Body *gBlock  `@@?`
}

type gLoop struct {
	Rec  *gRecord `"loop" @@`
	Body *gBlock  `@@`
}

type gMatch struct {
	Paren *gExpr      `"match" ( "(" @@ ")"`
	Path  *gIdentPath `        | @@ ) "{"`
	Arm1  *gArm       `@@`
	Arm2  *gArm       `@@ "}"`
}

type gArm struct {
	Pos     plexer.Position
	EndPos  plexer.Position
	Tag     string  `@Ident "{"`
	Binding string  `@Ident "}"`
	Body    *gBlock `@@`
}

type gTry struct {
	Body  *gBlock `"try" @@ "catch" "{"`
	Name  string  `@Ident "}"`
	Catch *gBlock `@@`
}

type gTool struct {
	Kind string      `@( CallQ | "do" )`
	Tool *gIdentPath `@@`
	Args *gRecord    `@@`
}

type gAssert struct {
	Kind string   `@( "assert" | "check" )`
	Args *gRecord `@@`
}

type gCmp struct {
	Pos    plexer.Position
	EndPos plexer.Position
	L      *gAdd  `@@`
	Op     string `( @( ">=" | "<=" | "==" | "!=" | ">" | "<" )`
	R      *gAdd  `  @@ )?`
}

type gAdd struct {
	Pos    plexer.Position
	EndPos plexer.Position
	L      *gMul    `@@`
	Rest   []*gAddR `@@*`
}

type gAddR struct {
	Op string `@( "+" | "-" )`
	X  *gMul  `@@`
}

type gMul struct {
	Pos    plexer.Position
	EndPos plexer.Position
	L      *gUnary  `@@`
	Rest   []*gMulR `@@*`
}

type gMulR struct {
	Op string  `@( "*" | "/" | "%" )`
	X  *gUnary `@@`
}

type gUnary struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Neg    *gUnary   `  "-" @@`
	X      *gPrimary `| @@`
}

type gPrimary struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Paren  *gExpr      `  "(" @@ ")"`
	Rec    *gRecord    `| @@`
	List   *gList      `| @@`
	Lit    *gLiteral   `| @@`
	Path   *gIdentPath `| @@`
	Args   *gRecord    `  @@?`
}

type gLiteral struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Tok    string `@( Int | Float | String | Literal )`
}

type gIdentPath struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Head   string   `@Ident`
	Rest   []string `( "." @( Ident | Keyword ) )*`
}

type gRecord struct {
	Pos     plexer.Position
	EndPos  plexer.Position
	Entries []*gEntry `"{" ( @@ ( (?= "," ( Ident | Keyword | "..." )) "," @@ )* ","? )? "}"`
}

type gEntry struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Spread *gExpr   `  "..." @@`
	Key    []string `| @( Ident | Keyword ) ( "." @( Ident | Keyword ) )* ":"`
	Value  *gExpr   `  @@`
}

type gList struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Elems  []*gExpr `"[" ( @@ ( (?= "," ( "(" | "{" | "[" | "-" | Int | Float | String | Literal | Ident | CallQ | "do" | "if" | "for" | "match" | "assert" | "check" | "try" | "filter" | "loop" )) "," @@ )* ","? )? "]"`
}
