//go:build !unix

package main

// closeInheritedOnExec does nothing outside Unix: a process started by Go
// on Windows gets only the handles it is given.
func closeInheritedOnExec() {}
