//go:build unix && !linux

package main

func closeRangeCloexec() bool { return false }
