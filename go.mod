module github.com/a0lang/a0

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/fatih/color v1.19.0
	github.com/mattn/go-isatty v0.0.20
	github.com/rogpeppe/go-internal v1.14.1
	golang.org/x/text v0.43.0
)

require (
	github.com/chzyer/readline v1.5.1 // indirect
	github.com/creack/pty v1.1.24 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
)
