package config

import (
	"bytes"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/errs"
)

// SetTrusted returns the configuration data with folder added to (trust
// true) or removed from trusted_projects, and whether that changed
// anything. The rest of the document, comments included, is kept. data
// must decode as a valid configuration, before and after: a broken file is
// never rewritten, and the edit never breaks one.
func SetTrusted(data []byte, file, folder string, trust bool) ([]byte, bool, error) {
	g, err := DecodeGlobal(data, file)
	if err != nil {
		return nil, false, err
	}
	has := slices.Contains(g.TrustedProjects, folder)
	if has == trust {
		return data, false, nil
	}
	var doc yaml.Node
	if !blank(data) {
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, false, errs.Wrap(errs.KindInvalid, err, "%s: cannot read configuration", file)
		}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, false, errs.Invalid("%s: the configuration is not a mapping", file)
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != KeyTrustedProjects {
			continue
		}
		if root.Content[i+1].Kind != yaml.SequenceNode { // null: no list yet
			root.Content[i+1] = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		}
		list = root.Content[i+1]
	}
	if list == nil {
		list = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: KeyTrustedProjects}, list)
	}
	if trust {
		list.Content = append(list.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: folder, Style: yaml.DoubleQuotedStyle})
	} else {
		list.Content = slices.DeleteFunc(list.Content, func(n *yaml.Node) bool { return n.Value == folder })
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, false, errs.Wrap(errs.KindInternal, err, "encoding %s", file)
	}
	_ = enc.Close()
	out := buf.Bytes()
	if _, err := DecodeGlobal(out, file); err != nil {
		return nil, false, errs.Wrap(errs.KindInternal, err, "the edited %s does not decode", file)
	}
	return out, true, nil
}
