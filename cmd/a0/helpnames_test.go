package main

import "github.com/a0lang/a0/runtime/help"

// Names the help tests use from before the reference topics moved to
// runtime/help.
var (
	helpStdlibNames = help.StdlibNames
	helpStdlibIndex = help.StdlibIndex
	topicStdlib     = help.Texts["stdlib"]
)
