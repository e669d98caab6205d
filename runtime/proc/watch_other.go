//go:build !linux

package proc

func watchState(string) (<-chan struct{}, func(), bool) { return nil, nil, false }
