package schema

// Get returns the YAML source of the named schema.
func Get(name string) ([]byte, error) {
	file, err := File(name)
	if err != nil {
		return nil, err
	}
	return readFile(file)
}
