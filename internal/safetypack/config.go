package safetypack

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/errs"
)

// ConfigKey is the key of a config.yaml (the system's) that names the
// pack in force.
const ConfigKey = "safety_pack"

// PackIDFromConfig reads safety_pack from the YAML configuration data; file
// names it in errors.
func PackIDFromConfig(data []byte, file string) (string, error) {
	if len(data) > MaxFileSize {
		return "", errs.Invalid("%s is %d bytes; at most %d are read", file, len(data), MaxFileSize)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root, extra yaml.Node
	if err := dec.Decode(&root); err != nil && !errors.Is(err, io.EOF) {
		return "", errs.Wrap(errs.KindInvalid, err, "%s: cannot read configuration", file).
			WithHint("fix the YAML in %s", file)
	}
	// A second document could name another pack; which one is in force
	// would depend on which document a reader takes.
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return "", configError(file, extra.Line, "", "the file holds more than one YAML document; it must hold exactly one")
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return "", nil // an empty file configures nothing
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return "", errs.Invalid("%s: configuration must be a mapping of keys to values", file)
	}
	var found *yaml.Node
	var firstLine int
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != ConfigKey {
			continue
		}
		if found != nil {
			return "", configError(file, k.Line, ConfigKey, "duplicate key (first on line %d)", firstLine)
		}
		found, firstLine = v, k.Line
	}
	if found == nil {
		return "", nil
	}
	v := found
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
		return "", configError(file, v.Line, ConfigKey, "must be a string naming a pack id, got %s", describeNode(v))
	}
	if why := CheckPackID(v.Value); why != "" {
		return "", configError(file, v.Line, ConfigKey, "%q %s", v.Value, why)
	}
	return v.Value, nil
}

func configError(file string, line int, path, format string, a ...any) error {
	pr := errs.Problem{File: file, Path: path, Line: line, Message: fmt.Sprintf(format, a...)}
	return &errs.Error{
		Kind:     errs.KindSafetyPack,
		Msg:      "cannot tell which safety pack is in force: " + pr.String(),
		Problems: []errs.Problem{pr},
		Hint:     fmt.Sprintf("set %s in %s to a pack id such as acme_safety_v1, or remove it to use the shipped pack", ConfigKey, file),
	}
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "a boolean"
		case "!!int", "!!float":
			return "a number"
		}
		return fmt.Sprintf("a value tagged %s", n.ShortTag())
	}
	return "something else"
}
