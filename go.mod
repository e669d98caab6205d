module github.com/a0lang/a0

go 1.26.8

require github.com/alecthomas/participle/v2 v2.1.4
