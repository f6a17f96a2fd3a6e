//go:build !unix

package store_test

// setUmask does nothing where there is no umask.
func setUmask(int) {}
