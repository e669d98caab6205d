module github.com/a0lang/a0

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	golang.org/x/text v0.43.0
)

require (
	github.com/fatih/color v1.19.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/sys v0.42.0 // indirect
)
