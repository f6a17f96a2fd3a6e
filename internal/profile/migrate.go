package profile

import (
	"bytes"

	"go.yaml.in/yaml/v3"
)

// LegacyFlatFields are the safety fields that profiles written before the
// safety profile was nested carried at their top level.
var LegacyFlatFields = []string{"require_sandbox", "require_checkpoints", "allow_unsafe_tools"}

// HasLegacyFlatFields reports whether a profile document carries any of the
// legacy flat safety fields at its top level. A document that does not parse
// reports false; decoding reports its problems.
func HasLegacyFlatFields(data []byte) bool {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return false
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return false
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		for _, f := range LegacyFlatFields {
			if root.Content[i].Value == f {
				return true
			}
		}
	}
	return false
}

// HasComments reports whether a profile document carries any comment,
// which rewriting it in the canonical format loses. A document that does
// not parse reports true: nothing can be said to be kept.
func HasComments(data []byte) bool {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return true
	}
	return commented(&doc)
}

func commented(n *yaml.Node) bool {
	if n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" {
		return true
	}
	for _, c := range n.Content {
		if commented(c) {
			return true
		}
	}
	return false
}
