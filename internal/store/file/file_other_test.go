//go:build !unix

package file_test

// setUmask does nothing where there is no umask.
func setUmask(int) {}
