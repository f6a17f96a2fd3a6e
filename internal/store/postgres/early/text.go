package early

// The few string and byte helpers the package needs, written here because
// strings and encoding/binary would make its init wait for packages
// initialized late in a process's start (unicode, reflect, os).

func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

func cutPrefix(s, prefix string) (string, bool) {
	if !hasPrefix(s, prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// indexByte returns the index of the first c in s, or -1.
func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// indexAny returns the index of the first byte of s that is in chars (all
// ASCII), or -1.
func indexAny(s, chars string) int {
	for i := 0; i < len(s); i++ {
		if indexByte(chars, s[i]) >= 0 {
			return i
		}
	}
	return -1
}

// cut slices s around the first sep.
func cut(s string, sep byte) (before, after string, found bool) {
	if i := indexByte(s, sep); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

func countByte(s string, c byte) (n int) {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
		}
	}
	return n
}

func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func putBE32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}
