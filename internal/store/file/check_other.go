//go:build !unix

package file

import "io/fs"

// otherOwner cannot tell owners apart on this system.
func otherOwner(fs.FileInfo) (string, bool) { return "", false }

func otherGroup(fs.FileInfo) (string, bool) { return "", false }

func aclWriters(string) []string { return nil }
